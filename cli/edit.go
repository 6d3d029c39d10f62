package cli

import (
	"context"
	"errors"
	"io"
	"os"

	"github.com/spf13/cobra"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/planqerr"
	"github.com/planq-dev/planq/session"
)

type editOptions struct {
	writeFlags
	id string
	// fromStdin: the record's file is read from stdin ('-').
	fromStdin      bool
	text           string
	typ            string
	domain         string
	classification string
	resolution     string
	subject        string
	tags           []string
	decision       string
	rationale      string
	over           []string
	scope          string
}

// again is the command that edits the same record again.
func (o editOptions) again() string {
	if o.scope == string(session.ScopeUser) {
		return "planq edit " + o.id + " --scope user"
	}
	return "planq edit " + o.id
}

func newEditCmd(env *Env) *cobra.Command {
	var opts editOptions
	cmd := &cobra.Command{
		Use:   "edit ID [-]",
		Short: "Write a new version of a learning or decision",
		Long: `Write a new version of learning or decision ID that supersedes it: one commit on
the agent's branch. Readers show the new version from then on; 'planq show ID
--history' shows both, and promote carries the new one to global.

With flags, each changes one field and the rest is carried over. Without any,
the record opens in $VISUAL or $EDITOR (a terminal or not: a script can set
EDITOR); with '-', the record file's new text is read from stdin instead, and
stdin is read only then. Either way the text is the record's file (frontmatter
and body) and is read as strictly as a record: a duplicate key, an unknown key
or a wrong value names its line, and the file you edited is kept for you. id,
kind, agent, timestamp and supersedes are planq's: changing them is refused.

An edit that changes nothing writes nothing; one that leaves no text (--text ""
or blank, or the file without its body) is refused, as 'planq learn ""' is. A
version that is superseded, retracted or archived is not edited: the error names
the current version.

--scope user edits a learning or decision of the user layer (see planq user)
instead: one commit on its global. The user layer keeps no credential: a
version that holds one is refused, even one its old version held.`,
		Example: `  planq edit pq-3f9a1c2e4b --text "Tokens expire after 15 minutes; refresh on 401"
  planq edit pq-3f9a1c2e4b --classification foundational
  planq edit pq-3f9a1c2e4b          # in $EDITOR
  sed 's/10 minutes/15 minutes/' .planq/agent/learnings/auth/pq-3f9a1c2e4b.md | planq edit pq-3f9a1c2e4b -
  planq edit pq-7c0d2e9a1b --scope user --text "Prefers table-driven tests, one case a line"`,
		Args: func(cmd *cobra.Command, args []string) error {
			if err := rangeArgs(1, 2, "the record's ID, then - to read its file from stdin")(cmd, args); err != nil {
				return err
			}
			if len(args) == 2 && args[1] != "-" {
				return usagef("%s: the second argument can only be -, to read the record's file from stdin, not %q", cmd.CommandPath(), args[1])
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.id, opts.fromStdin = args[0], len(args) == 2
			return runEdit(cmd.Context(), env, cmd, opts)
		},
	}
	opts.register(cmd)
	f := cmd.Flags()
	f.StringVar(&opts.text, "text", "", "the new `TEXT` (the body; its first line is the title; '-' reads stdin)")
	f.StringVar(&opts.typ, "type", "", "a learning's new `TYPE`")
	f.StringVar(&opts.domain, "domain", "", "a learning's new `DOMAIN`")
	f.StringVar(&opts.classification, "classification", "", "a learning's new `CLASS`")
	f.StringVar(&opts.resolution, "resolution", "", "a failure's new `RESOLUTION`")
	f.StringVar(&opts.subject, "subject", "", "the new subject `KEY`")
	f.StringSliceVar(&opts.tags, "tag", nil, "the new `TAGS` (replacing the old; repeat or comma-separate)")
	f.StringVar(&opts.decision, "decision", "", "a decision's new `DECISION`")
	f.StringVar(&opts.rationale, "because", "", "a decision's new rationale (`WHY`)")
	f.StringSliceVar(&opts.over, "over", nil, "a decision's new `ALTERNATIVES` (replacing the old)")
	registerRecordScope(cmd, &opts.scope)
	return cmd
}

func runEdit(ctx context.Context, env *Env, cmd *cobra.Command, opts editOptions) error {
	in := session.EditInput{Author: opts.author(), Scope: session.Scope(opts.scope), ID: opts.id}
	if opts.fromStdin && editsByFlag(cmd) {
		return planqerr.New(planqerr.Invalid, "edit", "give the record's file on stdin (-) or flags that change fields, not both").
			WithHint("'%s --text -' reads the new text from stdin", opts.again())
	}
	if editsByFlag(cmd) {
		if err := editFlags(env, cmd, opts, &in); err != nil {
			return err
		}
	} else {
		in.Rewrite = func(old, next *changelog.Record) (*changelog.Record, error) {
			return editRecordText(env, old, next, opts)
		}
	}
	w, err := env.service().Edit(ctx, in)
	if errors.Is(err, session.ErrUnchanged) {
		env.Log.Info("nothing changed: nothing written", "id", opts.id)
		return nil
	}
	return reported(env, opts.writeFlags)(w, err)
}

// contentFlags are the flags that change a field.
var contentFlags = []string{"text", "type", "domain", "classification", "resolution", "subject", "tag", "decision", "because", "over"}

func editsByFlag(cmd *cobra.Command) bool {
	for _, name := range contentFlags {
		if cmd.Flags().Changed(name) {
			return true
		}
	}
	return false
}

// editFlags sets on in the fields the flags given change.
func editFlags(env *Env, cmd *cobra.Command, opts editOptions, in *session.EditInput) error {
	changed := cmd.Flags().Changed
	if changed("text") {
		text, err := messageArg(env, opts.text)
		if err != nil {
			return err
		}
		in.Text = &text
	}
	for _, f := range []struct {
		flag  string
		to    **string
		value string
	}{{"type", &in.Type, opts.typ}, {"domain", &in.Domain, opts.domain}, {"classification", &in.Classification, opts.classification},
		{"resolution", &in.Resolution, opts.resolution}, {"subject", &in.Subject, opts.subject}, {"decision", &in.Decision, opts.decision},
		{"because", &in.Rationale, opts.rationale}} {
		if changed(f.flag) {
			*f.to = &f.value
		}
	}
	if changed("tag") {
		in.Tags = append([]string{}, splitList(opts.tags)...)
	}
	if changed("over") {
		in.Alternatives = append([]string{}, splitList(opts.over)...)
	}
	return nil
}

// editRecordText has $EDITOR (a person, or a script), or stdin when asked
// to read it, give the new version as a record file, and reads it as
// strictly as a stored one.
func editRecordText(env *Env, old, next *changelog.Record, opts editOptions) (*changelog.Record, error) {
	path, data := "stdin", []byte(nil)
	var err error
	if opts.fromStdin {
		if data, err = io.ReadAll(io.LimitReader(env.Stdin, changelog.MaxRecordSize+1)); err != nil {
			return nil, planqerr.New(planqerr.Failure, "stdin", "failed to read: %w", err)
		}
	} else {
		shown, err := changelog.Render(old)
		if err != nil {
			return nil, err
		}
		if path, data, err = editInEditor(env, "planq-edit-*.md", shown, "'"+opts.again()+" -'"); err != nil {
			os.Remove(path)
			return nil, err
		}
	}
	edited, err := session.ParseEdited(path, old, next, data)
	if err != nil {
		if path != "stdin" {
			return nil, planqerr.New(planqerr.Invalid, "edit", "%w", err).
				WithHint("nothing was written; your text is kept in %s: fix it and run '%s -' < %s", path, opts.again(), path)
		}
		return nil, planqerr.New(planqerr.Invalid, "edit", "%w", err).WithHint("nothing was written")
	}
	if path != "stdin" {
		os.Remove(path)
	}
	return edited, nil
}
