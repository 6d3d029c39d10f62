package cli

import (
	"context"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/session"
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
them, 'planq kb show SLUG' shows the article with its sources. The "next:"
lines name those commands, or, when nothing matches, 'planq kb list'.

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
			opts.phrasings, opts.kinds, opts.scope = args, []string{string(changelog.KindArticle)}, string(session.ScopeProject)
			return runKBSearch(cmd.Context(), env, opts)
		},
	}
	f := cmd.Flags()
	f.BoolVar(&opts.full, "full", false, "print whole articles, not the lines around the match")
	f.IntVarP(&opts.limit, "limit", "n", session.DefaultSearchLimit, fmt.Sprintf("at most `N` results (at most %d)", session.MaxSearchLimit))
	f.BoolVar(&opts.json, "json", false, "print as JSON")
	f.BoolVar(&opts.explain, "explain", false, "show how each result ranked: per phrasing and channel, its rank and score")
	return cmd
}

// runKBSearch is runSearch over the articles alone, with the next steps
// in the words of articles: kb show, kb list, kb search.
func runKBSearch(ctx context.Context, env *Env, opts searchOptions) error {
	if err := checkSearchFlags(opts); err != nil {
		return err
	}
	return searchProject(ctx, env, opts, func(found session.Found) {
		for i, hit := range found.Hits {
			printHit(env, i, hit.Header(), hit, found.Texts, found.Phrasings)
		}
		if found.Explain != nil {
			if len(found.Hits) > 0 {
				env.printf("\n")
			}
			env.printf("%s\n", explainVector(found.Explain.Vector))
		}
		if len(found.Hits) == 0 {
			env.Log.Info("no article matches", "query", strings.Join(opts.phrasings, " | "))
			env.printf("next: planq kb search \"<other words>\" \"<a word the article would hold>\"\n")
			env.printf("next: planq kb list   (every article, by topic)\n")
			return
		}
		first := found.Hits[0]
		env.printf("\nnext: planq get %s:%d-%d\n", first.Path, first.From, first.To)
		if _, slug, ok := changelog.SplitArticlePath(first.Path); ok {
			env.printf("next: planq kb show %s\n", slug)
		}
		if found.Total > len(found.Hits) {
			env.printf("next: planq kb search %s --limit %d   (%d of %d matches shown)\n", quoteArgs(opts.phrasings), min(found.Total, session.MaxSearchLimit), len(found.Hits), found.Total)
		}
	})
}
