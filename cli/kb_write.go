package cli

import (
	"context"
	"io"
	"os"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/planqerr"
	"github.com/planq-dev/planq/session"
)

type kbWriteOptions struct {
	file  string
	slug  string
	force bool
	json  bool
	// slugGiven: --slug was given, even empty (which names no article,
	// and must not fall back to FILE's name).
	slugGiven bool
}

func newKBWriteCmd(env *Env) *cobra.Command {
	var opts kbWriteOptions
	cmd := &cobra.Command{
		Use:   "write [FILE|-]",
		Short: "Check a curating agent's article and commit it to global",
		Long: `Read an article (Markdown with its frontmatter) from FILE, or stdin with '-' or
no argument, check it, and commit it to global as planq's, in one commit with
knowledge/_index.md regenerated: the answer to 'planq kb curate'.

The slug is --slug, else FILE's name without .md (knowledge/decisions/jwt.md
and /tmp/jwt.md both name jwt); stdin needs --slug, and an empty --slug is
refused. The article goes to knowledge/<topic>/<slug>.md, its topic the
frontmatter's: a new topic moves it.

It is refused, and nothing written, when: its frontmatter does not parse
strictly (the line is named; "- issue: #29" among sources, which YAML reads as
a key, is named as such), is not type: article, its title or description is
not one line, or its title, description, tags or topic hold a control
character (an escape sequence, a tab); its topic is not one of the project's;
its slug is not lower-case letters, digits and hyphens; a record ID among its sources is no
learning or decision on global (commit:<hex> and issue:<ref> are checked for
their shape); its text names a record its sources leave out; its sources leave
out one the candidate at its slug gathers (a record 'planq kb curate' listed for
it, or one the article on global cites; a commit:, an issue: or a record
global does not hold may go with --force); it is disputed without a # Conflict
section; or it holds what looks like a credential (nothing allows one: articles
travel with the team). Without --force it is refused as well when the article
was deleted ('planq kb delete', git rm), when a file planq cannot read is at its
path, and when a person edited the article and this version changes its title
or drops a line of its body (lines may be added around them; a "New since your
edit" list may be folded in). --force writes it anyway, and a deleted article
is no longer remembered as deleted.

The stored article is curated_by mixed, whatever the text says: planq's
extraction and an agent's editing, so 'planq kb update' never rewrites the
agent's words and only lists new sources at its end. Its created time is the
article's first; its updated time is now when its text changed. An article
that would not change commits nothing. The commit carries the trailer
Planq-Knowledge: write, so the knowledge base reads it as planq's, not a
person's.

Prints the article's path. --json prints {"path","slug","action","moved"?,
"restored","curated_by","updated","commit"}: "action" is created, updated or
unchanged ("commit" is then "").`,
		Example: "  planq kb write --slug jwt-signing jwt.md\n  planq kb write knowledge/decisions/jwt-signing.md\n  cat jwt.md | planq kb write --slug jwt-signing -",
		Args:    maxArgs(1, "FILE, or - for stdin"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if len(args) == 1 {
				opts.file = args[0]
			}
			opts.slugGiven = cmd.Flags().Changed("slug")
			return runKBWrite(cmd.Context(), env, opts)
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.slug, "slug", "", "the article's `SLUG` (default: FILE's name without .md)")
	f.BoolVar(&opts.force, "force", false, "write a deleted article, over a person's lines, over a file planq cannot read, or without a commit or issue the article on global cites")
	f.BoolVar(&opts.json, "json", false, "print as JSON")
	return cmd
}

func runKBWrite(ctx context.Context, env *Env, opts kbWriteOptions) error {
	if opts.slugGiven && opts.slug == "" {
		return planqerr.New(planqerr.Invalid, "kb write", "--slug is empty: the slug names the article's file").
			WithHint("give --slug SLUG (lower-case letters, digits and hyphens), or leave it out to name the article after FILE")
	}
	data, name, err := readArticleArg(env, opts.file)
	if err != nil {
		return err
	}
	slug := opts.slug
	if slug == "" {
		if name == "stdin" {
			return planqerr.New(planqerr.Invalid, "kb write", "an article on stdin needs --slug").
				WithHint("'planq kb write --slug SLUG -' (planq kb curate names each candidate's slug)")
		}
		slug = strings.TrimSuffix(filepath.Base(name), ".md")
		if changelog.SlugProblem(slug) != "" {
			return planqerr.New(planqerr.Invalid, "kb write", "%s is not named <slug>.md, and no --slug names the article", name).
				WithHint("give --slug SLUG, or name the file after the slug: lower-case letters, digits and hyphens")
		}
	}
	res, err := env.service().KBWrite(ctx, session.KBWriteInput{Text: data, Slug: slug, Name: name, Force: opts.force})
	if err != nil {
		return err
	}
	return reportArticle(env, res, opts.json, "wrote the article")
}

// readArticleArg reads an article from file, or stdin for "" and "-",
// with the name errors give it.
func readArticleArg(env *Env, file string) ([]byte, string, error) {
	if file == "" || file == "-" {
		data, err := io.ReadAll(io.LimitReader(env.Stdin, changelog.MaxArticleSize+1))
		if err != nil {
			return nil, "", planqerr.New(planqerr.Failure, "stdin", "failed to read: %w", err)
		}
		return data, "stdin", nil
	}
	full := file
	if !filepath.IsAbs(full) && env.Dir != "" {
		full = filepath.Join(env.Dir, full)
	}
	info, err := os.Stat(full)
	switch {
	case err != nil:
		return nil, "", planqerr.New(planqerr.NotFound, file, "cannot be read: %w", err)
	case !info.Mode().IsRegular():
		return nil, "", planqerr.New(planqerr.Invalid, file, "is not a file")
	case info.Size() > changelog.MaxArticleSize:
		return nil, "", planqerr.New(planqerr.Invalid, file, "is %d bytes; an article holds at most %d (256 KiB)", info.Size(), changelog.MaxArticleSize)
	}
	data, err := os.ReadFile(full)
	if err != nil {
		return nil, "", planqerr.New(planqerr.Failure, file, "failed to read: %w", err)
	}
	return data, file, nil
}

// reportArticle prints what a write or an edit of an article did: its
// path on stdout (or the JSON), and a line on stderr.
func reportArticle(env *Env, res session.ArticleWritten, asJSON bool, did string) error {
	if asJSON {
		return env.writeJSON(res)
	}
	env.printf("%s\n", res.Path)
	if res.Action == "unchanged" {
		env.Log.Info("the article is as it was; nothing committed", "file", res.Path)
		return nil
	}
	kv := []any{"branch", "global", "file", res.Path, "curated_by", res.CuratedBy}
	if res.Moved != "" {
		kv = append(kv, "moved_from", res.Moved)
	}
	if res.Restored {
		kv = append(kv, "restored", true)
	}
	env.Log.Info(did, append(kv, "commit", short(res.Commit))...)
	return nil
}
