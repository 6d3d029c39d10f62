package changelog

import (
	"fmt"
	"strings"
	"unicode/utf8"

	"github.com/planq-dev/planq/internal/plural"
)

// A record's one-line form is a column of the kind table (Spec.line): what
// the record says, with its kind's particulars, without its ID, agent or
// time (each reader adds those it shows). Readers list records by it, so a
// record reads the same in context show, prime, log, search and over MCP;
// writers name records by it in commit messages. A kind without a form of
// its own is its body's first line.

// TimeLayout is how readers show a record's time.
const TimeLayout = "2006-01-02 15:04"

// RingMark is how a reader marks the one version it shows of versions that
// supersede each other in a ring (SupersedesRing).
const RingMark = "[supersedes ring: run planq validate]"

// Line is r's one-line form, with the marks a reader must see: a dispute, a
// ring of versions, and the agents a merged record came from.
func (r *Record) Line() string {
	var line string
	if s := r.Kind.Spec(); s != nil && s.line != nil {
		line = s.line(r)
	} else {
		line = r.Title() // a kind with no form of its own, or one this build does not know
	}
	return line + r.marks()
}

// Headline is what r is called in one phrase: its kind's name for it (a
// decision's decision), else the first line of its body.
func (r *Record) Headline() string {
	if s := r.Kind.Spec(); s != nil && s.headline != nil {
		if h := s.headline(r); h != "" {
			return h
		}
	}
	return r.Title()
}

// Shorten keeps s to at most n characters (not bytes: a character is never
// cut in two), ending in "…" when it cut anything.
func Shorten(s string, n int) string {
	if utf8.RuneCountInString(s) <= n {
		return s
	}
	return string([]rune(s)[:n-1]) + "…"
}

// The kinds' one-line forms and headlines, named in their rows.

func learningLine(r *Record) string {
	line := fmt.Sprintf("[%s/%s] %s", r.Domain, r.Type, r.Title())
	if r.Resolution != "" {
		line += " (resolution: " + r.Resolution + ")"
	}
	return line
}

func decisionHeadline(r *Record) string { return r.Decision }

func decisionLine(r *Record) string {
	line := r.Decision
	if line == "" {
		line = r.Title()
	}
	if len(r.Alternatives) > 0 {
		line += " (over " + strings.Join(r.Alternatives, ", ") + ")"
	}
	if r.Rationale != "" {
		line += ": " + r.Rationale
	}
	return line
}

func logLine(r *Record) string { return fmt.Sprintf("[%s] %s", r.Type, r.Title()) }

func handoffLine(r *Record) string {
	if r.To != "" {
		return r.Title() + " (to " + r.To + ")"
	}
	return r.Title()
}

func checkpointLine(r *Record) string { return r.Name + ": " + r.Title() }

func noteLine(r *Record) string { return fmt.Sprintf("[%s, %s] %s", r.Type, r.Status, r.Title()) }

func proposalLine(r *Record) string {
	return fmt.Sprintf("[%s, %s] %s", r.Status, plural.Of(len(r.Files), "file"), r.Title())
}

// marks are what a reader must see of r whatever its kind.
func (r *Record) marks() string {
	tag := ""
	if r.Status == StatusDisputed {
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
