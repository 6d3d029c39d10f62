package prime

import (
	"github.com/planq-dev/planq/changelog"
)

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

// teaching is what r teaches in one phrase (changelog.Teaching).
func teaching(r *changelog.Record) string { return changelog.TeachingOf(r, gistWidth) }
