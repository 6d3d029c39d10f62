package review

import (
	"bytes"
	"fmt"
	"html"
	"html/template"
	"regexp"
	"strings"
	"sync"

	"github.com/yuin/goldmark"
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
	recordIDRE    = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`\bpq-[0-9a-f]{4,64}\b`) })
	articleLinkRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(?:\.\./)?(?:[a-z0-9-]+/)?([a-z0-9-]+)\.md$`) })
)

// linkSources rewrites rendered HTML: record IDs among sources in text
// outside <a>, <code> and <pre> link to #source-<id>; links to other
// articles by their relative path open them on the page. It reads only
// what goldmark writes (well-formed tags, text with < and & escaped), so a
// small scanner does, where golang.org/x/net/html's tokenizer would make
// every planq process build its entity table at start-up; a test holds it
// to what that tokenizer gave, byte for byte.
func linkSources(rendered string, sources map[string]bool) template.HTML {
	var b strings.Builder
	skip := 0 // depth inside a, code, pre
	for rest := rendered; rest != ""; {
		n := markupLen(rest)
		if n == 0 { // text, up to the next tag or comment
			n = textLen(rest)
			if skip > 0 {
				b.WriteString(rest[:n])
			} else {
				b.WriteString(linkIDs(rest[:n], sources))
			}
			rest = rest[n:]
			continue
		}
		skip = writeTag(&b, rest[:n], skip)
		rest = rest[n:]
	}
	return template.HTML(b.String()) //nolint:gosec // goldmark's output, which escapes text and drops raw HTML; only links are added
}

// textLen is the length of the text s starts with, up to the next tag or
// comment.
func textLen(s string) int {
	for i := 1; i < len(s); i++ {
		if s[i] == '<' && markupLen(s[i:]) > 0 {
			return i
		}
	}
	return len(s)
}

// linkIDs links the record IDs among sources in text to #source-<id>.
func linkIDs(text string, sources map[string]bool) string {
	return recordIDRE().ReplaceAllStringFunc(text, func(id string) string {
		if !sources[id] {
			return id
		}
		return `<a class="source" href="#source-` + id + `">` + id + `</a>`
	})
}

// writeTag writes tag (an <a> as anchorTag makes it) and returns skip, the
// depth inside a, code and pre, after it.
func writeTag(b *strings.Builder, tag string, skip int) int {
	name, end := tagName(tag)
	switch {
	case strings.HasSuffix(tag, "/>") || name == "":
	case end && skip > 0 && (name == "a" || name == "code" || name == "pre"):
		skip--
	case !end && name == "a":
		b.WriteString(anchorTag(tag))
		return skip + 1
	case !end && (name == "code" || name == "pre"):
		skip++
	}
	b.WriteString(tag)
	return skip
}

// markupLen is the length of the tag or comment s starts with, 0 when s
// starts with text.
func markupLen(s string) int {
	switch {
	case len(s) < 2 || s[0] != '<':
		return 0
	case strings.HasPrefix(s, "<!--"):
		return endAfter(s, 4, "-->")
	case s[1] == '!' || s[1] == '?' || s[1] == '/' && len(s) > 2 && !isLetter(s[2]):
		return endAfter(s, 0, ">")
	case isLetter(s[1]) || s[1] == '/' && len(s) > 2:
		return tagLen(s)
	}
	return 0
}

// endAfter is the length of s up to the first end from from on, end
// included; all of s when there is none.
func endAfter(s string, from int, end string) int {
	if i := strings.Index(s[from:], end); i >= 0 {
		return from + i + len(end)
	}
	return len(s)
}

// tagLen is the length of the tag s starts with: it ends at the first >
// outside a quoted attribute value.
func tagLen(s string) int {
	for i := 1; i < len(s); i++ {
		switch s[i] {
		case '>':
			return i + 1
		case '=':
			j := i + 1
			for j < len(s) && isSpace(rune(s[j])) {
				j++
			}
			if j < len(s) && (s[j] == '"' || s[j] == '\'') {
				k := strings.IndexByte(s[j+1:], s[j])
				if k < 0 {
					return len(s)
				}
				i = j + 1 + k
			}
		}
	}
	return len(s)
}

// tagName is tag's element name, lower-cased, and whether it is an end tag.
func tagName(tag string) (string, bool) {
	end := strings.HasPrefix(tag, "</")
	s := strings.TrimPrefix(strings.TrimPrefix(tag, "</"), "<")
	if s == "" || !isLetter(s[0]) {
		return "", end
	}
	n := strings.IndexFunc(s, func(r rune) bool { return isSpace(r) || r == '/' || r == '>' })
	if n < 0 {
		n = len(s)
	}
	return strings.ToLower(s[:n]), end
}

// anchorTag writes an <a> start tag as the tokenizer's Token.String did:
// each attribute key="value", the value escaped again; an href to another
// article opens it on the page.
func anchorTag(tag string) string {
	var b strings.Builder
	b.WriteString("<a")
	s := strings.TrimSuffix(tag[2:], ">")
	for {
		s = strings.TrimLeftFunc(s, func(r rune) bool { return isSpace(r) || r == '/' })
		if s == "" {
			break
		}
		n := strings.IndexFunc(s[1:], func(r rune) bool { return isSpace(r) || r == '/' || r == '=' })
		if n < 0 {
			n = len(s)
		} else {
			n++
		}
		key, val := strings.ToLower(s[:n]), ""
		s = strings.TrimLeftFunc(s[n:], isSpace)
		if strings.HasPrefix(s, "=") {
			s = strings.TrimLeftFunc(s[1:], isSpace)
			if s != "" && (s[0] == '"' || s[0] == '\'') {
				k := strings.IndexByte(s[1:], s[0])
				if k < 0 {
					k = len(s) - 1
				}
				val, s = s[1:1+k], s[min(len(s), 2+k):]
			} else {
				k := strings.IndexFunc(s, isSpace)
				if k < 0 {
					k = len(s)
				}
				val, s = s[:k], s[k:]
			}
			val = html.UnescapeString(val)
		}
		if m := articleLinkRE().FindStringSubmatch(val); key == "href" && m != nil {
			val = "/?article=" + m[1] + "#knowledge"
		}
		b.WriteString(" " + key + `="` + escapeAttr(val) + `"`)
	}
	b.WriteString(">")
	return b.String()
}

// escapeAttr escapes an attribute value as x/net/html does.
func escapeAttr(s string) string {
	var b strings.Builder
	for i := 0; i < len(s); i++ {
		switch s[i] {
		case '&':
			b.WriteString("&amp;")
		case '\'':
			b.WriteString("&#39;")
		case '<':
			b.WriteString("&lt;")
		case '>':
			b.WriteString("&gt;")
		case '"':
			b.WriteString("&#34;")
		case '\r':
			b.WriteString("&#13;")
		default:
			b.WriteByte(s[i])
		}
	}
	return b.String()
}

func isLetter(c byte) bool { return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' }

func isSpace(r rune) bool { return r == ' ' || r == '\t' || r == '\n' || r == '\r' || r == '\f' }
