package cli

import (
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/planq-dev/planq/agent"
	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/readmodel"
)

type searchOptions struct {
	query string
	kind  string
	limit int
	json  bool
}

func newSearchCmd(env *Env) *cobra.Command {
	var opts searchOptions
	cmd := &cobra.Command{
		Use:   "search WORDS...",
		Short: "Search every agent's and the team's records",
		Long: `Search the current records of every agent and of global for WORDS, best
first: words in a record's title count most, ties go to the newer record. Each
result is the record's path, the lines that matched and who wrote it when;
'planq get PATH' reads the whole record.

--json prints {"query","total","hits":[{"path","id","kind","agent","time","score","from","to","snippet"}]}.`,
		Example: "  planq search token refresh\n  planq search RS256 --kind decision --json",
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usagef("%s: expects the WORDS to look for", cmd.CommandPath())
			}
			return nil
		},
		RunE: func(_ *cobra.Command, args []string) error {
			opts.query = strings.Join(args, " ")
			return runSearch(env, opts)
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.kind, "kind", "", "only records of `KIND`: "+changelog.Join(changelog.Kinds, "|"))
	f.IntVarP(&opts.limit, "limit", "n", readmodel.DefaultSearchLimit, fmt.Sprintf("at most `N` results (at most %d)", readmodel.MaxSearchLimit))
	f.BoolVar(&opts.json, "json", false, "print as JSON")
	return cmd
}

func runSearch(env *Env, opts searchOptions) error {
	return withStore(env, func(store *agent.Store) error {
		res, err := store.Records.Search(readmodel.Query{Text: opts.query, Kind: changelog.Kind(opts.kind), Limit: opts.limit})
		if err != nil {
			return err
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
			env.printf("%s:%d-%d (%s by %s, %s)\n%s\n", h.Path, h.From, h.To, h.Kind, h.Agent, h.Time.Local().Format(readmodel.TimeLayout), h.Snippet)
		}
		switch {
		case res.Total == 0:
			env.Log.Info("no record matches", "query", opts.query)
		case res.Total > len(res.Hits):
			env.Log.Info(fmt.Sprintf("showed the best %d of %d matches", len(res.Hits), res.Total), "more", fmt.Sprintf("--limit %d", min(res.Total, readmodel.MaxSearchLimit)))
		}
		return reportProblems(res.Problems)
	})
}
