package cli

import (
	"context"
	"strings"

	"github.com/spf13/cobra"

	"github.com/planq-dev/planq/agent"
	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/planqerr"
	"github.com/planq-dev/planq/readmodel"
)

type getOptions struct {
	ref   string
	agent string
	lines string
	from  int
	to    int
	json  bool
}

func newGetCmd(env *Env) *cobra.Command {
	var opts getOptions
	cmd := &cobra.Command{
		Use:   "get PATH|ID",
		Short: "Read one record (or note) of the state repository",
		Long: `Read the record at PATH, as search and log show it (like
learnings/auth/pq-3f9a1c2e4b.md, or with lines: learnings/auth/pq-3f9a1c2e4b.md:5-9),
or the record with ID (pq-3f9a1c2e4b), or an agent's scratch.md or context.md, or
a branch context (branches/<branch>.md). Lines are numbered. The file is read from
git, never from the disk: a record from global when global has it (as every
reader shows it: global's copy is the one promote marked disputed), anything
else from the agent's branch first; then global, then every other agent's.
Nothing outside the state repository is read.

--json prints {"path","branch","from","to","lines","text"}.`,
		Example: "  planq get learnings/auth/pq-3f9a1c2e4b.md:5-9\n  planq get pq-3f9a1c2e4b\n  planq get scratch.md --agent auth --lines 10-40",
		Args:    exactArgs(1, "the PATH or ID"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.ref = args[0]
			return runGet(cmd.Context(), env, opts)
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.agent, "agent", "", "read agent `NAME`'s branch first (default: the agent mounted here)")
	f.StringVar(&opts.lines, "lines", "", "only lines `A-B` (or one line, A)")
	f.IntVar(&opts.from, "from", 0, "first `LINE`")
	f.IntVar(&opts.to, "to", 0, "last `LINE` (default: 200 lines on)")
	f.BoolVar(&opts.json, "json", false, "print as JSON")
	return cmd
}

func runGet(ctx context.Context, env *Env, opts getOptions) error {
	return withStore(ctx, env, func(store *agent.Store) error {
		var first []string
		var reader *agent.Agent
		switch a, err := store.Resolve(opts.agent); {
		case err == nil:
			first, reader = []string{a.Branch}, a
		case opts.agent != "" || !planqerr.Is(err, planqerr.NotFound):
			return err
		}
		path, from, to, err := store.Records.Locate(opts.ref)
		if err != nil {
			return err
		}
		if opts.lines != "" {
			var ok bool
			if from, to, ok = readmodel.ParseLines(opts.lines); !ok {
				return usagef("--lines %q: expects A-B, like 5-9, or one line number", opts.lines)
			}
		}
		if opts.from > 0 {
			from = opts.from
		}
		if opts.to > 0 {
			to = opts.to
		}
		ex, err := store.Records.Get(path, from, to, first...)
		if err != nil {
			return err
		}
		if reader != nil && reader.Dir != "" {
			noteUses(env, reader.NoteUse(ex.Path))
		}
		store.Records.MarkExcerpt(ctx, store.Project.Root, &ex)
		state, err := recordState(store, ex.Path)
		if err != nil {
			return err
		}
		if opts.json {
			return env.writeJSON(struct {
				readmodel.Excerpt
				SupersededBy string `json:"superseded_by,omitempty"`
				Retracted    bool   `json:"retracted,omitempty"`
			}{ex, state.SupersededBy, state.Retracted})
		}
		switch {
		case state.Retracted:
			env.printf("(retracted by %s: search, query and context no longer show it)\n", state.SupersededBy)
		case state.SupersededBy != "":
			env.printf("(superseded by %s: 'planq get %s' reads the newer version)\n", state.SupersededBy, state.SupersededBy)
		}
		for i, line := range strings.Split(ex.Text, "\n") {
			env.printf("%5d  %s\n", ex.From+i, line)
		}
		if len(ex.Stale) > 0 {
			env.printf("(may be stale: %s)\n", strings.Join(ex.Stale, "; "))
		}
		if ex.More() {
			env.printf("next: planq get %s:%d-%d   (%d lines in all)\n", ex.Path, ex.To+1, min(ex.Lines, ex.To+readmodel.DefaultGetLines), ex.Lines)
		}
		return nil
	})
}

// recordState says whether the record at p was superseded or retracted, as
// show says it; the zero Version for a file that is no record (scratch.md,
// a branch context).
func recordState(store *agent.Store, p string) (readmodel.Version, error) {
	id := changelog.IDOfPath(p)
	if id == "" {
		return readmodel.Version{}, nil
	}
	versions, err := store.Records.History(id, false)
	if err != nil {
		return readmodel.Version{}, err
	}
	return versions[0], nil
}
