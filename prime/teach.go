package prime

import (
	"slices"
	"strings"

	"github.com/planq-dev/planq/changelog"
)

// A record is listed by its one-line form, made of its title (its body's
// first line). That is what the record teaches when its author wrote a
// sentence; a title that only names the record says little: a pattern
// imported from mulch is titled by its name, a slug
// ("recipe-default-export-strict") whose description holds the knowledge;
// an automated recorder's failure starts with a field ("Agent:
// coordinator"). Such a title is followed, on the record's line, by the
// first sentence of what the body says after it: what it teaches.

// maxNamingWords is the most words a title that only names its record has:
// a slug or an identifier is one, a field ("Agent: coordinator") or a topic
// ("token refresh") two or three. A title of more words says something.
const maxNamingWords = 3

// gistWidth is the most characters a line adds after a title: one
// sentence, enough to say what the record teaches, short enough that a
// listing of many records stays one line each.
const gistWidth = 140

// teachingLine is r's one-line form (changelog.Record.Line, with its
// particulars and marks) with teaching(r) for its title.
func teachingLine(r *changelog.Record) string {
	t := teaching(r)
	if t == r.Title() {
		return r.Line()
	}
	shown := *r // the line reads the title from the body: give it the longer one
	shown.Body = t
	return shown.Line()
}

// teaching is what r teaches in one phrase: its title, followed by what
// the body says after it when the title only names r.
func teaching(r *changelog.Record) string {
	title, rest, _ := strings.Cut(strings.TrimSpace(r.Body), "\n")
	title = strings.TrimSpace(title)
	if len(strings.Fields(title)) > maxNamingWords {
		return title
	}
	return title + gist(title, rest)
}

// gist is what a line adds after title, a record's first line, of rest,
// the lines after it: "" when nothing follows, else a separator and at most
// gistWidth characters. Three shapes of body:
//   - a field list, every line "Key: value" (an automated recorder's): the
//     fields, joined by "; ";
//   - the title's own paragraph wrapped onto the next lines: the rest of its
//     first sentence;
//   - a paragraph after a blank line (a name, then its description): its
//     first sentence, after ": ".
func gist(title, rest string) string {
	lines := strings.Split(rest, "\n")
	wrapped := strings.TrimSpace(lines[0]) != ""
	var para []string // the first paragraph, each line's spaces made one
	for _, l := range lines {
		l = strings.Join(strings.Fields(l), " ")
		if l == "" && len(para) > 0 {
			break
		}
		if l != "" {
			para = append(para, l)
		}
	}
	if len(para) == 0 {
		return ""
	}
	if wrapped && changelog.IsReportField(title) && all(para, changelog.IsReportField) {
		return "; " + changelog.Shorten(strings.Join(para, "; "), gistWidth)
	}
	text := changelog.Shorten(firstSentence(strings.Join(para, " ")), gistWidth)
	if wrapped || strings.HasSuffix(title, ":") {
		return " " + text
	}
	return ": " + text
}

func all(lines []string, ok func(string) bool) bool {
	for _, l := range lines {
		if !ok(l) {
			return false
		}
	}
	return true
}

// abbreviations end in a period without ending a sentence.
var abbreviations = []string{"e.g.", "i.e.", "etc.", "vs.", "cf."}

// firstSentence is text up to the end of its first sentence: a '.', '!' or
// '?' followed by a space, or the end of text, unless it ends one of the
// abbreviations; all of text when no sentence ends in it.
func firstSentence(text string) string {
	for i := 0; i < len(text); i++ {
		if c := text[i]; c != '.' && c != '!' && c != '?' {
			continue
		}
		if i+1 < len(text) && text[i+1] != ' ' {
			continue
		}
		word := strings.ToLower(text[strings.LastIndexByte(text[:i], ' ')+1 : i+1])
		if !slices.Contains(abbreviations, word) {
			return text[:i+1]
		}
	}
	return text
}
