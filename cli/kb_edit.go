package cli

import (
	"context"
	"errors"
	"fmt"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/planqerr"
	"github.com/planq-dev/planq/session"
)

type kbEditOptions struct {
	slug      string
	fromStdin bool
	base      string
	json      bool
}

func newKBEditCmd(env *Env) *cobra.Command {
	var opts kbEditOptions
	cmd := &cobra.Command{
		Use:   "edit SLUG [--base BLOB -]",
		Short: "Edit an article in $EDITOR and commit it to global as yours",
		Long: `Open the article SLUG of global in $VISUAL or $EDITOR (with '-', read its new text
from stdin instead, edited from the version --base names: the article's blob,
which 'planq kb show SLUG --json' prints), then commit what you saved to global
as you (git's user.name and user.email), in one commit with knowledge/_index.md
regenerated.
The commit carries no planq trailer: the knowledge base knows the article as a
person's from then on, so 'planq kb update' never rewrites it (it lists new
sources under "New since your edit" at its end), and 'planq kb write' takes an
agent's version only when it keeps every line of yours.

A file saved as it was commits nothing. The text is read as strictly as any
article: frontmatter that does not parse, a topic the project does not have, a
record among the sources that global does not hold, a disputed article without
a # Conflict section, conflict markers, or what looks like a credential is
refused with the problem, nothing is written, and your text is kept in a file
whose path the hint gives, with the command that sends it again. A change to
the article on global since the version you edited (while $EDITOR was open, or
since --base) is refused (exit 5), never overwritten: the file the hint names
holds your edit and global's change merged, the places where they clash kept
both between <<<<<<< and >>>>>>> lines, and the hint gives the --base to send
it with once you checked it. Text on stdin without --base is refused: planq
could not tell what it would overwrite. An article planq wrote alone
(curated_by auto) becomes mixed; its updated time becomes now unless you
changed it (then set timestamp to the same time). A new topic moves the file.
An article planq cannot read opens as it is, to be fixed.

Prints the article's path. --json prints {"path","slug","action","moved"?,
"restored","curated_by","updated","commit"}: "action" is updated or unchanged.`,
		Example: "  planq kb edit jwt-signing\n  sed 's/RS256/EdDSA/' article.md | planq kb edit jwt-signing --base 3f9a1c2 -",
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
			if cmd.Flags().Changed("base") && !opts.fromStdin {
				return usagef("%s: --base is for a text sent on stdin ('-'): the editor opens the article as global holds it", cmd.CommandPath())
			}
			return runKBEdit(cmd.Context(), env, opts)
		},
	}
	cmd.Flags().StringVar(&opts.base, "base", "", "with '-': the `BLOB` of the version the text was edited from, 7 to 40 hex digits (planq kb show SLUG --json prints it)")
	cmd.Flags().BoolVar(&opts.json, "json", false, "print as JSON")
	return cmd
}

func runKBEdit(ctx context.Context, env *Env, opts kbEditOptions) error {
	if opts.fromStdin && opts.base == "" {
		// Without it, planq could not tell a change made on global
		// meanwhile, and would overwrite it.
		return planqerr.New(planqerr.Invalid, "article "+opts.slug, "no --base: planq cannot tell which version of the article your text was edited from").
			WithHint("'planq kb show %s --json' prints its \"blob\", the version on global: send a text edited from it with planq kb edit %s --base BLOB -", opts.slug, opts.slug)
	}
	svc := env.service()
	was, err := svc.KBOpen(ctx, opts.slug, opts.base)
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
	res, err := svc.KBEdit(ctx, session.KBEditInput{Was: was, Text: data, Name: nameOr(kept, "stdin")})
	var stale *session.StaleEdit
	switch {
	case errors.As(err, &stale):
		return staleEdit(stale, opts.slug, was, kept)
	case err != nil && kept != "":
		return keptIn(err, "article "+opts.slug, kept, againCmd(opts.slug, was.Blob.String(), kept))
	case err != nil:
		return err
	}
	if kept != "" {
		os.Remove(kept)
	}
	return reportArticle(env, res, opts.json, "committed your edit of the article")
}

// againCmd is the command that sends the text kept in path (stdin, for
// "") as an edit of the version base.
func againCmd(slug, base, path string) string {
	cmd := "planq kb edit " + slug + " --base " + base + " -"
	if path != "" {
		cmd += " < " + path
	}
	return cmd
}

// staleEdit answers an edit refused because global changed since the
// version it was made from: the person's edit and global's change, merged,
// go to a file (the one the editor saved, when there is one), and the hint
// says where the two clash and how to send the file once checked. A
// failure to write it leaves the person's text where it was.
func staleEdit(stale *session.StaleEdit, slug string, was session.OpenedArticle, kept string) error {
	pe := stale.Err
	path, err := keepText(slug, stale.Merged)
	if err != nil {
		if kept == "" {
			return pe
		}
		return keptIn(pe, "article "+slug, kept, againCmd(slug, was.Blob.String(), kept))
	}
	if kept != "" {
		os.Remove(kept) // every line of it is in the merge
	}
	switch {
	case stale.Gone:
		pe.Hint = fmt.Sprintf("your text is kept in %s; 'planq kb write --force --slug %s %s' writes it again", path, slug, path)
	case stale.Conflicts > 0:
		places := "1 place where they clash"
		if stale.Conflicts > 1 {
			places = fmt.Sprintf("%d places where they clash", stale.Conflicts)
		}
		pe.Hint = fmt.Sprintf("both changes are in %s, %s marked <<<<<<< and >>>>>>>: keep what both say and take out the marker lines, then %s",
			path, places, againCmd(slug, stale.Current.Blob.String(), path))
	default:
		pe.Hint = fmt.Sprintf("both changes are merged in %s, nothing clashes: check it, then %s", path, againCmd(slug, stale.Current.Blob.String(), path))
	}
	return pe
}

// keepText writes data to a new file of its own, for the person to take
// up again.
func keepText(slug string, data []byte) (string, error) {
	f, err := os.CreateTemp("", "planq-kb-"+slug+"-*.md")
	if err != nil {
		return "", err
	}
	_, err = f.Write(data)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		os.Remove(f.Name())
		return "", err
	}
	return f.Name(), nil
}

// editArticleText has $EDITOR (or stdin, when asked) give the article's
// new text; kept is the file that holds it, "" for stdin.
func editArticleText(env *Env, was session.OpenedArticle, fromStdin bool) (data []byte, kept string, err error) {
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
	if err := runEditor(env, path, "'"+againCmd(was.Slug, was.Blob.String(), "")+"'"); err != nil {
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
