package cli

import (
	"context"
	"fmt"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/planq-dev/planq/agent"
	"github.com/planq-dev/planq/memtool"
	"github.com/planq-dev/planq/planqerr"
	"github.com/planq-dev/planq/project"
	"github.com/planq-dev/planq/userlayer"
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
	data, err := io.ReadAll(io.LimitReader(env.Stdin, memtool.MaxCommandSize+1))
	if err != nil {
		return planqerr.New(planqerr.Failure, "stdin", "failed to read: %w", err)
	}
	if len(data) > memtool.MaxCommandSize {
		return answerRefusal(env, &memtool.Refusal{Kind: planqerr.Invalid,
			Text: fmt.Sprintf("Error: The command is over %d bytes; a memory file holds at most 64 KiB", memtool.MaxCommandSize)})
	}
	c, err := memtool.Parse(data)
	if err != nil {
		return answer(env, memtool.Result{}, err)
	}
	switch opts.scope {
	case "agent", "":
	case "user":
		if opts.agent != "" {
			return planqerr.New(planqerr.Invalid, "--agent", "names an agent; the user layer has none").
				WithHint("drop --agent, or --scope user")
		}
		return runMemtoolUser(ctx, env, c)
	default:
		return planqerr.New(planqerr.Invalid, "scope", "%q is not a scope of the memory tool", opts.scope).
			WithHint("use agent (the agent's memories/, the default) or user (the user layer's)")
	}
	store, a, err := env.openAgent(ctx, opts.agent)
	if err != nil {
		return err
	}
	defer env.closeStore(store)
	f, err := memtool.ForAgent(a, agent.WriteOptions{AllowSecret: opts.allowSecret})
	if err != nil {
		return err
	}
	res, err := memtool.Apply(ctx, f, c)
	if err == nil && res.Commit != "" {
		env.Log.Info("memory: "+c.Command+" "+strings.Join(res.Paths, ", "), "agent", a.Name, "commit", short(res.Commit))
	}
	return answer(env, res, err)
}

// runMemtoolUser carries out c on the user layer's memories/, making the
// layer first when there is none yet (and saying so on stderr).
func runMemtoolUser(ctx context.Context, env *Env, c memtool.Command) error {
	home, err := project.Home()
	if err != nil {
		return err
	}
	l, err := userlayer.Open(ctx, home)
	if err != nil {
		return err
	}
	defer env.closeStore(l.Store)
	if l.Created {
		env.Log.Info("made the user layer: what you keep across projects", "path", l.Project.StateRepo())
	}
	f, done, err := memtool.ForUserLayer(l.Store)
	if err != nil {
		return err
	}
	defer done()
	res, err := memtool.Apply(ctx, f, c)
	if err == nil && res.Commit != "" {
		env.Log.Info("memory: "+c.Command+" "+strings.Join(res.Paths, ", "), "layer", "user", "commit", short(res.Commit))
	}
	return answer(env, res, err)
}

// answer prints what the protocol answers: the result's text, or a
// refusal's, which ends with its kind's exit code; planq's own failures
// are returned as they are.
func answer(env *Env, res memtool.Result, err error) error {
	if err != nil {
		if r, ok := memtool.AsRefusal(err); ok {
			return answerRefusal(env, r)
		}
		return err
	}
	_, err = fmt.Fprintln(env.raw(), res.Text)
	return err
}

func answerRefusal(env *Env, r *memtool.Refusal) error {
	if _, err := fmt.Fprintln(env.raw(), r.Text); err != nil {
		return err
	}
	return &silentError{code: exitCode(planqerr.New(r.Kind, "", "%s", r.Text))}
}
