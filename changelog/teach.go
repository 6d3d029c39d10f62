package changelog

import (
	"slices"
	"strings"
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

// OnlyNames reports whether title, a body's first line, only names its
// record rather than saying something.
func OnlyNames(title string) bool { return len(strings.Fields(title)) <= maxNamingWords }

// TitleOnlyNames reports whether r's title only names it: a few words
// (OnlyNames), or its subject word for word, however long. A mulch record's
// name is both its subject and its title ("bd CLI JSON normalization"),
// and its description, after a blank line, is what it teaches.
func TitleOnlyNames(r *Record) bool {
	title, _, _ := strings.Cut(strings.TrimSpace(r.Body), "\n")
	return OnlyNames(title) || r.Subject != "" && strings.EqualFold(strings.Join(strings.Fields(title), " "), strings.Join(strings.Fields(r.Subject), " "))
}

// Teaching is what body teaches in one phrase: its first line, followed by
// at most width characters of what the body says after it when that line
// only names it.
func Teaching(body string, width int) string {
	title, _, _ := strings.Cut(strings.TrimSpace(body), "\n")
	return teaching(body, width, OnlyNames(strings.TrimSpace(title)))
}

// TeachingOf is what r's body teaches in one phrase, as Teaching, its title
// read as only naming it when TitleOnlyNames says so.
func TeachingOf(r *Record, width int) string { return teaching(r.Body, width, TitleOnlyNames(r)) }

func teaching(body string, width int, onlyNames bool) string {
	title, rest, _ := strings.Cut(strings.TrimSpace(body), "\n")
	title = strings.TrimSpace(title)
	if !onlyNames {
		return title
	}
	return title + gist(title, rest, width)
}

// gist is what a line adds after title, a record's first line, of rest,
// the lines after it: "" when nothing follows, else a separator and at most
// width characters. Three shapes of body:
//   - a field list, every line "Key: value" (an automated recorder's): the
//     fields, joined by "; ";
//   - the title's own paragraph wrapped onto the next lines: the rest of its
//     first sentence;
//   - a paragraph after a blank line (a name, then its description): its
//     first sentence, after ": ".
func gist(title, rest string, width int) string {
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
	if wrapped && IsReportField(title) && all(para, IsReportField) {
		return "; " + Shorten(strings.Join(para, "; "), width)
	}
	text := Shorten(FirstSentence(strings.Join(para, " ")), width)
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
var abbreviations = []string{"e.g.", "i.e.", "etc.", "vs.", "cf.", "approx.", "a.k.a.", "mr.", "mrs.", "ms.", "dr."}

// FirstSentence is text up to the end of its first sentence: a '.', '!' or
// '?' followed by a space, or the end of text, unless it ends one of the
// abbreviations or stands inside parentheses ("(see main.go. It …)"); all
// of text when no sentence ends in it.
func FirstSentence(text string) string {
	depth := 0
	for i := 0; i < len(text); i++ {
		switch c := text[i]; {
		case c == '(':
			depth++
		case c == ')' && depth > 0:
			depth--
		case c != '.' && c != '!' && c != '?', depth > 0, i+1 < len(text) && text[i+1] != ' ':
		default:
			word := strings.TrimLeft(text[strings.LastIndexByte(text[:i], ' ')+1:i+1], `("'[`)
			if !slices.Contains(abbreviations, strings.ToLower(word)) {
				return text[:i+1]
			}
		}
	}
	return text
}
