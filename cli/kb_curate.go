package cli

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/planq-dev/planq/session"
)

type kbCurateOptions struct {
	json  bool
	limit int
}

func newKBCurateCmd(env *Env) *cobra.Command {
	var opts kbCurateOptions
	cmd := &cobra.Command{
		Use:   "curate",
		Short: "Print the curating agent's work packet for the knowledge base",
		Long: `Print what an agent needs to write the knowledge base's articles, writing nothing:
the candidates (the articles 'planq kb update' would make or change, with the
draft it would write; then the articles holding a "New since your edit" list
to fold in; then the articles planq wrote alone), each with its path, why it is
there, the sources it must cite and which of them are new to it; the articles on
global they touch (frontmatter and body); every record they gather, whole; the
index of articles (to link under Related); the rules (cite every source, never
drop a person's text, mark a conflict as disputed with a # Conflict section);
the frontmatter keys and values, topics, sections and slugs allowed; and how to
answer: one article at a time, with 'planq kb write' or the MCP tool
planq_kb (action write). planq makes no model calls: give the packet to an agent.

--limit bounds the candidates of one packet (0: all); the packet says how many
it leaves for the next.

--json prints {"project","rules","format":{"keys","topics","confidence","status",
"curated_by","sections":[{"heading","holds"}],"slug","sources"},
"candidates":[{"slug","topic","path","reason","sources","new","edited_by_person",
"draft"}],"left","articles":[{"path","slug","frontmatter","body",
"edited_by_person"}],"records":[{"id","kind","type","domain"?,"subject"?,
"classification"?,"time","state","text","rationale"?,"alternatives"?,
"resolution"?,"files"?,"tags"?}],"index":[{"path","title","description",
"status"}],"answer"}. "reason" is new, changed, deprecated, new sources, new
since an edit or uncurated; "draft" is "" when the article stays as it is on
global; a record's "state" is current, superseded by <id>, retracted or
archived.`,
		Example: "  planq kb curate | claude -p\n  planq kb curate --json --limit 5",
		Args:    exactArgs(0, "no arguments"),
		RunE:    func(cmd *cobra.Command, _ []string) error { return runKBCurate(cmd.Context(), env, opts) },
	}
	cmd.Flags().BoolVar(&opts.json, "json", false, "print as JSON")
	cmd.Flags().IntVar(&opts.limit, "limit", 10, "at most `N` candidates (0: all)")
	return cmd
}

func runKBCurate(ctx context.Context, env *Env, opts kbCurateOptions) error {
	p, err := env.service().KBCurate(ctx, session.KBCurateInput{Limit: opts.limit})
	if err != nil {
		return err
	}
	if opts.json {
		return env.writeJSON(p)
	}
	env.printf("%s", p.Markdown())
	return nil
}
