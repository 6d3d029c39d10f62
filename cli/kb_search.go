package cli

import (
	"fmt"

	"github.com/spf13/cobra"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/readmodel"
)

func newKBSearchCmd(env *Env) *cobra.Command {
	var opts searchOptions
	cmd := &cobra.Command{
		Use:   "search QUERY...",
		Short: "Search the articles of the knowledge base",
		Long: `Search global's knowledge articles for QUERY, best first: 'planq search
--kind article', by their title, description, topic, tags and body, words and
meaning fused as search ranks records. Each QUERY argument is one phrasing; pass
two or three. Each result reads knowledge/<topic>/<slug>.md:from-to  article:
TITLE, updated DATE, then the lines around the best match; 'planq get' reads
them, 'planq kb show SLUG' shows the article with its sources.

--json prints {"query","phrasings","total","hits":[{"path","id","kind","agent",
"time","status","title","score","from","to","snippet"}]}, as 'planq search
--json' does.`,
		Example: "  planq kb search \"how are sessions stored\" redis\n  planq kb search PostgreSQL --json",
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usagef("%s: expects the QUERY to look for", cmd.CommandPath())
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.phrasings, opts.kinds, opts.scope = args, []string{string(changelog.KindArticle)}, "all"
			return runSearch(cmd.Context(), env, opts)
		},
	}
	f := cmd.Flags()
	f.BoolVar(&opts.full, "full", false, "print whole articles, not the lines around the match")
	f.IntVarP(&opts.limit, "limit", "n", readmodel.DefaultSearchLimit, fmt.Sprintf("at most `N` results (at most %d)", readmodel.MaxSearchLimit))
	f.BoolVar(&opts.json, "json", false, "print as JSON")
	f.BoolVar(&opts.explain, "explain", false, "show how each result ranked: per phrasing and channel, its rank and score")
	return cmd
}
