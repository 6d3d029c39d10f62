package review

import (
	"strings"
	"testing"

	"golang.org/x/net/html"
)

// TestMarkdownRendersSafelyAndLinksSources: an article's Markdown renders
// to HTML without the raw HTML it holds or links that run code; record IDs
// it cites link to its sources, but not inside code or a link, nor IDs it
// does not cite; a Related link opens the article on the page.
func TestMarkdownRendersSafelyAndLinksSources(t *testing.T) {
	body := "# Decision\n\nUse **PostgreSQL** (pq-0123456789; pq-aaaaaaaaaa).\n\n" +
		"`pq-0123456789` in code, and [pq-0123456789](https://example.com/x).\n\n" +
		"<script>alert(1)</script>\n\n<img src=x onerror=alert(1)>\n\n[click](javascript:alert(1))\n\n" +
		"# Related\n\n- [Pool](../operations/pool-size.md)\n"
	out, err := markdown(body, map[string]bool{"pq-0123456789": true})
	if err != nil {
		t.Fatal(err)
	}
	html := string(out)
	for _, want := range []string{
		"<h1>Decision</h1>", "<strong>PostgreSQL</strong>",
		`(<a class="source" href="#source-pq-0123456789">pq-0123456789</a>; pq-aaaaaaaaaa)`,
		"<code>pq-0123456789</code>", `<a href="https://example.com/x">pq-0123456789</a>`,
		`<a href="/?article=pool-size#knowledge">Pool</a>`,
	} {
		if !strings.Contains(html, want) {
			t.Errorf("lacks %s:\n%s", want, html)
		}
	}
	for _, bad := range []string{"<script", "onerror", "javascript:", `href="#source-pq-aaaaaaaaaa"`} {
		if strings.Contains(html, bad) {
			t.Errorf("holds %s:\n%s", bad, html)
		}
	}
}

// FuzzMarkdown: whatever an article holds, its rendering carries no
// element that runs code, no event handler and no link whose scheme runs
// code, and never panics.
func FuzzMarkdown(f *testing.F) {
	for _, seed := range []string{"# A\n\n(pq-0123456789)", "<script>x</script>", "[a](javascript:x)", "`pq-0123456789`",
		"<a href=\"x\" onclick=\"y\">pq-0123456789</a>", "[x](../a/b.md)", "![i](JaVaScRiPt:x)", "<iframe src=x>"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, body string) {
		out, err := markdown(body, map[string]bool{"pq-0123456789": true})
		if err != nil {
			return
		}
		z := html.NewTokenizer(strings.NewReader(string(out)))
		for {
			tt := z.Next()
			if tt == html.ErrorToken {
				return
			}
			if tt != html.StartTagToken && tt != html.SelfClosingTagToken {
				continue
			}
			tok := z.Token()
			switch tok.Data {
			case "script", "style", "iframe", "object", "embed", "svg", "math", "form":
				t.Fatalf("%q renders a %s element:\n%s", body, tok.Data, out)
			}
			for _, a := range tok.Attr {
				v := strings.ToLower(strings.Join(strings.Fields(a.Val), ""))
				if strings.HasPrefix(a.Key, "on") || (a.Key == "href" || a.Key == "src") && (strings.HasPrefix(v, "javascript:") || strings.HasPrefix(v, "vbscript:")) {
					t.Fatalf("%q renders %s=%q:\n%s", body, a.Key, a.Val, out)
				}
			}
		}
	})
}
