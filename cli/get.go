package cli

import (
	"strconv"

	"github.com/spf13/cobra"

	"github.com/planq-dev/planq/agent"
	"github.com/planq-dev/planq/planqerr"
)

type getOptions struct {
	path  string
	agent string
	from  int
	to    int
	json  bool
}

func newGetCmd(env *Env) *cobra.Command {
	var opts getOptions
	cmd := &cobra.Command{
		Use:   "get PATH",
		Short: "Read one record (or note) of the state repository",
		Long: `Read lines of the record at PATH, as search and log show it (like
learnings/auth/pq-3f9a1c2e4b.md), or an agent's scratch.md or context.md, or a
branch context (branches/<branch>.md). The file is read from git: the agent's
branch first, then global, then every other agent's.

--json prints {"path","branch","from","to","lines","text"}.`,
		Example: "  planq get learnings/auth/pq-3f9a1c2e4b.md\n  planq get scratch.md --agent auth --from 10 --to 40",
		Args:    exactArgs(1, "the PATH"),
		RunE: func(_ *cobra.Command, args []string) error {
			opts.path = args[0]
			return runGet(env, opts)
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.agent, "agent", "", "read agent `NAME`'s branch first (default: the agent mounted here)")
	f.IntVar(&opts.from, "from", 1, "first `LINE`")
	f.IntVar(&opts.to, "to", 0, "last `LINE` (default: 200 lines on)")
	f.BoolVar(&opts.json, "json", false, "print as JSON")
	return cmd
}

func runGet(env *Env, opts getOptions) error {
	return withStore(env, func(store *agent.Store) error {
		var first []string
		switch a, err := store.Resolve(opts.agent); {
		case err == nil:
			first = []string{a.Branch}
		case opts.agent != "" || !planqerr.Is(err, planqerr.NotFound):
			return err
		}
		ex, err := store.Records.Get(opts.path, opts.from, opts.to, first...)
		if err != nil {
			return err
		}
		if opts.json {
			return env.writeJSON(ex)
		}
		env.printf("%s\n", ex.Text)
		if ex.More() {
			env.Log.Info("the file goes on", "lines", ex.Lines, "next", "--from "+strconv.Itoa(ex.To+1))
		}
		return nil
	})
}
