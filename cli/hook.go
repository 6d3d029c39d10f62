package cli

import (
	"context"
	"errors"
	"io"
	"os"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/planq-dev/planq/hooks"
	"github.com/planq-dev/planq/internal/plural"
	"github.com/planq-dev/planq/planqerr"
	"github.com/planq-dev/planq/session"
)

// hookBudget bounds an agent hook: a session must never wait on planq.
const hookBudget = 5 * time.Second

// projectDirVars are where agents tell a hook the project's directory.
var projectDirVars = []string{"PLANQ_PROJECT_DIR", "CLAUDE_PROJECT_DIR", "GEMINI_PROJECT_DIR", "CURSOR_PROJECT_DIR"}

type hookOptions struct {
	agent string
}

func newHookCmd(env *Env) *cobra.Command {
	var opts hookOptions
	cmd := &cobra.Command{
		Use:   "hook EVENT --agent " + strings.Join(hooks.Agents, "|"),
		Short: "Answer a coding agent's hook (the agent calls this)",
		Long: `Handle one hook event of a coding agent, reading the agent's JSON on stdin and
answering in exactly the form that agent validates:

  session-start  the context of 'planq prime' (after a compaction or on resume,
                 the short recovery form): Claude and Codex get
                 {"hookSpecificOutput":{"hookEventName":"SessionStart","additionalContext":…}},
                 Gemini {"hookSpecificOutput":{"additionalContext":…}}, Cursor
                 {"continue":true,"additional_context":…}
  pre-compact    commits the agent's pending state; never blocks compaction
  session-end    commits the agent's pending state
  stop           commits the agent's pending state

Every handler finishes within 5 seconds, exits 0 even on its own errors (they
are logged on stderr), is harmless when called twice, and says nothing outside
a planq project. 'planq setup' installs these hooks.`,
		Args: exactArgs(1, "the EVENT"),
		RunE: func(cmd *cobra.Command, args []string) error {
			// An agent planq does not know gets an error: nothing planq
			// could print would be in a form it validates.
			if err := hooks.CheckAgent(opts.agent); err != nil {
				return err
			}
			runHook(cmd.Context(), env, args[0], opts)
			return nil
		},
	}
	cmd.Flags().StringVar(&opts.agent, "agent", "claude", "the coding `AGENT`: "+strings.Join(hooks.Agents, "|"))
	return cmd
}

func runHook(ctx context.Context, env *Env, event string, opts hookOptions) {
	ctx, cancel := context.WithTimeout(ctx, hookBudget)
	defer cancel()
	input := readBounded(ctx, env.Stdin, 1<<20)
	req := hooks.Request{Event: event, Agent: opts.agent, Input: hooks.ParseInput(input)}
	env.Dir = hookDir(env, req)
	svc := env.service()
	err := svc.InProject()
	inProject := err == nil
	if err != nil && !planqerr.Is(err, planqerr.NotInitialized) {
		warnHook(env, "planq gives this session nothing until this is fixed", err)
	}
	acts := hooks.Actions{
		Prime: func(ctx context.Context, source string) (string, error) {
			if !inProject {
				return "", nil // not a planq project: every action says nothing
			}
			out, doc, err := svc.Prime(ctx, session.PrimeOptions{Format: "markdown", Role: session.RoleAgent, Source: source})
			if session.NoAgent(err) {
				return "", nil // no agent here: nothing to say
			}
			if doc != nil {
				for _, problem := range doc.Problems {
					env.Log.Warn("malformed record left out", "problem", problem)
				}
			}
			return out, err
		},
		Save: func(ctx context.Context, reason string) error {
			if !inProject {
				return nil
			}
			saved, err := svc.Save(ctx, reason)
			if !saved.Commit.IsZero() {
				env.Log.Info("committed pending agent state", "agent", saved.Agent, "commit", short(saved.Commit.String()), "reason", reason)
			}
			for _, problem := range saved.Problems {
				env.Log.Warn("malformed record committed as it was", "problem", problem)
			}
			warnKept(env, saved.Kept)
			if saved.RawNotes > 0 {
				env.Log.Info(plural.Of(saved.RawNotes, "raw note")+" "+plural.Pick(saved.RawNotes, "waits", "wait")+" for curation into the instruction files", "hint", "planq curate")
			}
			return err
		},
	}
	out, err := hooks.Handle(ctx, req, acts)
	if err != nil {
		warnHook(env, "hook handler failed; the agent goes on without it", err)
		out = hooks.NoOpOutput(opts.agent)
		if event == hooks.EventSessionStart {
			out = hooks.SessionStartOutput(opts.agent, "")
		}
	}
	_, _ = env.raw().Write(out) // the agent's own format, read by the agent
}

// warnHook says on stderr why a hook gave the agent less than it could, and
// what to do about it; the hook itself still succeeds.
func warnHook(env *Env, what string, err error) {
	kv := []any{"err", err}
	var pe *planqerr.Error
	if errors.As(err, &pe) && pe.Hint != "" {
		kv = append(kv, "hint", pe.Hint)
	}
	env.Log.Warn(what, kv...)
}

// hookDir is where the hook acts: the directory the agent reported, else
// the agent's project-directory variable, else -C or the working directory.
func hookDir(env *Env, req hooks.Request) string {
	if d := req.Dir(); d != "" {
		return d
	}
	for _, v := range projectDirVars {
		if d := os.Getenv(v); d != "" {
			return d
		}
	}
	return env.Dir
}

// readBounded reads at most limit bytes, giving up when ctx ends: an agent
// that never closes stdin must not hang the hook.
func readBounded(ctx context.Context, r io.Reader, limit int64) []byte {
	if r == nil || isTerminal(r) {
		return nil
	}
	done := make(chan []byte, 1)
	go func() {
		data, _ := io.ReadAll(io.LimitReader(r, limit))
		done <- data
	}()
	select {
	case data := <-done:
		return data
	case <-ctx.Done():
		return nil
	}
}
