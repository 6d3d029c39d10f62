package cli

import (
	"context"
	"strings"

	"github.com/spf13/cobra"

	"github.com/planq-dev/planq/internal/plural"
	"github.com/planq-dev/planq/session"
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
or the record with ID (pq-3f9a1c2e4b), or a knowledge article
(knowledge/<topic>/<slug>.md) or knowledge/_index.md, or an agent's scratch.md or
context.md, or a branch context (branches/<branch>.md). Lines are numbered. The
file is read from git, never from the disk: a record or an article from global
when global has it (as every reader shows it: global's copy is the one promote
marked disputed), anything
else from the agent's branch first; then global, then every other agent's.
Nothing outside the state repository is read. A record whose cited code
changed or went since it was written ends with (may be stale: ...), naming
every such file.

--json prints {"path","branch","from","to","lines","text","stale"?,"superseded_by"?,"retracted"?}
(the last three only when set).`,
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
	in := session.GetInput{Ref: opts.ref, Agent: opts.agent}
	if opts.lines != "" {
		var ok bool
		if in.From, in.To, ok = session.ParseLines(opts.lines); !ok {
			return usagef("--lines %q: expects A-B, like 5-9, or one line number", opts.lines)
		}
	}
	if opts.from > 0 {
		in.From = opts.from
	}
	if opts.to > 0 {
		in.To = opts.to
	}
	got, err := env.service().Get(ctx, in)
	if err != nil {
		return err
	}
	noteUses(env, got.Unnoted)
	if opts.json {
		return env.writeJSON(struct {
			session.Excerpt
			SupersededBy string `json:"superseded_by,omitempty"`
			Retracted    bool   `json:"retracted,omitempty"`
		}{got.Excerpt, got.SupersededBy, got.Retracted})
	}
	printExcerpt(env, got)
	return nil
}

// printExcerpt prints the lines read, numbered, after what became of the
// record and before the command that reads on.
func printExcerpt(env *Env, got session.Got) {
	switch {
	case got.Retracted:
		env.printf("(retracted by %s: search, query and context no longer show it)\n", got.SupersededBy)
	case got.SupersededBy != "":
		env.printf("(superseded by %s: 'planq get %s' reads the newer version)\n", got.SupersededBy, got.SupersededBy)
	}
	for i, line := range strings.Split(got.Text, "\n") {
		env.printf("%5d  %s\n", got.From+i, line)
	}
	if len(got.Stale) > 0 {
		env.printf("%s\n", session.StaleList(got.Stale)) // every file: the listings give only the first
	}
	if got.More() {
		env.printf("next: planq get %s:%d-%d   (%s in all)\n", got.Path, got.To+1, min(got.Lines, got.To+session.DefaultGetLines), plural.Of(got.Lines, "line"))
	}
}
