package brief

import (
	"fmt"
	"strings"

	"github.com/planq-dev/planq/changelog"
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
		from := s.Handoff.Agent
		fmt.Fprintf(&b, "\n## Pending handoff (%s from %s, %s)\n%s\n", s.Handoff.ID, from, s.Handoff.Timestamp.Local().Format("2006-01-02 15:04"), s.Handoff.Body)
	}
	if c := s.BranchContext; c != nil {
		fmt.Fprintf(&b, "\n## Branch %s (%s, by %s)\n%s\n", c.Branch, c.Status, c.Agent, strings.TrimSpace(c.Body))
	}
	fmt.Fprintf(&b, "\n## Scratch\n%s\n", orNone(strings.TrimSpace(strings.TrimPrefix(strings.TrimSpace(s.Scratch), "# Scratch"))))
	section(&b, "Recent log", s.RecentLog, func(r *changelog.Record) string {
		return fmt.Sprintf("%s %s [%s] %s", r.Timestamp.Local().Format("2006-01-02 15:04"), r.ID, r.Type, r.Title())
	})
	section(&b, "Active decisions", s.Decisions, decisionLine)
	section(&b, "Recent learnings", s.Learnings, learningLine)
	section(&b, "Team learnings (global)", s.TeamLearnings, learningLine)
	section(&b, "Team decisions (global)", s.TeamDecisions, decisionLine)
	return b.String()
}

func section(b *strings.Builder, title string, recs []*changelog.Record, line func(*changelog.Record) string) {
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

func learningLine(r *changelog.Record) string {
	line := fmt.Sprintf("%s [%s/%s] %s", r.ID, r.Domain, r.Type, r.Title())
	if r.Resolution != "" {
		line += " (resolution: " + r.Resolution + ")"
	}
	return line + statusTag(r)
}
func decisionLine(r *changelog.Record) string {
	line := fmt.Sprintf("%s %s", r.ID, r.Decision)
	if len(r.Alternatives) > 0 {
		line += " (over " + strings.Join(r.Alternatives, ", ") + ")"
	}
	return line + ": " + r.Rationale + statusTag(r)
}
func statusTag(r *changelog.Record) string {
	tag := ""
	if r.Status == "disputed" {
		tag += " [disputed]"
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

func shortHash(h string) string {
	if len(h) > 12 {
		return h[:12]
	}
	return h
}
