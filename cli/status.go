package cli

import (
	"context"
	"fmt"
	"github.com/planq-dev/planq/embed"
	"github.com/planq-dev/planq/project"
	"sort"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/planq-dev/planq/internal/plural"
	"github.com/planq-dev/planq/knowledge"
	"github.com/planq-dev/planq/readmodel"
)

type statusOptions struct {
	json bool
}

func newStatusCmd(env *Env) *cobra.Command {
	var opts statusOptions
	cmd := &cobra.Command{
		Use:   "status",
		Short: "Show each domain's learnings: size, freshness, trend",
		Long: fmt.Sprintf(`Show, per domain, the team's learnings on global and every agent branch (each
record once): how many are current, superseded, retracted and archived, by type,
how many are disputed and in which weeks they were written (the contradiction
trend), the newest and oldest, how many are past their shelf life (unused for
longer than it: tactical %d days, observational %d, foundational never, unless
shelf_life in .planq/config says otherwise; what 'planq prune' archives), the
learnings written in each of the last %d weeks and whether that rate is
flattening, and the domain's size against its governance: %d current learnings is
the target, %d asks for the domain to be split, %d is the hard limit (learn
refuses more without --force).

After the table, the knowledge base's articles on global: how many, how many
disputed (their sources contradict each other: planq kb resolve settles one) and
deprecated.

--json prints [{"domain","current","superseded","retracted","archived","disputed",
"disputed_weekly","by_type","by_classification","newest","oldest",
"past_shelf_life","stale","weekly","flattening","governance"}], the domains
alone ('planq kb list --json' gives each article's status). stale counts the
current learnings whose anchored code files changed or went since (see learn
--file).`, int(readmodel.ShelfLife["tactical"].Hours()/24), int(readmodel.ShelfLife["observational"].Hours()/24),
			readmodel.TrendWeeks, readmodel.DomainTarget, readmodel.DomainWarning, readmodel.DomainLimit),
		Args: exactArgs(0, "no arguments"),
		RunE: func(cmd *cobra.Command, _ []string) error { return runStatus(cmd.Context(), env, opts) },
	}
	cmd.Flags().BoolVar(&opts.json, "json", false, "print as JSON")
	return cmd
}

func runStatus(ctx context.Context, env *Env, opts statusOptions) error {
	return withHandle(ctx, env, func(h *readmodel.Handle) error {
		domains, problems, err := h.Records.Status(ctx, time.Now(), readmodel.ShelfLivesOf(h.Project.Config.ShelfLife), h.Project.Root)
		if err != nil {
			return err
		}
		if opts.json {
			if err := env.writeJSON(domains); err != nil {
				return err
			}
			return reportProblems(problems)
		}
		kb, _, err := knowledge.Survey(h.Repo)
		if err != nil {
			return err
		}
		tw := newTable(env.Stdout)
		fmt.Fprintln(tw, "DOMAIN\tCURRENT\tSUPERSEDED\tRETRACTED\tARCHIVED\tDISPUTED\tPAST SHELF LIFE\tSTALE\tNEWEST\tWEEKLY\tSIZE\tTYPES")
		for _, d := range domains {
			trend := weeklyTrend(d.Weekly)
			if d.Flattening {
				trend += " flattening"
			}
			disputed := fmt.Sprint(d.Disputed)
			if d.Disputed > 0 {
				disputed += " (" + weeklyTrend(d.DisputedWeekly) + ")"
			}
			fmt.Fprintf(tw, "%s\t%d\t%d\t%d\t%d\t%s\t%d\t%d\t%s\t%s\t%s\t%s\n", d.Domain, d.Current, d.Superseded, d.Retracted, d.Archived, disputed,
				d.PastShelfLife, d.Stale, orDashTime(d.Newest), trend, d.Governance, counts(d.ByType))
		}
		if err := tw.Flush(); err != nil {
			return err
		}
		fmt.Fprintf(env.Stdout, "\nknowledge: %s\n", knowledgeLine(kb))
		fmt.Fprintf(env.Stdout, "search model: %s\n", searchModelLine(h.Project))
		if kb.Disputed > 0 {
			env.Log.Warn("disputed articles", "count", kb.Disputed, "hint", "'planq kb list' shows them; settle each with 'planq kb resolve SLUG --keep SOURCE'")
		}
		for _, d := range domains {
			if d.Governance == readmodel.GovernanceSplit || d.Governance == readmodel.GovernanceHardLimit {
				env.Log.Warn("domain too large", "domain", d.Domain, "current", d.Current,
					"hint", fmt.Sprintf("split it into sub-domains; at %d learn refuses more", readmodel.DomainLimit))
			}
		}
		return reportProblems(problems)
	})
}

// knowledgeLine is status's line on the knowledge base: "12 articles, 1
// disputed".
func knowledgeLine(kb knowledge.Overview) string {
	line := plural.Of(kb.Articles, "article") + ", " + fmt.Sprint(kb.Disputed) + " disputed"
	if kb.Deprecated > 0 {
		line += ", " + fmt.Sprint(kb.Deprecated) + " deprecated"
	}
	return line
}

// weeklyTrend writes weekly counts oldest first, like 0,3,1,0.
func weeklyTrend(weekly []int) string {
	parts := make([]string, len(weekly))
	for i, n := range weekly {
		parts[i] = fmt.Sprint(n)
	}
	return strings.Join(parts, ",")
}

func counts(m map[string]int) string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	parts := make([]string, len(keys))
	for i, k := range keys {
		parts[i] = fmt.Sprintf("%s %d", k, m[k])
	}
	return orDashList(parts)
}

func orDashTime(t time.Time) string {
	if t.IsZero() {
		return "-"
	}
	return t.Local().Format("2006-01-02")
}

// searchModelLine says which model search embeds by, from the settings
// alone: status reads no model.
func searchModelLine(p *project.Project) string {
	c, err := embed.Choose(readmodel.EmbedSettings(p))
	switch {
	case err != nil:
		return "none usable, search goes by words alone (" + err.Error() + ")"
	case c.Kind == embed.KindNone:
		return "none (search: model: none), search goes by words alone"
	case c.Kind == embed.KindDefault && !embed.HasDefault():
		return "default, but this planq carries none: search goes by words alone"
	case c.Kind == embed.KindDefault:
		return "default (built into planq)"
	case c.Kind == embed.KindEndpoint:
		return "endpoint " + c.Name
	}
	return c.Kind + " " + c.Name + " (" + c.Dir + ")"
}
