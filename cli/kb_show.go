package cli

import (
	"context"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/session"
)

type kbShowOptions struct {
	slug string
	json bool
}

func newKBShowCmd(env *Env) *cobra.Command {
	var opts kbShowOptions
	cmd := &cobra.Command{
		Use:   "show SLUG",
		Short: "Show an article: its fields, its sources as global holds them, its text",
		Long: `Show the article SLUG of global: its path, its frontmatter's fields, whether a
person edited it (read from git history: a commit on global without planq's
Planq-Knowledge trailer wrote a version of it), then each of its sources, a line
each: the source, whether its record is current on global (else superseded by
<id>, retracted, archived, or not on global; commits and issues are cited as
they are), and the record's one-line form; then its Markdown body. An article
planq cannot read is refused with why ('planq kb edit SLUG' fixes it).

A deleted article is refused (exit 4) with the file under knowledge/.deleted/
that remembers it, and the blob of its last text: the hint gives the git that
saves it and the 'planq kb write --force' that writes it again.

--json prints {"path","blob","slug","topic","title","description","tags","created",
"updated","confidence","status","curated_by","edited_by_person","sources":
[{"source","record","kind"?,"path"?,"line"?,"current","ended"?}],"body"}: "blob"
is the version of the file, the --base of 'planq kb edit SLUG --base BLOB -'.`,
		Example: "  planq kb show session-storage\n  planq kb show session-storage --json",
		Args:    exactArgs(1, "the article's SLUG"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.slug = args[0]
			return runKBShow(cmd.Context(), env, opts)
		},
	}
	cmd.Flags().BoolVar(&opts.json, "json", false, "print as JSON")
	return cmd
}

func runKBShow(ctx context.Context, env *Env, opts kbShowOptions) error {
	a, err := env.service().KBShow(ctx, opts.slug)
	if err != nil {
		return err
	}
	if opts.json {
		return env.writeJSON(a)
	}
	curated := string(a.CuratedBy)
	if a.EditedByPerson {
		curated += ", edited by a person"
	}
	tw := newTable(env.Stdout)
	for _, f := range [][2]string{{"path", a.Path}, {"title", a.Title}, {"description", a.Description}, {"topic", a.Topic},
		{"tags", strings.Join(a.Tags, ", ")}, {"status", string(a.Status)}, {"confidence", string(a.Confidence)},
		{"curated_by", curated}, {"created", a.Created.Local().Format(changelog.TimeLayout)}, {"updated", a.Updated.Local().Format(changelog.TimeLayout)}} {
		if f[1] != "" {
			fmt.Fprintf(tw, "%s:\t%s\n", f[0], f[1])
		}
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	env.printf("sources:\n")
	tw = newTable(env.Stdout)
	for _, s := range a.Sources {
		fmt.Fprintf(tw, "  %s\t%s\t%s\n", s.Source, sourceState(s), s.Line)
	}
	if len(a.Sources) == 0 {
		env.printf("  (none)\n")
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	if a.Body != "" {
		env.printf("\n%s\n", a.Body)
	}
	return nil
}

// sourceState says what an article's source is on global now.
func sourceState(s session.ArticleSource) string {
	switch {
	case !s.Record:
		return "cited"
	case s.Current:
		return "current"
	}
	return s.Ended
}
