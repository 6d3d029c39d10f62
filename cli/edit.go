package cli

import (
	"context"
	"errors"
	"io"
	"os"
	"strings"

	"github.com/spf13/cobra"

	"github.com/planq-dev/planq/agent"
	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/lifecycle"
	"github.com/planq-dev/planq/planqerr"
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
	if o.scope == scopeUser {
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
	if err := checkScope(opts.scope); err != nil {
		return err
	}
	if opts.fromStdin && editsByFlag(cmd) {
		return planqerr.New(planqerr.Invalid, "edit", "give the record's file on stdin (-) or flags that change fields, not both").
			WithHint("'%s --text -' reads the new text from stdin", opts.again())
	}
	var (
		old   *changelog.Record
		write func(next *changelog.Record) (agent.Written, error)
	)
	if opts.scope == scopeUser {
		l, err := openUserLayerFor(ctx, opts.writeFlags, opts.id)
		if err != nil {
			return err
		}
		defer env.closeHandle(l.Handle)
		if old, err = l.Target(opts.id); err != nil {
			return err
		}
		write = func(next *changelog.Record) (agent.Written, error) { return l.Edit(ctx, old, next) }
	} else {
		store, a, err := env.openAgent(ctx, opts.agent)
		if err != nil {
			return err
		}
		defer env.closeStore(store)
		if old, err = lifecycle.Target(a, opts.id); err != nil {
			return pointAtUserLayer(ctx, err, "edit", opts.id)
		}
		write = func(next *changelog.Record) (agent.Written, error) {
			return lifecycle.Edit(ctx, a, old, next, agent.WriteOptions{AllowSecret: opts.allowSecret})
		}
	}
	next := lifecycle.NextVersion(old)
	var err error
	if editsByFlag(cmd) {
		err = applyEditFlags(env, cmd, opts, next)
	} else {
		next, err = editRecordText(env, old, next, opts)
	}
	if err != nil {
		return err
	}
	w, err := write(next)
	if errors.Is(err, lifecycle.ErrUnchanged) {
		env.Log.Info("nothing changed: nothing written", "id", old.ID)
		return nil
	}
	if err != nil {
		return err
	}
	return reportWritten(env, opts.writeFlags, w)
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

func applyEditFlags(env *Env, cmd *cobra.Command, opts editOptions, next *changelog.Record) error {
	changed := cmd.Flags().Changed
	if changed("text") {
		text, err := messageArg(env, opts.text)
		if err != nil {
			return err
		}
		if strings.TrimSpace(text) == "" {
			// As learn and decide refuse it: a version that says nothing.
			retract := "planq retract " + next.Supersedes
			if opts.scope == scopeUser {
				retract += " --scope user"
			}
			return planqerr.New(planqerr.Invalid, next.Kind.Noun(), "text is empty").
				WithHint("give the new text; to take %s back instead, '%s'", next.Supersedes, retract)
		}
		next.Body = text
	}
	set := func(flag string, field *string, value string) {
		if changed(flag) {
			*field = value
		}
	}
	set("domain", &next.Domain, opts.domain)
	set("resolution", &next.Resolution, opts.resolution)
	set("subject", &next.Subject, opts.subject)
	set("decision", &next.Decision, opts.decision)
	set("because", &next.Rationale, opts.rationale)
	if changed("type") {
		next.Type = changelog.Type(opts.typ)
	}
	if changed("classification") {
		next.Classification = changelog.Classification(opts.classification)
	}
	if changed("tag") {
		next.Tags = splitList(opts.tags)
	}
	if changed("over") {
		next.Alternatives = splitList(opts.over)
	}
	if err := changelog.Validate(withBookkeeping(next)); err != nil {
		return planqerr.New(planqerr.Invalid, "edit", "%w", err)
	}
	return nil
}

// withBookkeeping is next as the write will stamp it, for validating its
// fields before anything is written.
func withBookkeeping(next *changelog.Record) *changelog.Record {
	r := *next
	r.ID, r.Agent, r.Timestamp = changelog.IDPrefix+"0000000000", "edit", nowUTC()
	return &r
}

// editRecordText has $EDITOR (a person, or a script), or stdin when asked
// to read it, give the new version as a record file, and reads it as
// strictly as a stored one.
func editRecordText(env *Env, old, next *changelog.Record, opts editOptions) (*changelog.Record, error) {
	fromStdin := opts.fromStdin
	shown, err := changelog.Render(old)
	if err != nil {
		return nil, err
	}
	var data []byte
	var path string
	if !fromStdin {
		f, err := os.CreateTemp("", "planq-edit-*.md")
		if err != nil {
			return nil, planqerr.New(planqerr.Failure, "editor", "failed to create a file to edit: %w", err)
		}
		path = f.Name()
		_, err = f.Write(shown)
		if cerr := f.Close(); err == nil {
			err = cerr
		}
		if err != nil {
			return nil, planqerr.New(planqerr.Failure, "editor", "failed to write %s: %w", path, err)
		}
		if err := runEditor(env, path, "'"+opts.again()+" -'"); err != nil {
			os.Remove(path)
			return nil, err
		}
		if data, err = os.ReadFile(path); err != nil {
			return nil, planqerr.New(planqerr.Failure, "editor", "failed to read %s: %w", path, err)
		}
	} else {
		if data, err = io.ReadAll(io.LimitReader(env.Stdin, changelog.MaxRecordSize+1)); err != nil {
			return nil, planqerr.New(planqerr.Failure, "stdin", "failed to read: %w", err)
		}
		path = "stdin"
	}
	edited, err := lifecycle.ParseEdited(path, old, next, data)
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
