package cli

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/spf13/cobra"

	"github.com/planq-dev/planq/internal/plural"
	"github.com/planq-dev/planq/planqerr"
	"github.com/planq-dev/planq/session"
)

type primeOptions struct {
	agent  string
	format string
	budget int
	role   string
	source string
	dryRun bool
	asOf   asOfFlag
}

func newPrimeCmd(env *Env) *cobra.Command {
	var opts primeOptions
	cmd := &cobra.Command{
		Use:   "prime",
		Short: "Print the context an agent gets at session start",
		Long: `Print what an agent should know when a session starts: its focus and pending
handoff, the context of its code branch, the project's learnings by priority
(foundational first, failures with their resolutions, then conventions and
patterns), recent decisions, what other agents did, and how to record.
--role lead shows what awaits promotion, what is disputed, and each agent's
activity instead.

After a compaction or on resume (--source compact|resume) it prints a short
recovery form and a reminder to record what was learned before it. A pending
handoff is shown until 'planq handoff ack ID'.

The output stays under --budget characters (default 9000, under Claude Code's
10,000): the least important items are left out first and a closing line says
how many, with the command that shows them. --dry-run lists every item, its
size, and whether it was included. .planq/PRIME.md, a Go text/template, replaces
the layout. Outside a planq project, prime prints nothing and exits 0.`,
		Example: "  planq prime\n  planq prime --source compact\n  planq prime --role lead --format xml\n  planq prime --dry-run",
		Args:    exactArgs(0, "no arguments"),
		RunE:    func(cmd *cobra.Command, _ []string) error { return runPrime(cmd.Context(), env, opts) },
	}
	f := cmd.Flags()
	f.StringVar(&opts.agent, "agent", "", "prime agent `NAME` (default: the agent mounted here)")
	f.StringVar(&opts.format, "format", "markdown", "`FORMAT`: "+strings.Join(session.Formats, "|"))
	f.IntVar(&opts.budget, "budget", session.DefaultBudget, "at most `N` characters")
	f.StringVar(&opts.role, "role", session.RoleAgent, "`ROLE`: agent|lead")
	f.StringVar(&opts.source, "source", session.SourceStartup, "how the session started: startup|resume|compact|clear")
	f.BoolVar(&opts.dryRun, "dry-run", false, "list what is included and left out, with sizes")
	opts.asOf.register(cmd)
	return cmd
}

func runPrime(ctx context.Context, env *Env, opts primeOptions) error {
	if opts.role != session.RoleAgent && opts.role != session.RoleLead {
		return planqerr.New(planqerr.Invalid, "--role", "unknown role %q", opts.role).WithHint("use agent or lead")
	}
	if !slices.Contains(session.PrimeSources, opts.source) {
		return planqerr.New(planqerr.Invalid, "--source", "unknown source %q", opts.source).
			WithHint("use one of %s", strings.Join(session.PrimeSources, ", "))
	}
	if opts.budget <= 0 {
		return planqerr.New(planqerr.Invalid, "--budget", "must be a positive number of characters, not %d", opts.budget).
			WithHint("leave it out for the default, %d", session.DefaultBudget)
	}
	svc := env.service()
	if planqerr.Is(svc.InProject(), planqerr.NotInitialized) {
		return nil // not a planq project: nothing to say, and no failure
	}
	out, doc, err := svc.Prime(ctx, session.PrimeOptions{Agent: opts.agent, Role: opts.role, Source: opts.source, Format: opts.format, Budget: opts.budget, Preview: opts.dryRun, AsOf: opts.asOf.spec,
		Warn: func(w error) { env.Log.Warn(w.Error()) }})
	if err != nil {
		return err
	}
	for _, problem := range doc.Problems {
		env.Log.Warn("malformed record left out", "problem", problem)
	}
	if opts.dryRun {
		tw := newTable(env.Stdout)
		fmt.Fprintln(tw, "STATE\tSECTION\tPRIORITY\tSIZE\tTEXT")
		for _, it := range doc.Items {
			state := "included"
			if it.Dropped {
				state = "dropped"
			}
			fmt.Fprintf(tw, "%s\t%s\t%d\t%d\t%s\n", state, it.Section, it.Priority, len(it.Text), firstLine(it.Text, 60))
		}
		if err := tw.Flush(); err != nil {
			return err
		}
		env.printf("total %s, budget %d, %s left out\n", plural.Of(len(out), "character"), opts.budget, plural.Of(doc.Dropped(), "item"))
		return nil
	}
	env.printf("%s", out)
	return nil
}

func firstLine(s string, n int) string {
	s, _, _ = strings.Cut(s, "\n")
	if len(s) > n {
		s = s[:n-3] + "..."
	}
	return s
}
