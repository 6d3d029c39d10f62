package cli

import (
	"context"
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/planq-dev/planq/agent"
	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/planqerr"
)

// writeFlags are shared by every command that writes for an agent.
type writeFlags struct {
	agent       string
	json        bool
	allowSecret bool
}

func (w *writeFlags) register(cmd *cobra.Command) {
	cmd.Flags().StringVar(&w.agent, "agent", "", "act as agent `NAME` (default: the agent mounted in this workspace, else $PLANQ_AGENT_DIR)")
	cmd.Flags().BoolVar(&w.json, "json", false, "print what was written as JSON (id, kind, path, commit)")
	cmd.Flags().BoolVar(&w.allowSecret, "allow-secret", false, "store text even if it looks like a credential")
}

// writeRecord commits rec for the resolved agent and reports it: the ID on
// stdout (or JSON), and one line on stderr saying what changed.
func writeRecord(ctx context.Context, env *Env, flags writeFlags, rec *changelog.Record) error {
	return writeAs(ctx, env, flags, func(a *agent.Agent, o agent.WriteOptions) (agent.Written, error) {
		return a.Write(ctx, rec, o)
	})
}

// writeAs makes one write as flags' agent and reports it as writeRecord
// does: every command that writes once goes through here, so each opens,
// closes and reports alike.
func writeAs(ctx context.Context, env *Env, flags writeFlags, write func(*agent.Agent, agent.WriteOptions) (agent.Written, error)) error {
	store, a, err := env.openAgent(ctx, flags.agent)
	if err != nil {
		return err
	}
	defer env.closeStore(store)
	w, err := write(a, agent.WriteOptions{AllowSecret: flags.allowSecret})
	if err != nil {
		return err
	}
	return reportWritten(env, flags, w)
}

func reportWritten(env *Env, flags writeFlags, w agent.Written) error {
	what := string(w.Kind)
	if w.ID != "" {
		what += " " + w.ID
	} else {
		what = w.Path
	}
	env.Log.Info("recorded "+what, "agent", w.Agent, "commit", short(w.Commit), "path", w.Path)
	if flags.json {
		return env.writeJSON(w)
	}
	if w.ID != "" {
		env.printf("%s\n", w.ID)
	}
	return nil
}

// messageArg returns the record text: the argument, or stdin when it is "-".
func messageArg(env *Env, arg string) (string, error) {
	if arg != "-" {
		return arg, nil
	}
	data, err := io.ReadAll(io.LimitReader(env.Stdin, changelog.MaxRecordSize+1))
	if err != nil {
		return "", planqerr.New(planqerr.Failure, "stdin", "failed to read: %w", err)
	}
	if len(data) > changelog.MaxRecordSize {
		return "", planqerr.New(planqerr.Invalid, "stdin", "is larger than a record may be (64 KiB)").
			WithHint("keep records short; put long material in the code repository and cite its path")
	}
	return string(data), nil
}

// requireText rejects an empty message.
func requireText(what, text string) error {
	if strings.TrimSpace(text) == "" {
		return planqerr.New(planqerr.Invalid, what, "text is empty").WithHint("say what happened, in a sentence or more")
	}
	return nil
}

// splitList splits comma-separated flag values and drops empty items.
func splitList(vals []string) []string {
	var out []string
	for _, v := range vals {
		for _, item := range strings.Split(v, ",") {
			if item = strings.TrimSpace(item); item != "" {
				out = append(out, item)
			}
		}
	}
	return out
}

// noteUses logs, and never fails a read for, a use that could not be noted:
// uses only keep records past their shelf life.
func noteUses(env *Env, err error) {
	if err != nil {
		env.Log.Debug("uses not noted", "err", err)
	}
}
