package cli

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/planq-dev/planq/planqerr"
	"github.com/planq-dev/planq/session"
)

type memtoolOptions struct {
	agent       string
	scope       string
	allowSecret bool
}

func newMemtoolCmd(env *Env) *cobra.Command {
	var opts memtoolOptions
	cmd := &cobra.Command{
		Use:   "memtool",
		Short: "Carry out one memory-tool command (JSON on stdin) on the agent's memories/",
		Long: `Carry out one command of the memory-tool protocol, the one applications built
on the Claude API run for their model's memory tool (memory_20250818) and VS
Code's Copilot memory tool uses: view, create, str_replace, insert, delete or
rename, on paths under /memories. The command is the tool call's input, as JSON
on stdin; /memories is the memories/ folder of the agent's worktree
(.planq/agent), so what the model remembers is in git with the agent's other
state: one commit per change, none for a view.

stdout is the answer to show the model, then a newline: the protocol's own
text, success or error. The exit code says which: 0 for success; for an error
answer the code of its kind (2: a bad path, parameter or range; 4: the path
does not exist or old_str is not there; 5: the file or destination exists
already; 7: refused for a credential). Then set is_error on the tool result.
A failure of planq's own (not a planq project, the agent's lock held past its
wait, git failing) prints planq's error on stderr and nothing on stdout; then
nothing was changed.

What a file may hold is checked as every record is: at most 64 KiB, UTF-8
text without NUL bytes, no credential (unless --allow-secret). Paths outside
/memories, climbing out with '..', hidden names (.git), control characters
(shown escaped in the answer), names over 235 bytes and symbolic links are
refused, as is a create whose path ends in '/' (a directory's) and a
str_replace whose new_str is its old_str (it would change nothing). VS Code's
/memories/repo and /memories/session are folders like any other.

--scope user applies the command to the user layer's memories/ instead
(what a person keeps across projects, $PLANQ_HOME/state-repos/_user.git,
made on first use): each change is one commit on its global branch, made
only if no other change to the same files landed meanwhile. The user layer
keeps no credential, --allow-secret or not.

What the memory tool writes is memory like any record: planq search finds it
(kind memory), planq get reads it, prime lists it, promote carries it to
global and push and pull carry it to the team.`,
		Example: `  echo '{"command": "view", "path": "/memories"}' | planq memtool
  echo '{"command": "create", "path": "/memories/repo/build.md", "file_text": "make test\n"}' | planq memtool
  echo '{"command": "view", "path": "/memories"}' | planq memtool --scope user`,
		Args: exactArgs(0, "no arguments: the command comes as JSON on stdin"),
		RunE: func(cmd *cobra.Command, _ []string) error { return runMemtool(cmd.Context(), env, opts) },
	}
	cmd.Flags().StringVar(&opts.agent, "agent", "", "act as agent `NAME` (default: the agent mounted in this workspace, else $PLANQ_AGENT_DIR)")
	cmd.Flags().StringVar(&opts.scope, "scope", "agent", "whose memories/: `agent` (the agent's worktree) or user (the user layer, across projects)")
	cmd.Flags().BoolVar(&opts.allowSecret, "allow-secret", false, "store text even if it looks like a credential")
	return cmd
}

func runMemtool(ctx context.Context, env *Env, opts memtoolOptions) error {
	data, err := io.ReadAll(io.LimitReader(env.Stdin, session.MaxMemoryCommand+1))
	if err != nil {
		return planqerr.New(planqerr.Failure, "stdin", "failed to read: %w", err)
	}
	c, err := session.ParseMemoryCommand(data)
	if err != nil {
		return answer(env, session.MemoryResult{}, err)
	}
	res, err := env.service().Memory(ctx, session.MemoryInput{Agent: opts.agent, Scope: session.Scope(opts.scope),
		AllowSecret: opts.allowSecret, MemoryCommand: c})
	madeUserLayer(env, res.MadeUserLayer)
	if err == nil && res.Commit != "" {
		whose := []any{"agent", res.Agent}
		if res.Agent == "" {
			whose = []any{"layer", "user"}
		}
		env.Log.Info("memory: "+c.Command+" "+strings.Join(res.Paths, ", "), append(whose, "commit", short(res.Commit))...)
	}
	return answer(env, res, err)
}

// answer prints what the protocol answers: the result's text, or a
// refusal's, which ends with its kind's exit code; planq's own failures
// are returned as they are.
func answer(env *Env, res session.MemoryResult, err error) error {
	if err != nil {
		r, ok := session.AsMemoryRefusal(err)
		if !ok {
			return err
		}
		if _, err := fmt.Fprintln(env.raw(), r.Text); err != nil {
			return err
		}
		return &silentError{code: exitCode(planqerr.New(r.Kind, "", "%s", r.Text))}
	}
	_, err = fmt.Fprintln(env.raw(), res.Text)
	return err
}
