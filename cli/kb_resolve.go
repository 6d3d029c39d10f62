package cli

import (
	"context"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/session"
)

type kbResolveOptions struct {
	slug, keep string
	json       bool
}

func newKBResolveCmd(env *Env) *cobra.Command {
	var opts kbResolveOptions
	cmd := &cobra.Command{
		Use:   "resolve SLUG --keep SOURCE",
		Short: "Settle a disputed article by keeping one side",
		Long: `Settle the conflict of the disputed article SLUG by keeping SOURCE, one of the
sides its Conflict section cites: the sides that contradict SOURCE leave the
article's sources, the Conflict section gives way to a Resolved note naming the
kept source, the ones set aside and the date, and the article is current again
(still disputed while another conflict of its sources stands). One commit on
global, with the index regenerated. The records themselves stay as they are;
a side set aside never joins the article again.

An article planq wrote is made again from its sources; one a person wrote or
edited changes only in its status, its sources and that section.

--json prints {"path","kept","set_aside","status","commit"}.`,
		Example: `  planq kb resolve session-storage --keep pq-3f9a1c2e4b`,
		Args:    exactArgs(1, "the article's SLUG"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.slug = args[0]
			if opts.keep == "" {
				return usagef("kb resolve: --keep SOURCE is required: the side of the conflict to keep")
			}
			return runKBResolve(cmd.Context(), env, opts)
		},
	}
	cmd.Flags().StringVar(&opts.keep, "keep", "", "the `SOURCE` to keep: a record ID (or commit:, issue:) the Conflict section cites")
	cmd.Flags().BoolVar(&opts.json, "json", false, "print as JSON")
	return cmd
}

func runKBResolve(ctx context.Context, env *Env, opts kbResolveOptions) error {
	res, err := env.service().KBResolve(ctx, session.KBResolveInput{Slug: opts.slug, Keep: opts.keep})
	if err != nil {
		return err
	}
	if opts.json {
		return env.writeJSON(res)
	}
	env.Log.Info("resolved the article", "branch", "global", "file", res.Path, "kept", res.Kept,
		"set_aside", strings.Join(res.SetAside, ","), "status", res.Status, "commit", short(res.Commit))
	return nil
}

// logKnowledge says what the knowledge base update after a promote or pull
// did, on stderr: its failure is a warning, as the command it followed has
// landed.
func logKnowledge(env *Env, k *session.KnowledgeSummary) {
	switch {
	case k == nil:
	case k.Error != "":
		env.Log.Warn("the knowledge base was not updated", "error", k.Error, "hint", "run 'planq kb update'")
	case k.Commit != "":
		env.Log.Info("updated the knowledge base", "created", k.Created, "updated", k.Updated, "commit", short(k.Commit))
	}
	if k != nil {
		for _, p := range k.Disputed {
			_, slug, _ := changelog.SplitArticlePath(p)
			env.Log.Warn("article disputed: its sources contradict each other", "file", p,
				"hint", fmt.Sprintf("read its Conflict section; keep one side with 'planq kb resolve %s --keep SOURCE'", slug))
		}
	}
}
