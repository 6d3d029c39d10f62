package cli

import (
	"io"
	"strings"

	"github.com/spf13/cobra"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/planqerr"
	"github.com/planq-dev/planq/session"
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

// author is who the command writes as.
func (w writeFlags) author() session.Author {
	return session.Author{Agent: w.agent, AllowSecret: w.allowSecret}
}

// reported reports a write as reportWritten does, or passes on why it
// failed: every command that writes once ends with it.
func reported(env *Env, flags writeFlags) func(session.Written, error) error {
	return func(w session.Written, err error) error {
		if err != nil {
			return err
		}
		return reportWritten(env, flags, w)
	}
}

// reportRecorded reports a learn's or a decide's write, saying where the
// user layer was made when the write made it.
func reportRecorded(env *Env, flags writeFlags, r session.Recorded, err error) error {
	if err != nil {
		return err
	}
	madeUserLayer(env, r.Made)
	return reportWritten(env, flags, r.Written)
}

// registerWriteScope adds --scope to a command that records: in the
// project (the agent's) or in the user layer.
func registerWriteScope(cmd *cobra.Command, scope *string) {
	cmd.Flags().StringVar(scope, "scope", string(session.ScopeProject), "where it is recorded: project (the agent's) or user (the user layer, yours across projects)")
}

// registerRecordScope adds --scope to a command that acts on one record:
// the project's (the default) or the user layer's.
func registerRecordScope(cmd *cobra.Command, scope *string) {
	cmd.Flags().StringVar(scope, "scope", string(session.ScopeProject), "whose record: project (an agent's or global's) or user (the user layer's, yours across projects)")
}

// reportWritten reports what a write committed: the ID on stdout (or
// JSON), and one line on stderr saying what changed.
func reportWritten(env *Env, flags writeFlags, w session.Written) error {
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
