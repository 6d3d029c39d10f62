package cli

import (
	"context"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/planq-dev/planq/agent"
	"github.com/planq-dev/planq/brief"
	"github.com/planq-dev/planq/changelog"
)

func newContextCmd(env *Env) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "context",
		Short: "Show or set what the agent works on; promote it into global",
		Args:  exactArgs(0, "a subcommand: show or set"),
		RunE:  func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
	}
	cmd.AddCommand(newContextShowCmd(env), newContextSetCmd(env), newPromoteCmd(env))
	return cmd
}

type contextShowOptions struct {
	agent string
	json  bool
}

func newContextShowCmd(env *Env) *cobra.Command {
	var opts contextShowOptions
	cmd := &cobra.Command{
		Use:   "show",
		Short: "Show the summary an agent needs to pick up its work",
		Long: `Show the agent's current focus, scratch notes, its last 5 log entries, active
decisions, its recent learnings, the pending handoff and the code branch.

--json prints {"project","agent","branch","agent_dir","code":{"branch","commit"},
"focus","scratch","recent_log":[record],"decisions":[record],"learnings":[record],
"handoff":record}.`,
		Args: exactArgs(0, "no arguments"),
		RunE: func(*cobra.Command, []string) error { return runContextShow(env, opts) },
	}
	cmd.Flags().StringVar(&opts.agent, "agent", "", "show agent `NAME`'s context")
	cmd.Flags().BoolVar(&opts.json, "json", false, "print as JSON")
	return cmd
}

func runContextShow(env *Env, opts contextShowOptions) error {
	store, a, err := env.openAgent(opts.agent)
	if err != nil {
		return err
	}
	defer env.closeStore(store)
	s, err := brief.Build(a)
	if err != nil {
		return err
	}
	if opts.json {
		err = env.writeJSON(s)
	} else {
		err = printSummary(env, s)
	}
	if err != nil {
		return err
	}
	return reportProblems(s.Problems)
}

func printSummary(env *Env, s *brief.Summary) error {
	var b strings.Builder
	fmt.Fprintf(&b, "# %s: agent %s (%s)\n", s.Project, s.Agent, s.Branch)
	if s.Code.Branch != "" || s.Code.Commit != "" {
		fmt.Fprintf(&b, "code branch: %s at %s\n", orDash(s.Code.Branch), short(s.Code.Commit))
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
	_, err := fmt.Fprint(env.Stdout, b.String())
	return err
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

type contextSetOptions struct {
	writeFlags
}

func newContextSetCmd(env *Env) *cobra.Command {
	var opts contextSetOptions
	cmd := &cobra.Command{
		Use:     "set FOCUS",
		Short:   "Set the agent's current focus (context.md)",
		Example: `  planq context set "Token refresh on 401"`,
		Args:    exactArgs(1, "the FOCUS"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runContextSet(cmd.Context(), env, opts, args[0])
		},
	}
	opts.register(cmd)
	return cmd
}

func runContextSet(ctx context.Context, env *Env, opts contextSetOptions, focus string) error {
	store, a, err := env.openAgent(opts.agent)
	if err != nil {
		return err
	}
	defer env.closeStore(store)
	w, err := a.SetFocus(ctx, focus, agent.WriteOptions{AllowSecret: opts.allowSecret})
	if err != nil {
		return err
	}
	return reportWritten(env, opts.writeFlags, w)
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
