package cli

import (
	"context"
	"fmt"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/planq-dev/planq/agent"
	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/planqerr"
	"github.com/planq-dev/planq/project"
	"github.com/planq-dev/planq/readmodel"
	"github.com/planq-dev/planq/search"
	"github.com/planq-dev/planq/workspace"
)

type searchOptions struct {
	phrasings   []string
	kinds       []string
	domains     []string
	types       []string
	agents      []string
	since       string
	scope       string
	allVersions bool
	full        bool
	limit       int
	json        bool
	asOf        asOfFlag
}

func newSearchCmd(env *Env) *cobra.Command {
	var opts searchOptions
	cmd := &cobra.Command{
		Use:   "search QUERY...",
		Short: "Search every agent's and the team's records",
		Long: `Search the current records of global and every agent for QUERY, best first.
Each QUERY argument is one phrasing of the question; several are ranked each and
fused, so pass two or three, including identifiers the record may hold (a
command, a file, an error message). Words match by stem ("migrating" finds
"migration"), identifiers by their parts (advisory_lock, PgBouncer), the last
word also as a prefix. A title, subject or decision counts most, then domain,
type and files, then the body; at equal relevance foundational and newer records
come first. Superseded versions only with --all-versions; retracted records never.

Each result: path:from-to (the lines to read with 'planq get'), kind, writer,
date, [disputed] when the team disagrees, then the lines around the best match.

--json prints {"query","phrasings","total","hits":[{"path","id","kind","agent",
"time","status","title","score","from","to","snippet"}]}.`,
		Example: "  planq search \"how are migrations applied\" \"make db-migrate\"\n" +
			"  planq search RS256 --kind decision --json\n" +
			"  planq search flaky test --domain ci --since 30d",
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usagef("%s: expects the QUERY to look for", cmd.CommandPath())
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.phrasings = args
			return runSearch(cmd.Context(), env, opts)
		},
	}
	f := cmd.Flags()
	f.StringSliceVar(&opts.kinds, "kind", nil, "only records of `KIND`: "+changelog.Join(changelog.Kinds, "|"))
	f.StringSliceVar(&opts.domains, "domain", nil, "only learnings of `DOMAIN`")
	f.StringSliceVar(&opts.types, "type", nil, "only records of `TYPE`")
	f.StringSliceVar(&opts.agents, "agent", nil, "only records written by agent `NAME`")
	f.StringVar(&opts.since, "since", "", "only records written since `WHEN`: a date (2026-01-31) or an age (12h, 7d, 4w)")
	f.StringVar(&opts.scope, "scope", "all", "where to search: `agent` (this agent's branch), global, or all")
	f.BoolVar(&opts.allVersions, "all-versions", false, "also find versions a later one superseded")
	f.BoolVar(&opts.full, "full", false, "print whole records, not the lines around the match")
	f.IntVarP(&opts.limit, "limit", "n", readmodel.DefaultSearchLimit, fmt.Sprintf("at most `N` results (at most %d)", readmodel.MaxSearchLimit))
	f.BoolVar(&opts.json, "json", false, "print as JSON")
	opts.asOf.register(cmd)
	return cmd
}

func runSearch(ctx context.Context, env *Env, opts searchOptions) error {
	if err := checkSearchFlags(opts); err != nil {
		return err
	}
	since, err := readmodel.ParseSince(opts.since, time.Now())
	if err != nil {
		return err
	}
	return withStore(ctx, env, func(store *agent.Store) error {
		if err := opts.asOf.pin(ctx, env, store.Handle); err != nil {
			return err
		}
		q := readmodel.Query{Phrasings: opts.phrasings, Limit: opts.limit, Filters: search.Filters{
			Domains: splitList(opts.domains), Agents: splitList(opts.agents), Since: since, AllVersions: opts.allVersions}}
		for _, k := range splitList(opts.kinds) {
			q.Kinds = append(q.Kinds, changelog.Kind(k))
		}
		for _, t := range splitList(opts.types) {
			q.Types = append(q.Types, changelog.Type(t))
		}
		if q.Branch, err = readmodel.ScopeBranch(opts.scope, func() (string, error) {
			a, err := store.Resolve("")
			if err != nil {
				return "", err
			}
			return a.Branch, nil
		}); err != nil {
			return err
		}
		res, err := store.Records.Search(q)
		if err != nil {
			return err
		}
		readmodel.MarkStale(ctx, store.Project.Root, res.Hits)
		if a, err := store.Resolve(""); err == nil && a.Dir != "" && opts.asOf.spec == "" {
			ids := make([]string, len(res.Hits))
			for i, h := range res.Hits {
				ids[i] = h.ID
			}
			noteUses(env, a.NoteUses(ids))
		}
		if opts.json {
			if err := env.writeJSON(res); err != nil {
				return err
			}
			return reportProblems(res.Problems)
		}
		for i, h := range res.Hits {
			if i > 0 {
				env.printf("\n")
			}
			text := h.Snippet
			if opts.full {
				ex, err := store.Records.Get(h.Path, 1, 1<<30)
				if err != nil {
					return err
				}
				text = ex.Text
			}
			env.printf("%s\n%s\n", h.Header(), text)
		}
		if len(res.Hits) == 0 {
			env.Log.Info("no record matches", "query", strings.Join(opts.phrasings, " | "))
			env.printf("next: planq search \"<other words>\" \"<an identifier the record would hold>\"\n")
			return reportProblems(res.Problems)
		}
		first := res.Hits[0]
		env.printf("\nnext: planq get %s:%d-%d\n", first.Path, first.From, first.To)
		if res.Total > len(res.Hits) {
			env.printf("next: planq search %s --limit %d   (%d of %d matches shown)\n", quoteArgs(opts.phrasings), min(res.Total, readmodel.MaxSearchLimit), len(res.Hits), res.Total)
		}
		return reportProblems(res.Problems)
	})
}

// checkSearchFlags refuses a limit outside 1 to 50 and a domain no record
// can have, rather than quietly searching for something else.
func checkSearchFlags(opts searchOptions) error {
	if opts.limit < 1 || opts.limit > readmodel.MaxSearchLimit {
		return planqerr.New(planqerr.Invalid, "--limit", "%d is not a number of results from 1 to %d", opts.limit, readmodel.MaxSearchLimit).
			WithHint("ask for 1 to %d, like -n 20 (%d when not given)", readmodel.MaxSearchLimit, readmodel.DefaultSearchLimit)
	}
	for _, d := range splitList(opts.domains) {
		if err := project.ValidateName("domain", d); err != nil {
			return err
		}
	}
	return nil
}

// quoteArgs renders args as a shell needs them typed.
func quoteArgs(args []string) string {
	out := make([]string, len(args))
	for i, a := range args {
		out[i] = workspace.ShellQuote(a)
	}
	return strings.Join(out, " ")
}
