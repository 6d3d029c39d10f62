package review

import (
	"bytes"
	"fmt"
	"html/template"
	"regexp"
	"strings"

	"github.com/yuin/goldmark"
	"golang.org/x/net/html"
)

// markdown renders an article's body for the page. goldmark's defaults
// keep it safe to show: raw HTML in the Markdown is left out, and links
// of schemes that run code (javascript:, vbscript:, data:) lose their
// target. Then, outside links and code, every record ID the article cites
// becomes a link to its line in the article's sources, and a link to
// another article (../<topic>/<slug>.md, as Related links read) opens that
// article on the page.
func markdown(body string, sources map[string]bool) (template.HTML, error) {
	var out bytes.Buffer
	if err := goldmark.Convert([]byte(body), &out); err != nil {
		return "", fmt.Errorf("failed to render the article: %w", err)
	}
	return linkSources(out.String(), sources), nil
}

var (
	recordIDRE    = regexp.MustCompile(`\bpq-[0-9a-f]{4,64}\b`)
	articleLinkRE = regexp.MustCompile(`^(?:\.\./)?(?:[a-z0-9-]+/)?([a-z0-9-]+)\.md$`)
)

// linkSources rewrites rendered HTML: record IDs among sources in text
// outside <a>, <code> and <pre> link to #source-<id>; links to other
// articles by their relative path open them on the page.
func linkSources(rendered string, sources map[string]bool) template.HTML {
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
					if m := articleLinkRE.FindStringSubmatch(a.Val); a.Key == "href" && m != nil {
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
			b.WriteString(recordIDRE.ReplaceAllStringFunc(raw, func(id string) string {
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
