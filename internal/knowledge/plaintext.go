package knowledge

import (
	"fmt"
	"strings"
	"unicode"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/planqerr"
)

// checkPlain refuses an article whose title, description, tags or topic
// hold a control character (C0, DEL or C1: an escape sequence, a bell, a
// tab): they land as they are in knowledge/_index.md and in every
// listing, where a terminal would act on them.
func checkPlain(subject string, a *changelog.Article) error {
	for _, f := range []struct {
		name   string
		values []string
	}{{"title", []string{a.Title}}, {"description", []string{a.Description}}, {"tags", a.Tags}, {"topic", []string{a.Topic}}} {
		for _, v := range f.values {
			if i := strings.IndexFunc(v, unicode.IsControl); i >= 0 {
				c := []rune(v[i:])[0]
				return planqerr.New(planqerr.Invalid, subject, "%s holds a control character (%s): an article's title, description, tags and topic are plain text", f.name, escapeRune(c)).
					WithHint("take it out: the index and every listing show these fields as they are")
			}
		}
	}
	return nil
}

// escapeRune writes a control character as Go would inside a string:
// \x1b, \u009b.
func escapeRune(c rune) string {
	if c < 0x80 {
		return fmt.Sprintf(`\x%02x`, c)
	}
	return fmt.Sprintf(`\u%04x`, c)
}

// plainLine is s without its control characters (a tab becomes a space):
// the title and description of an article planq derives from records,
// which may hold them.
func plainLine(s string) string {
	if strings.IndexFunc(s, unicode.IsControl) < 0 {
		return s
	}
	return strings.Join(strings.Fields(strings.Map(func(c rune) rune {
		switch {
		case c == '\t':
			return ' '
		case unicode.IsControl(c):
			return -1
		}
		return c
	}, s)), " ")
}

// derivedLine is the title or description planq writes for an article it
// derives, from s: s without control characters, or slug when nothing
// else is left of it.
func derivedLine(s, slug string) string {
	clean := plainLine(s)
	if clean == "" && s != "" {
		return slug
	}
	return clean
}
