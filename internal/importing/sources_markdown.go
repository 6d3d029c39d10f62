package importing

import (
	"bytes"
	"fmt"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"unicode"
	"unicode/utf8"

	"go.yaml.in/yaml/v3"

	"github.com/planq-dev/planq/changelog"
)

// The Markdown a bootstrap reads (instruction files, agents' memories) is
// cut into items: each bullet of a list, and each paragraph that is no
// list, under the heading nearest above it. A fenced code block belongs to
// the item it follows; horizontal rules, HTML comments and items of fewer
// than three words say nothing and are left out.

// mdItem is one item of a Markdown file.
type mdItem struct {
	// heading is the text of the nearest heading above it, "" for none.
	heading string
	text    string
	// line is where it starts, 1-based, counting the frontmatter.
	line   int
	bullet bool
}

// maxMarkdownFile is the largest Markdown file a bootstrap reads: an
// instruction file or a memory is a few pages, not megabytes.
const maxMarkdownFile = 1 << 20

// readableText says why data is no text a bootstrap reads ("" when it is):
// too large, binary, not UTF-8.
func readableText(data []byte) string {
	switch {
	case len(data) > maxMarkdownFile:
		return fmt.Sprintf("larger than %d KiB", maxMarkdownFile>>10)
	case bytes.IndexByte(data, 0) >= 0:
		return "a binary file"
	case !utf8.Valid(data):
		return "not UTF-8 text"
	}
	return ""
}

var (
	// Compiled on first use: every planq process links the knowledge
	// sources, and only reading those sources (kb bootstrap) needs them.
	headingRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^ {0,3}(#{1,6})\s+(.*?)\s*#*\s*$`) })
	bulletRE  = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^ {0,3}(?:[-*+]|\d{1,9}[.)])(?:\s+|$)`) })
	fenceRE   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile("^ {0,3}(```|~~~)") })
	ruleRE    = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`^ {0,3}(?:(?:-\s*){3,}|(?:\*\s*){3,}|(?:_\s*){3,})$`)
	})
	yamlLine = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`line (\d+)`) })
)

// splitFrontmatter cuts YAML frontmatter ("---" lines around it) from the
// top of content: the fields, the body, and the line the body starts on.
// Frontmatter that is no YAML mapping is an error naming its line.
func splitFrontmatter(content string) (map[string]any, string, int, error) {
	content = strings.ToValidUTF8(content, "\uFFFD") // a reader checks the file first; this keeps every parser's output text
	rest, ok := strings.CutPrefix(content, "---\n")
	if !ok {
		rest, ok = strings.CutPrefix(content, "---\r\n")
	}
	if !ok {
		return nil, content, 1, nil
	}
	end := -1
	offset := 0
	lines := 1
	for {
		i := strings.IndexByte(rest[offset:], '\n')
		line := rest[offset:]
		if i >= 0 {
			line = rest[offset : offset+i]
		}
		if strings.TrimRight(line, "\r \t") == "---" {
			end = offset
			break
		}
		lines++
		if i < 0 {
			break
		}
		offset += i + 1
	}
	if end < 0 {
		return nil, "", 0, &lineError{line: 1, msg: "frontmatter opens with --- and never closes"}
	}
	fields := map[string]any{}
	if err := yaml.Unmarshal([]byte(rest[:end]), &fields); err != nil {
		line := 1
		if m := yamlLine().FindStringSubmatch(err.Error()); m != nil {
			n, _ := strconv.Atoi(m[1])
			line += n
		}
		return nil, "", 0, &lineError{line: line, msg: "broken frontmatter: " + strings.Join(strings.Fields(strings.TrimPrefix(err.Error(), "yaml: ")), " ")}
	}
	body := rest[end:]
	if i := strings.IndexByte(body, '\n'); i >= 0 {
		body = body[i+1:]
	} else {
		body = ""
	}
	return fields, body, lines + 2, nil
}

// lineError is a problem at one line of a file.
type lineError struct {
	line int
	msg  string
}

func (e *lineError) Error() string { return e.msg }

// stringField is fields[key] when it is a string, else "".
func stringField(fields map[string]any, key string) string {
	s, _ := fields[key].(string)
	return strings.TrimSpace(s)
}

// markdownItems cuts body, whose first line is line first of its file,
// into items.
func markdownItems(body string, first int) []mdItem {
	var c itemCutter
	for i, line := range strings.Split(body, "\n") {
		c.line(first+i, strings.TrimRight(line, "\r"))
	}
	c.flush()
	return c.items
}

type itemCutter struct {
	items          []mdItem
	cur            *mdItem
	text           []string
	heading, fence string
	comment        bool
}

func (c *itemCutter) flush() {
	switch {
	case c.cur == nil:
	case !c.cur.bullet && isTable(c.text):
		// A table's rows are its facts, each read with its column names
		// ("Command: bun test; Usage: Run tests"), not one line of pipes.
		for i, row := range tableRows(c.text) {
			item := *c.cur
			item.line, item.text = c.cur.line+i, row
			c.keep(item)
		}
	default:
		c.cur.text = strings.TrimSpace(strings.Join(c.text, "\n"))
		c.keep(*c.cur)
	}
	c.cur, c.text = nil, nil
}

// keep adds it to the items, unless it says too little or points at what
// others say (a table of contents).
func (c *itemCutter) keep(it mdItem) {
	if len(strings.Fields(it.text)) >= 3 && !tableOfContents(it.heading, it.text) {
		c.items = append(c.items, it)
	}
}

// isTable reports whether lines are a Markdown table: a header row, the
// row of dashes under it, and rows, every line between pipes.
func isTable(lines []string) bool {
	if len(lines) < 3 || !tableRuleRE().MatchString(strings.TrimSpace(lines[1])) {
		return false
	}
	for _, l := range lines {
		if !strings.HasPrefix(strings.TrimSpace(l), "|") {
			return false
		}
	}
	return true
}

// tableRows are a table's lines, by line ("" for the header's and the
// rule's): each row its cells named by their column, "Name: cell" joined
// by "; ".
func tableRows(lines []string) []string {
	header := tableCells(lines[0])
	rows := make([]string, 2, len(lines))
	for _, l := range lines[2:] {
		var parts []string
		for j, cell := range tableCells(l) {
			switch {
			case cell == "":
			case j < len(header) && header[j] != "":
				parts = append(parts, header[j]+": "+cell)
			default:
				parts = append(parts, cell)
			}
		}
		rows = append(rows, strings.Join(parts, "; "))
	}
	return rows
}

func tableCells(line string) []string {
	line = strings.TrimSpace(line)
	line = strings.TrimSuffix(strings.TrimPrefix(line, "|"), "|")
	cells := strings.Split(line, "|")
	for i, c := range cells {
		cells[i] = strings.TrimSpace(c)
	}
	return cells
}

var tableRuleRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^\|?\s*:?-+:?\s*(\|\s*:?-+:?\s*)*\|?$`) })

// tableOfContents reports whether an item is an entry of a table of
// contents: under a heading that says so, or only a link within its file
// ("[Security](#security)"). It points at knowledge, it holds none.
func tableOfContents(heading, text string) bool {
	switch strings.ToLower(heading) {
	case "table of contents", "contents", "toc":
		return true
	}
	return tocLinkRE().MatchString(text)
}

var tocLinkRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(\d+\.\s*)?\[[^\]]*\]\(#[^)]*\)\s*$`) })

func (c *itemCutter) start(n int, bullet bool) {
	c.flush()
	c.cur = &mdItem{heading: c.heading, line: n, bullet: bullet}
}

func (c *itemCutter) line(n int, line string) {
	trimmed := strings.TrimSpace(line)
	switch {
	case c.fence != "":
		c.text = append(c.text, line)
		if strings.HasPrefix(trimmed, c.fence) {
			c.fence = ""
		}
	case c.comment:
		c.comment = !strings.Contains(line, "-->")
	case strings.HasPrefix(trimmed, "<!--"):
		c.comment = !strings.Contains(trimmed, "-->")
	case fenceRE().MatchString(line):
		c.fence = fenceRE().FindStringSubmatch(line)[1]
		if c.cur == nil {
			c.start(n, false)
		}
		c.text = append(c.text, line)
	case headingRE().MatchString(line):
		c.flush()
		c.heading = cleanHeading(headingRE().FindStringSubmatch(line)[2])
	case ruleRE().MatchString(line):
		c.flush()
	case bulletRE().MatchString(line):
		c.start(n, true)
		c.text = append(c.text, strings.TrimSpace(bulletRE().ReplaceAllString(line, "")))
	case trimmed == "":
		if c.cur != nil && !c.cur.bullet {
			c.flush()
		}
	case c.continues(line):
		c.text = append(c.text, trimmed)
	default:
		c.start(n, false)
		c.text = append(c.text, trimmed)
	}
}

// continues: a paragraph's next line, or a bullet's indented one.
func (c *itemCutter) continues(line string) bool {
	return c.cur != nil && (!c.cur.bullet || strings.HasPrefix(line, " ") || strings.HasPrefix(line, "\t"))
}

// cleanHeading is a heading's text without emphasis, a trailing colon or
// a leading number, on one line.
func cleanHeading(s string) string {
	s = strings.Trim(s, "*_` ")
	s = strings.TrimSuffix(s, ":")
	return changelog.Shorten(strings.Join(strings.Fields(s), " "), 120)
}

// SameList reports whether origins a and b name items of one list, read
// from one heading of one file: itemOrigin's "<source>:<file>#<heading>"
// before the "@" and the item's hash. An origin clipped for its length
// has lost that shape, and is of no list.
func SameList(a, b string) bool {
	at, _, okA := strings.Cut(a, "@")
	bt, _, okB := strings.Cut(b, "@")
	return okA && okB && at == bt && strings.Contains(at, "#")
}

// itemOrigin names an item of file: its heading and a hash of its text,
// so that the item keeps its origin while the rest of the file changes.
func itemOrigin(prefix, file string, it mdItem) string {
	anchor := "top"
	if it.heading != "" {
		anchor = changelog.Slugify(it.heading)
	}
	return capOrigin(fmt.Sprintf("%s:%s#%s@%s", prefix, file, anchor, shortHash(it.text)))
}

// capOrigin keeps an origin within the 200 characters a record holds:
// a longer one keeps its start and a hash of the whole.
func capOrigin(o string) string {
	o = strings.Map(func(r rune) rune {
		if unicode.IsControl(r) {
			return '?' // a file's name may hold a line break; an origin is one line
		}
		return r
	}, strings.ToValidUTF8(o, "\uFFFD"))
	if len(o) <= 200 {
		return o
	}
	return clip(o, 180) + "~" + shortHash(o)
}

// clip keeps s to at most n bytes, never cutting a character in two.
func clip(s string, n int) string {
	if len(s) <= n {
		return s
	}
	for n > 0 && !utf8.RuneStart(s[n]) {
		n--
	}
	return s[:n]
}

// subjectOf is the subject a heading gives the records under it: one
// line of at most 200 characters, "" for none.
func subjectOf(heading string) string {
	s := strings.Join(strings.Fields(strings.ToValidUTF8(heading, "\uFFFD")), " ")
	if len(s) <= 200 {
		return s
	}
	return clip(s, 197) + "…"
}
