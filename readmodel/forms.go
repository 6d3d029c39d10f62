package readmodel

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/planq-dev/planq/changelog"
)

// Line is a record's one-line form: what it says, with its kind's
// particulars, without its ID, agent or time (each reader adds those it
// shows). Every reader that lists records uses it, so a record reads the
// same in context show, prime, log, search and over MCP.
func Line(r *changelog.Record) string {
	var line string
	switch r.Kind {
	case changelog.KindLearning:
		line = fmt.Sprintf("[%s/%s] %s", r.Domain, r.Type, r.Title())
		if r.Resolution != "" {
			line += " (resolution: " + r.Resolution + ")"
		}
	case changelog.KindDecision:
		line = r.Decision
		if line == "" {
			line = r.Title()
		}
		if len(r.Alternatives) > 0 {
			line += " (over " + strings.Join(r.Alternatives, ", ") + ")"
		}
		if r.Rationale != "" {
			line += ": " + r.Rationale
		}
	case changelog.KindLog:
		line = fmt.Sprintf("[%s] %s", r.Type, r.Title())
	case changelog.KindHandoff:
		line = r.Title()
		if r.To != "" {
			line += " (to " + r.To + ")"
		}
	case changelog.KindCheckpoint:
		line = r.Name + ": " + r.Title()
	case changelog.KindNote:
		line = fmt.Sprintf("[%s, %s] %s", r.Type, r.Status, r.Title())
	case changelog.KindProposal:
		line = fmt.Sprintf("[%s, %d files] %s", r.Status, len(r.Files), r.Title())
	default:
		line = r.Title() // a kind this build does not know: its first line
	}
	return line + tags(r)
}

// Shorten keeps s to at most n characters (not bytes: a character is never
// cut in two), ending in "…" when it cut anything.
func Shorten(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n-1]) + "…"
}

// Title is what a record is called in one phrase: a decision's decision,
// else the first line of its body.
func Title(r *changelog.Record) string {
	if r.Kind == changelog.KindDecision && r.Decision != "" {
		return r.Decision
	}
	return r.Title()
}

// tags are the marks a reader must see: a dispute, a ring of versions, and
// the agents a merged record came from.
func tags(r *changelog.Record) string {
	tag := ""
	if r.Status == changelog.StatusDisputed {
		tag += " [disputed]"
	}
	if r.SupersedesRing {
		tag += " " + RingMark
	}
	if len(r.Sources) > 1 {
		agents := make([]string, len(r.Sources))
		for i, s := range r.Sources {
			agents[i] = s.Agent
		}
		tag += " (from " + strings.Join(agents, ", ") + ")"
	}
	return tag
}

// TimeLayout is how readers show a record's time.
const TimeLayout = "2006-01-02 15:04"
