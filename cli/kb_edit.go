package cli

import (
	"context"
	"errors"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/planq-dev/planq/agent"
	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/knowledge"
	"github.com/planq-dev/planq/planqerr"
)

type kbEditOptions struct {
	slug      string
	fromStdin bool
	json      bool
}

func newKBEditCmd(env *Env) *cobra.Command {
	var opts kbEditOptions
	cmd := &cobra.Command{
		Use:   "edit SLUG [-]",
		Short: "Edit an article in $EDITOR and commit it to global as yours",
		Long: `Open the article SLUG of global in $VISUAL or $EDITOR (with '-', read its new text
from stdin instead), then commit what you saved to global as you (git's
user.name and user.email), in one commit with knowledge/_index.md regenerated.
The commit carries no planq trailer: the knowledge base knows the article as a
person's from then on, so 'planq kb update' never rewrites it (it lists new
sources under "New since your edit" at its end), and 'planq kb write' takes an
agent's version only when it keeps every line of yours.

A file saved as it was commits nothing. The text is read as strictly as any
article: frontmatter that does not parse, a topic the project does not have, a
record among the sources that global does not hold, a disputed article without
a # Conflict section, or what looks like a credential is refused with the
problem, nothing is written, and your text is kept in a file whose path the
hint gives. A change to the article on global while you edited is refused,
never overwritten. An article planq wrote alone (curated_by auto) becomes
mixed; its updated time becomes now unless you changed it (then set timestamp
to the same time). A new topic moves the file. An article planq cannot read
opens as it is, to be fixed.

Prints the article's path. --json prints {"path","slug","action","moved"?,
"restored","curated_by","updated","commit"}: "action" is updated or unchanged.`,
		Example: "  planq kb edit jwt-signing\n  sed 's/RS256/EdDSA/' article.md | planq kb edit jwt-signing -",
		Args: func(cmd *cobra.Command, args []string) error {
			if err := rangeArgs(1, 2, "the article's SLUG, then - to read its new text from stdin")(cmd, args); err != nil {
				return err
			}
			if len(args) == 2 && args[1] != "-" {
				return usagef("%s: the second argument can only be -, to read the article's new text from stdin, not %q", cmd.CommandPath(), args[1])
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.slug, opts.fromStdin = args[0], len(args) == 2
			return runKBEdit(cmd.Context(), env, opts)
		},
	}
	cmd.Flags().BoolVar(&opts.json, "json", false, "print as JSON")
	return cmd
}

func runKBEdit(ctx context.Context, env *Env, opts kbEditOptions) error {
	var was knowledge.Opened
	err := withStore(ctx, env, func(store *agent.Store) error {
		var err error
		was, err = knowledge.Open(ctx, store.Repo, opts.slug)
		return err
	})
	if err != nil {
		return err
	}
	if was.Problem != "" {
		env.Log.Warn("planq cannot read the article as it is; fix it", "file", was.Path, "problem", was.Problem)
	}
	data, kept, err := editArticleText(env, was, opts.fromStdin)
	if err != nil {
		return err
	}
	err = withStore(ctx, env, func(store *agent.Store) error {
		res, err := knowledge.Edit(ctx, store, was, data, nameOr(kept, "stdin"), kbOptions(store.Project))
		if err != nil {
			return err
		}
		return reportArticle(env, res, opts.json, "committed your edit of the article")
	})
	if err != nil && kept != "" {
		return keptIn(err, "article "+opts.slug, kept, "planq kb edit "+opts.slug+" - < "+kept)
	}
	if kept != "" {
		os.Remove(kept)
	}
	return err
}

// editArticleText has $EDITOR (or stdin, when asked) give the article's
// new text; kept is the file that holds it, "" for stdin.
func editArticleText(env *Env, was knowledge.Opened, fromStdin bool) (data []byte, kept string, err error) {
	if fromStdin {
		data, err := io.ReadAll(io.LimitReader(env.Stdin, changelog.MaxArticleSize+1))
		if err != nil {
			return nil, "", planqerr.New(planqerr.Failure, "stdin", "failed to read: %w", err)
		}
		return data, "", nil
	}
	f, err := os.CreateTemp("", "planq-kb-"+was.Slug+"-*.md")
	if err != nil {
		return nil, "", planqerr.New(planqerr.Failure, "editor", "failed to create a file to edit: %w", err)
	}
	path := f.Name()
	_, err = f.Write(was.Data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(path)
		return nil, "", planqerr.New(planqerr.Failure, "editor", "failed to write %s: %w", path, err)
	}
	if err := runEditor(env, path, "'planq kb edit "+was.Slug+" -'"); err != nil {
		os.Remove(path)
		return nil, "", err
	}
	if data, err = os.ReadFile(path); err != nil {
		return nil, path, keptIn(planqerr.New(planqerr.Failure, "editor", "failed to read %s: %w", path, err), "editor", path, "")
	}
	return data, path, nil
}

// keptIn adds to err's hint that nothing was written and where the
// person's text is kept, and how to send it again.
func keptIn(err error, subject, path, again string) error {
	var pe *planqerr.Error
	if !errors.As(err, &pe) {
		pe = planqerr.New(planqerr.Failure, subject, "%w", err)
	}
	hint := "nothing was written; your text is kept in " + path
	if again != "" {
		hint += ": fix it, then " + again
	}
	if pe.Hint != "" {
		hint = pe.Hint + "; " + hint
	}
	pe.Hint = hint
	return pe
}

func nameOr(s, other string) string {
	if s == "" {
		return other
	}
	return s
}
