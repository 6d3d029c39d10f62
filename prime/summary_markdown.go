package prime

import (
	"fmt"
	"strings"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/readmodel"
)

// Markdown renders the summary for people and agents.
func (s *Summary) Markdown() string {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s: agent %s (%s)\n", s.Project, s.Agent, s.Branch)
	if s.Code.Branch != "" || s.Code.Commit != "" {
		fmt.Fprintf(&b, "code branch: %s at %s\n", orDash(s.Code.Branch), shortHash(s.Code.Commit))
	}
	focus := s.Focus
	if focus == "" {
		focus = `(none: set it with planq context set "...")`
	}
	fmt.Fprintf(&b, "\n## Focus\n%s\n", focus)
	if s.Handoff != nil {
		fmt.Fprintf(&b, "\n## Pending handoff (%s from %s, %s)\n%s\n", s.Handoff.ID, s.Handoff.Agent, s.Handoff.Timestamp.Local().Format(readmodel.TimeLayout), s.Handoff.Body)
	}
	if c := s.BranchContext; c != nil {
		fmt.Fprintf(&b, "\n## Branch %s (%s, by %s)\n%s\n", c.Branch, c.Status, c.Agent, strings.TrimSpace(c.Body))
	}
	fmt.Fprintf(&b, "\n## Scratch\n%s\n", orNone(strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(s.Scratch), "# Scratch"))))
	summarySection(&b, "Recent log", s.RecentLog, func(r *changelog.Record) string {
		return r.Timestamp.Local().Format(readmodel.TimeLayout) + " " + r.ID + " " + readmodel.Line(r)
	})
	withID := func(r *changelog.Record) string { return r.ID + " " + readmodel.Line(r) }
	summarySection(&b, "Active decisions", s.Decisions, withID)
	summarySection(&b, "Recent learnings", s.Learnings, withID)
	summarySection(&b, "Team learnings (global)", s.TeamLearnings, withID)
	summarySection(&b, "Team decisions (global)", s.TeamDecisions, withID)
	return b.String()
}

func summarySection(b *strings.Builder, title string, recs []*changelog.Record, line func(*changelog.Record) string) {
	fmt.Fprintf(b, "\n## %s\n", title)
	if len(recs) == 0 {
		b.WriteString("(none)\n")
	}
	for _, r := range recs {
		fmt.Fprintf(b, "- %s\n", line(r))
	}
}

func orNone(s string) string {
	if strings.TrimSpace(s) == "" {
		return "(none)"
	}
	return s
}

func orDash(s string) string {
	if s == "" {
		return "(detached)"
	}
	return s
}

func shortHash(h string) string {
	if len(h) > 12 {
		return h[:12]
	}
	return h
}
