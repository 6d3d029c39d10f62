package review

import (
	"html/template"
	"strings"
	"testing"

	"github.com/yuin/goldmark"
	"golang.org/x/net/html"
)

// linkSourcesTokenizer is linkSources as it was written with
// golang.org/x/net/html's tokenizer, before start-up dropped that package
// from planq (its init builds an entity table every process paid for):
// the oracle linkSources is held to, byte for byte, on goldmark's output.
func linkSourcesTokenizer(rendered string, sources map[string]bool) template.HTML {
	z := html.NewTokenizer(strings.NewReader(rendered))
	var b strings.Builder
	skip := 0 // depth inside a, code, pre
	for {
		tt := z.Next()
		switch tt {
		case html.ErrorToken:
			return template.HTML(b.String()) //nolint:gosec // goldmark's output, which escapes text and drops raw HTML; only links are added
		case html.StartTagToken:
			tok := z.Token()
			switch tok.Data {
			case "a":
				skip++
				for i, a := range tok.Attr {
					if m := articleLinkRE().FindStringSubmatch(a.Val); a.Key == "href" && m != nil {
						tok.Attr[i].Val = "/?article=" + m[1] + "#knowledge"
					}
				}
				b.WriteString(tok.String())
				continue
			case "code", "pre":
				skip++
			}
			b.Write(z.Raw())
		case html.EndTagToken:
			if name, _ := z.TagName(); skip > 0 && (string(name) == "a" || string(name) == "code" || string(name) == "pre") {
				skip--
			}
			b.Write(z.Raw())
		case html.TextToken:
			raw := string(z.Raw())
			if skip > 0 {
				b.WriteString(raw)
				continue
			}
			b.WriteString(recordIDRE().ReplaceAllStringFunc(raw, func(id string) string {
				if !sources[id] {
					return id
				}
				return `<a class="source" href="#source-` + id + `">` + id + `</a>`
			}))
		case html.SelfClosingTagToken, html.CommentToken, html.DoctypeToken:
			b.Write(z.Raw())
		}
	}
}

// linkSourcesSeeds are Markdown bodies whose rendering holds every piece
// linkSources treats apart: cited and uncited IDs in text, code spans,
// code blocks, links (inline, reference, autolink, with titles and
// entities), article links, raw HTML goldmark leaves out, images.
var linkSourcesSeeds = []string{
	"# Decision\n\nUse **PostgreSQL** (pq-0123456789; pq-aaaaaaaaaa).\n\n`pq-0123456789` in code, and [pq-0123456789](https://example.com/x).\n\n" +
		"<script>alert(1)</script>\n\n<img src=x onerror=alert(1)>\n\n[click](javascript:alert(1))\n\n# Related\n\n- [Pool](../operations/pool-size.md)\n",
	"pq-0123456789 at the start, pq-0123456789pq-0123456789 glued, xpq-0123456789 inside a word, pq-0123456789.",
	"```\npq-0123456789 in a block\n```\n\n    pq-0123456789 indented\n\nafter pq-0123456789",
	"[a pq-0123456789 link](../a/b.md \"a 'title' & \\\"quotes\\\"\") and [b](c.md) and [d](x/y/z.md) and [e](../A/B.md)",
	"<https://example.com/?a=1&b=2> and <me@example.com> and [q](https://x.test/?q=\"<>'&amp;&copy;&copy)",
	"[ref][r] and ![img pq-0123456789](i.png \"t\") and [x](<a b.md>)\n\n[r]: ../topic/slug.md 'T & \"U\"'",
	"a <b>raw</b> <!-- c --> <?php x ?> <![CDATA[y]]> &lt;pq-0123456789&gt; &amp; &copy; \x00 \r\n line\r\n",
	"> quote pq-0123456789\n\n1. one `pq-0123456789`\n2. two pq-0123456789\n\n| t |\n|---|\n| pq-0123456789 |\n\n***\n\nhard  \nbreak",
	"<a href=\"x.md\">raw link</a> pq-0123456789 <code>raw code</code> pq-0123456789",
}

// TestLinkSourcesMatchesTokenizer: without x/net/html, the page shows
// every article exactly as it did with it.
func TestLinkSourcesMatchesTokenizer(t *testing.T) {
	for _, body := range linkSourcesSeeds {
		checkLinkSources(t, body)
	}
}

// FuzzLinkSources: whatever an article holds, linkSources writes what the
// tokenizer-based version wrote.
func FuzzLinkSources(f *testing.F) {
	for _, seed := range linkSourcesSeeds {
		f.Add(seed)
	}
	f.Fuzz(checkLinkSources)
}

func checkLinkSources(t *testing.T, body string) {
	var out strings.Builder
	if err := goldmark.Convert([]byte(body), &out); err != nil {
		return
	}
	sources := map[string]bool{"pq-0123456789": true}
	want := linkSourcesTokenizer(out.String(), sources)
	if got := linkSources(out.String(), sources); got != want {
		t.Fatalf("%q renders\n%s\nwhere the tokenizer gave\n%s", body, got, want)
	}
}
