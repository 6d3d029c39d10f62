package cli

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/planq-dev/planq/internal/plural"
	"github.com/planq-dev/planq/session"
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
--file).`, int(session.ShelfLife["tactical"].Hours()/24), int(session.ShelfLife["observational"].Hours()/24),
			session.TrendWeeks, session.DomainTarget, session.DomainWarning, session.DomainLimit),
		Args: exactArgs(0, "no arguments"),
		RunE: func(cmd *cobra.Command, _ []string) error { return runStatus(cmd.Context(), env, opts) },
	}
	cmd.Flags().BoolVar(&opts.json, "json", false, "print as JSON")
	return cmd
}

func runStatus(ctx context.Context, env *Env, opts statusOptions) error {
	st, err := env.service().Status(ctx, !opts.json)
	if err != nil {
		return err
	}
	if opts.json {
		if err := env.writeJSON(st.Domains); err != nil {
			return err
		}
		return reportProblems(st.Problems)
	}
	tw := newTable(env.Stdout)
	fmt.Fprintln(tw, "DOMAIN\tCURRENT\tSUPERSEDED\tRETRACTED\tARCHIVED\tDISPUTED\tPAST SHELF LIFE\tSTALE\tNEWEST\tWEEKLY\tSIZE\tTYPES")
	for _, d := range st.Domains {
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
	fmt.Fprintf(env.Stdout, "\nknowledge: %s\n", knowledgeLine(st.Knowledge))
	fmt.Fprintf(env.Stdout, "search model: %s\n", st.SearchModel)
	if st.Knowledge.Disputed > 0 {
		env.Log.Warn("disputed articles", "count", st.Knowledge.Disputed, "hint", "'planq kb list' shows them; settle each with 'planq kb resolve SLUG --keep SOURCE'")
	}
	for _, d := range st.Domains {
		if d.Governance == session.GovernanceSplit || d.Governance == session.GovernanceHardLimit {
			env.Log.Warn("domain too large", "domain", d.Domain, "current", d.Current,
				"hint", fmt.Sprintf("split it into sub-domains; at %d learn refuses more", session.DomainLimit))
		}
	}
	return reportProblems(st.Problems)
}

// knowledgeLine is status's line on the knowledge base: "12 articles, 1
// disputed".
func knowledgeLine(kb session.KBOverview) string {
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
