package cli

import (
	"context"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/planq-dev/planq/session"
)

func newKBCmd(env *Env) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "kb",
		Short: "The knowledge base: articles on global gathered from learnings and decisions",
		Long: `The knowledge base is Markdown on global, knowledge/<topic>/<slug>.md, one
article per subject, that people browse and edit as files; knowledge/_index.md
lists them. planq derives the articles from global's current learnings and
decisions, without a model: every line it writes is a source's own first
sentence, followed by the source's ID.

An article a person changed (a commit on global without planq's
Planq-Knowledge trailer) is never rewritten: new sources are listed under "New
since your edit" at its end. An article deleted with 'planq kb delete' or git
rm on global is remembered under knowledge/.deleted/ and never made again.

Read it with 'planq kb list', 'planq kb show SLUG' (an article with its sources
as global holds them), 'planq kb search WORDS' (the articles alone, ranked as
search ranks records) and 'planq kb disputed' (the conflicts, and the resolve
that settles each); agents read it with the MCP tool planq_kb, people on the
review page (planq ui).

Topics: architecture, decisions, conventions, operations, project, preferences,
history, or the knowledge: topics: list of .planq/config.`,
		Args: exactArgs(0, "a subcommand: update, list, show, search, disputed, delete, curate, write, edit or resolve"),
		RunE: func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
	}
	cmd.AddCommand(newKBUpdateCmd(env), newKBListCmd(env), newKBDeleteCmd(env))
	cmd.AddCommand(newKBCurateCmd(env), newKBWriteCmd(env), newKBEditCmd(env))
	cmd.AddCommand(newKBResolveCmd(env))
	cmd.AddCommand(newKBShowCmd(env), newKBSearchCmd(env), newKBDisputedCmd(env))
	cmd.AddCommand(newKBBootstrapCmd(env))
	return cmd
}

type kbUpdateOptions struct {
	json bool
}

func newKBUpdateCmd(env *Env) *cobra.Command {
	var opts kbUpdateOptions
	cmd := &cobra.Command{
		Use:   "update",
		Short: "Bring the articles in step with global's learnings and decisions",
		Long: `Derive articles from global's current learnings and decisions, grouped by
subject, the files they cite, meaning (by the model built into planq) and
domain (a decision that names no subject and means none gets no article), and keep the existing ones in step, in
one commit on global (none when nothing changed: a second run changes nothing):
new sources join their article and move its updated time; an article whose
sources were all superseded, retracted or archived becomes deprecated; an
article a person edited only gets its new sources listed at its end; an article
a person deleted with git is remembered as deleted. New knowledge that
contradicts an article's sources (one subject, different words, by promote's
rule; a source promote marked disputed; a decision that chooses otherwise than
the article's) marks it disputed, with a Conflict section citing every side;
planq kb resolve settles it. knowledge/_index.md is regenerated. promote and pull
run this after they land. Files under knowledge/ planq cannot read, and Markdown
nested below a topic (knowledge/<topic>/<dir>/x.md, which is no article), are
named on stderr and left as they are.

Each change prints a line "<action>\t<path>" (created, updated, deprecated,
disputed, appended, stale, remembered, removed, index).

--json prints {"commit","created","updated","deprecated","disputed","appended","stale",
"remembered","removed","index","skipped"}: lists of the articles' paths;
"commit" is "" when nothing changed; "skipped" lists the files planq could not
read or write, each {"path","problem"}.`,
		Args: exactArgs(0, "no arguments"),
		RunE: func(cmd *cobra.Command, _ []string) error { return runKBUpdate(cmd.Context(), env, opts) },
	}
	cmd.Flags().BoolVar(&opts.json, "json", false, "print as JSON")
	return cmd
}

func runKBUpdate(ctx context.Context, env *Env, opts kbUpdateOptions) error {
	res, err := env.service().KBUpdate(ctx)
	if err != nil {
		return err
	}
	for _, s := range res.Skipped {
		env.Log.Warn("skipped", "file", s.Path, "problem", s.Problem)
	}
	if opts.json {
		return env.writeJSON(res)
	}
	for _, l := range []struct {
		action string
		paths  []string
	}{{"created", res.Created}, {"updated", res.Updated}, {"deprecated", res.Deprecated}, {"disputed", res.Disputed}, {"appended", res.Appended},
		{"stale", res.Stale}, {"remembered", res.Remembered}, {"removed", res.Removed}} {
		for _, p := range l.paths {
			env.printf("%s\t%s\n", l.action, p)
		}
	}
	if res.Index {
		env.printf("index\t%s\n", session.KBIndexPath)
	}
	if !res.Changed() {
		env.Log.Info("the knowledge base is in step with global; nothing changed")
		return nil
	}
	env.Log.Info("updated the knowledge base", "branch", "global", "created", len(res.Created), "updated", len(res.Updated)+len(res.Deprecated)+len(res.Appended), "commit", short(res.Commit))
	return nil
}

type kbListOptions struct {
	json  bool
	topic string
}

func newKBListCmd(env *Env) *cobra.Command {
	var opts kbListOptions
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List the articles, by topic",
		Long: `List the articles on global by topic (the project's topics first, in their
order) then slug: topic, slug, status, confidence, who curated it (and "edited"
when a person changed it), its title; --topic lists one topic's. --topic
decisions lists every decision's article: its slug, status, the date it was
decided, how many earlier versions it supersedes (its # Superseded section names
them, with what replaced each) and its title. Files under knowledge/ planq
cannot read, and Markdown nested below a topic (no article: an article is
knowledge/<topic>/<slug>.md), are named on stderr.

--json prints [{"path","slug","topic","title","description","status","confidence",
"curated_by","updated","sources","edited_by_person","decided"?,"supersedes"?}]:
"sources" counts them; "decided" and "supersedes" only under decisions.`,
		Args: exactArgs(0, "no arguments"),
		RunE: func(cmd *cobra.Command, _ []string) error { return runKBList(cmd.Context(), env, opts) },
	}
	cmd.Flags().BoolVar(&opts.json, "json", false, "print as JSON")
	cmd.Flags().StringVar(&opts.topic, "topic", "", "list one topic's articles")
	return cmd
}

func runKBList(ctx context.Context, env *Env, opts kbListOptions) error {
	entries, problems, err := env.service().KBList(ctx, session.KBListInput{Topic: opts.topic})
	if err != nil {
		return err
	}
	for _, p := range problems {
		env.Log.Warn("skipped", "file", p.Path, "problem", p.Problem)
	}
	if opts.json {
		return env.writeJSON(entries)
	}
	if len(entries) == 0 && opts.topic != "" {
		env.Log.Info("no articles of this topic", "topic", opts.topic, "hint", "planq kb list")
		return nil
	}
	if len(entries) == 0 {
		env.Log.Info("no articles yet", "hint", "planq kb update")
		return nil
	}
	tw := newTable(env.Stdout)
	if opts.topic != "" && entries[0].Decided != nil {
		// What was decided, when, and what it replaced.
		fmt.Fprintln(tw, "SLUG\tSTATUS\tDECIDED\tSUPERSEDES\tTITLE")
		for _, e := range entries {
			fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%s\n", e.Slug, e.Status, e.Decided.Local().Format(time.DateOnly), e.Supersedes, e.Title)
		}
		return tw.Flush()
	}
	fmt.Fprintln(tw, "TOPIC\tSLUG\tSTATUS\tCONFIDENCE\tCURATED\tTITLE")
	for _, e := range entries {
		curated := string(e.CuratedBy)
		if e.EditedByPerson {
			curated += ", edited"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", e.Topic, e.Slug, e.Status, e.Confidence, curated, e.Title)
	}
	return tw.Flush()
}

type kbDeleteOptions struct {
	slug string
	json bool
}

func newKBDeleteCmd(env *Env) *cobra.Command {
	var opts kbDeleteOptions
	cmd := &cobra.Command{
		Use:   "delete SLUG",
		Short: "Delete an article; planq never makes it again",
		Long: `Delete the article SLUG from global, in one commit with the index regenerated,
and remember the deletion in knowledge/.deleted/<topic>/<slug>: 'planq kb
update' never makes the article again, here or, once pushed, on any machine.
Its records stay. git rm of the article on global is remembered the same way by
the next update.

--json prints {"path","remembered","commit"}.`,
		Example: `  planq kb delete session-storage`,
		Args:    exactArgs(1, "the article's SLUG"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.slug = args[0]
			return runKBDelete(cmd.Context(), env, opts)
		},
	}
	cmd.Flags().BoolVar(&opts.json, "json", false, "print as JSON")
	return cmd
}

func runKBDelete(ctx context.Context, env *Env, opts kbDeleteOptions) error {
	res, err := env.service().KBDelete(ctx, opts.slug)
	if err != nil {
		return err
	}
	if opts.json {
		return env.writeJSON(res)
	}
	env.Log.Info("deleted the article", "branch", "global", "file", res.Path, "remembered", res.Remembered, "commit", short(res.Commit))
	return nil
}
