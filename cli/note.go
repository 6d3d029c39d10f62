package cli

import (
	"context"
	"fmt"
	"time"

	"github.com/spf13/cobra"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/internal/plural"
	"github.com/planq-dev/planq/planqerr"
	"github.com/planq-dev/planq/session"
)

type noteOptions struct {
	writeFlags
	typ       string
	agentKind string
}

func newNoteCmd(env *Env) *cobra.Command {
	var opts noteOptions
	cmd := &cobra.Command{
		Use:   "note TEXT",
		Short: "Capture a raw note in one step, for curation into the instruction files",
		Long: `Capture something you noticed, in one step and without reading anything first: a
raw note, committed on the agent's branch with its time, workspace, agent kind and
type. Notes are curated later into the project's instruction files (CLAUDE.md,
AGENTS.md, ...): a curating agent turns the raw notes into proposals a person
applies or dismisses.

operational notes are about how the work is done ("run go run ./cmd/build-dashboard,
not npm run build"); codebase notes are about the code ("overlay tests need
--race").

Appending a line to .planq/agent/notes.md does the same without planq: the next
note, or the session's save (its end, a compaction), turns each line into a raw
note and takes it out of the file. A line no note may hold (a credential,
invalid UTF-8) stays in the file and is named on stderr with what to do; the
other lines land, and the command still exits 0.`,
		Example: `  planq note "run go run ./cmd/build-dashboard, not npm run build"
  planq note "overlay tests need --race" --type codebase
  echo "- the linter wants gofumpt" >> .planq/agent/notes.md`,
		Args: exactArgs(1, "the TEXT"),
		RunE: func(cmd *cobra.Command, args []string) error { return runNote(cmd.Context(), env, opts, args[0]) },
	}
	opts.register(cmd)
	spec := changelog.KindNote.Spec()
	cmd.Flags().StringVar(&opts.typ, "type", string(spec.DefaultType), "`TYPE`: "+changelog.Join(spec.Types, "|"))
	cmd.Flags().StringVar(&opts.agentKind, "agent-kind", "", "the coding agent that noticed it, like claude or codex (default: from its environment)")
	return cmd
}

func runNote(ctx context.Context, env *Env, opts noteOptions, arg string) error {
	text, err := messageArg(env, arg)
	if err != nil {
		return err
	}
	noted, err := env.service().Note(ctx, session.NoteInput{Author: opts.author(), Text: text, Type: changelog.Type(opts.typ), AgentKind: opts.agentKind})
	if err != nil {
		return err
	}
	written := noted.Written
	if len(written) > 1 {
		env.Log.Info("also took " + plural.Of(len(written)-1, "note") + " appended to notes.md")
	}
	// The note given landed: a line of the inbox that could not is a
	// warning, not a failure, so that the agent does not note it again.
	warnKept(env, noted.Kept)
	return reportWritten(env, opts.writeFlags, written[len(written)-1])
}

// warnKept names each line of the notes inbox that became no note, why, and
// what to do; the lines stay in the inbox.
func warnKept(env *Env, kept []*planqerr.Error) {
	for _, k := range kept {
		env.Log.Warn(k.Error(), "hint", k.Hint)
	}
}

type notesOptions struct {
	states []string
	types  []string
	agents []string
	spaces []string
	json   bool
}

func newNotesCmd(env *Env) *cobra.Command {
	var opts notesOptions
	cmd := &cobra.Command{
		Use:   "notes",
		Short: "List the raw notes of every agent, and where each stands",
		Long: `List the notes of global and every agent branch (each once, its current state),
newest first: raw (waiting for curation), proposed, applied or dismissed.

--json prints [{record}].`,
		Example: "  planq notes --state raw\n  planq notes --agent auth --json",
		Args:    exactArgs(0, "no arguments"),
		RunE:    func(cmd *cobra.Command, _ []string) error { return runNotes(cmd.Context(), env, opts) },
	}
	spec := changelog.KindNote.Spec()
	cmd.Flags().StringSliceVar(&opts.states, "state", nil, "only notes in `STATE`: "+changelog.Join(spec.Statuses, "|"))
	cmd.Flags().StringSliceVar(&opts.types, "type", nil, "only notes of `TYPE`: "+changelog.Join(spec.Types, "|"))
	cmd.Flags().StringSliceVar(&opts.agents, "agent", nil, "only notes of agent `NAME`")
	cmd.Flags().StringSliceVar(&opts.spaces, "workspace", nil, "only notes captured in workspace `W`")
	cmd.Flags().BoolVar(&opts.json, "json", false, "print as JSON")
	return cmd
}

func runNotes(ctx context.Context, env *Env, opts notesOptions) error {
	if err := checkNotesFlags(opts); err != nil {
		return err
	}
	list, err := env.service().Notes(ctx, session.NoteFilter{States: splitList(opts.states), Types: splitList(opts.types), Agents: splitList(opts.agents),
		Workspaces: splitList(opts.spaces)})
	if err != nil {
		return err
	}
	if opts.json {
		if err := env.writeJSON(list.Notes); err != nil {
			return err
		}
		return reportProblems(list.Problems)
	}
	tw := newTable(env.Stdout)
	fmt.Fprintln(tw, "ID\tTIME\tAGENT\tKIND\tWORKSPACE\tTYPE\tSTATE\tNOTE")
	for _, r := range list.Notes {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\t%s\n", r.ID, r.Timestamp.Local().Format(time.DateTime), r.Agent, orDashStr(r.AgentKind),
			orDashStr(r.Workspace), r.Type, r.Status, changelog.Shorten(r.Title(), 80))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	return reportProblems(list.Problems)
}
