package readmodel

import "github.com/planq-dev/planq/changelog"

// The one-line forms are the record model's (changelog/forms.go, a column
// of the kind table), so that writers name records without the read side's
// views. These forward to them for the readers that still call them here.

// Line is r's one-line form: changelog.Record.Line.
func Line(r *changelog.Record) string { return r.Line() }

// Shorten is changelog.Shorten.
func Shorten(s string, n int) string { return changelog.Shorten(s, n) }

// Title is what r is called in one phrase: changelog.Record.Headline.
func Title(r *changelog.Record) string { return r.Headline() }

// TimeLayout is how readers show a record's time: changelog.TimeLayout.
const TimeLayout = changelog.TimeLayout
