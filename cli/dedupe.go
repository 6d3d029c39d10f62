package cli

import (
	"context"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/internal/plural"
	"github.com/planq-dev/planq/session"
)

type dedupeOptions struct {
	writeFlags
	dryRun bool
}

func newDedupeCmd(env *Env) *cobra.Command {
	var opts dedupeOptions
	cmd := &cobra.Command{
		Use:   "dedupe",
		Short: "Find learnings and decisions that say the same thing, and keep one",
		Long: fmt.Sprintf(`Find the current learnings and decisions, on global and every agent branch,
that say the same thing, across agents and domains, and show them in groups:
exact (the same words, once case, spacing and final punctuation are folded) or
near (the same subject, or %.0f%% of the same words, stemmed). Each group keeps
the record global holds, else the one citing most sources, else the oldest.
With a search model (planq status shows it), records of one kind and domain
that the model finds alike in meaning though not in words are shown last as
similar groups: the same thing in other words, or two facts about one thing.
dedupe never retracts from them: read them and retract or dispute by hand.

Without --dry-run, every other record of each group is retracted with a
tombstone that names the one kept: one commit on the agent's branch, which
promote carries to global. Nothing is deleted; 'planq show ID --history' shows
each.

--json prints [{"kind","reason","keep":{"id","kind","agent","domain","title",
"time","on_global"},"duplicates":[{"id","kind","agent","domain","title","time",
"on_global"}]}].`, session.NearThreshold*100),
		Example: "  planq dedupe --dry-run\n  planq dedupe\n  planq context promote --all",
		Args:    exactArgs(0, "no arguments"),
		RunE:    func(cmd *cobra.Command, _ []string) error { return runDedupe(cmd.Context(), env, opts) },
	}
	opts.register(cmd)
	cmd.Flags().BoolVar(&opts.dryRun, "dry-run", false, "show the groups; write nothing")
	return cmd
}

func runDedupe(ctx context.Context, env *Env, opts dedupeOptions) error {
	d, err := env.service().Dedupe(ctx, session.DedupeInput{Author: opts.author(), DryRun: opts.dryRun})
	if err != nil {
		return err
	}
	groups, written := d.Groups, d.Written
	if opts.json {
		return env.writeJSON(groups)
	}
	drop := "retracted"
	if opts.dryRun {
		drop = "duplicate"
	}
	similar := 0
	for i, g := range groups {
		if i > 0 {
			env.printf("\n")
		}
		if g.Reason == session.ReasonSimilar {
			similar++
			env.printf("similar %ss (alike in meaning, not in words: read them):\n", g.Kind)
			for _, c := range append([]session.DuplicateCopy{g.Keep}, g.Duplicates...) {
				env.printf("  %-9s %s\n", "", copyLine(c))
			}
			continue
		}
		env.printf("%s %s duplicates:\n  %-9s %s\n", g.Reason, g.Kind, "keep", copyLine(g.Keep))
		for _, d := range g.Duplicates {
			env.printf("  %-9s %s\n", drop, copyLine(d))
		}
	}
	if similar > 0 {
		env.Log.Info(plural.Of(similar, "similar group")+" left as they are", "hint", "planq retract ID --because \"duplicate of ID\" for one that says what another does")
	}
	switch {
	case len(groups) == 0:
		env.Log.Info("no duplicates")
	case opts.dryRun:
		env.Log.Info(plural.Of(len(groups), "group")+"; nothing written", "hint", "planq dedupe")
	case len(written) > 0:
		env.Log.Info("retracted "+plural.Of(len(written), "duplicate"), "agent", written[0].Agent, "commit", short(written[0].Commit))
	}
	return nil
}

func copyLine(c session.DuplicateCopy) string {
	where := "agent " + c.Agent
	if c.OnGlobal {
		where = "global"
	}
	domain := ""
	if c.Domain != "" {
		domain = c.Domain + ", "
	}
	return fmt.Sprintf("%s (%s, %s%s) %s", c.ID, where, domain, c.Time.Local().Format(time.DateOnly), changelog.Shorten(c.Title, 80))
}
