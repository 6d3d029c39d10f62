package main

import (
	"fmt"
	"io"
	"strings"

	"golang.org/x/net/html"
	"golang.org/x/net/html/atom"
)

// htmlLines returns the text of an HTML page as lines: a line per
// paragraph, heading, list item or table cell, and a line per line of a
// code block (identifiers are what a question about code names). Scripts,
// styles, navigation, sidebars and the generated lists of trait
// implementations rustdoc repeats on every page are left out.
func htmlLines(r io.Reader) ([]string, error) {
	doc, err := html.Parse(r)
	if err != nil {
		return nil, fmt.Errorf("failed to parse html: %w", err)
	}
	var w lineWriter
	w.walk(doc, false)
	w.flush()
	return w.lines, nil
}

type lineWriter struct {
	lines []string
	cur   strings.Builder
}

// flush ends the current line.
func (w *lineWriter) flush() {
	if s := strings.TrimSpace(w.cur.String()); s != "" {
		w.lines = append(w.lines, s)
	}
	w.cur.Reset()
}

func (w *lineWriter) walk(n *html.Node, pre bool) {
	switch n.Type {
	case html.TextNode:
		w.text(n.Data, pre)
		return
	case html.CommentNode, html.DoctypeNode:
		return
	case html.ElementNode:
		if skipElement(n) {
			return
		}
		if n.DataAtom == atom.Br {
			w.flush()
			return
		}
		if n.DataAtom == atom.Pre {
			pre = true
		}
	case html.ErrorNode, html.DocumentNode, html.RawNode:
	}
	block := n.Type == html.ElementNode && blockElements[n.DataAtom]
	if block {
		w.flush()
	}
	for c := n.FirstChild; c != nil; c = c.NextSibling {
		w.walk(c, pre)
	}
	if block {
		w.flush()
	}
}

// text adds a text node: in a code block every line of it is a line; elsewhere
// runs of white space are one space.
func (w *lineWriter) text(s string, pre bool) {
	if !pre {
		// Inline elements join their text without a space (<code>os</code>.path
		// is os.path); white space in the text itself is kept as one space.
		if s != "" && isSpace(s[0]) {
			w.cur.WriteByte(' ')
		}
		w.cur.WriteString(strings.Join(strings.Fields(s), " "))
		if len(s) > 1 && isSpace(s[len(s)-1]) {
			w.cur.WriteByte(' ')
		}
		return
	}
	for i, line := range strings.Split(s, "\n") {
		if i > 0 {
			w.flush()
		}
		w.cur.WriteString(line)
	}
}

var blockElements = map[atom.Atom]bool{
	atom.P: true, atom.Div: true, atom.Pre: true, atom.Li: true, atom.Ul: true, atom.Ol: true,
	atom.Dl: true, atom.Dt: true, atom.Dd: true, atom.H1: true, atom.H2: true, atom.H3: true,
	atom.H4: true, atom.H5: true, atom.H6: true, atom.Table: true, atom.Tr: true, atom.Td: true,
	atom.Th: true, atom.Blockquote: true, atom.Section: true, atom.Article: true, atom.Main: true,
	atom.Body: true, atom.Caption: true, atom.Summary: true, atom.Details: true, atom.Hr: true,
	atom.Figure: true, atom.Figcaption: true,
}

var skipElements = map[atom.Atom]bool{
	atom.Head: true, atom.Script: true, atom.Style: true, atom.Noscript: true, atom.Nav: true,
	atom.Svg: true, atom.Button: true, atom.Form: true, atom.Input: true, atom.Select: true,
	atom.Template: true, atom.Iframe: true,
}

// skipIDs and skipClasses name the navigation and boilerplate of the
// generators that made these pages: Sphinx (Python), DocBook
// (PostgreSQL), mdBook (the Rust books) and rustdoc.
var skipIDs = map[string]bool{
	"sidebar": true, "menu-bar": true, "menu-bar-hover-placeholder": true, "searchbar-outer": true,
	"search-wrapper": true, "trait-implementations-list": true, "synthetic-implementations-list": true,
	"blanket-implementations-list": true, "synthetic-implementations": true, "blanket-implementations": true,
	"trait-implementations": true,
}

var skipClasses = map[string]bool{
	"sphinxsidebar": true, "related": true, "footer": true, "headerlink": true,
	"navheader": true, "navfooter": true,
	"nav-wrapper": true, "nav-chapters": true, "mobile-nav-chapters": true,
	"sidebar": true, "sidebar-elems": true, "out-of-band": true, "srclink": true, "src": true,
	"search-container": true, "notable-traits": true, "since": true, "anchor": true,
}

func skipElement(n *html.Node) bool {
	if skipElements[n.DataAtom] {
		return true
	}
	for _, a := range n.Attr {
		switch a.Key {
		case "id":
			if skipIDs[a.Val] {
				return true
			}
		case "class":
			for _, c := range strings.Fields(a.Val) {
				if skipClasses[c] {
					return true
				}
			}
		}
	}
	return false
}

func isSpace(b byte) bool { return b == ' ' || b == '\n' || b == '\t' || b == '\r' || b == '\f' }
