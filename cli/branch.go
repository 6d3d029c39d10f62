package cli

import (
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/internal/platform"
	"github.com/planq-dev/planq/planqerr"
	"github.com/planq-dev/planq/session"
)

type branchOptions struct {
	writeFlags
	branch string
}

func newBranchCmd(env *Env) *cobra.Command {
	var opts branchOptions
	cmd := &cobra.Command{
		Use:   "branch [show | edit | append TEXT]",
		Short: "Show or write the context attached to a code branch",
		Long: `Every code branch can carry context: why it exists, the plan, the key
decisions. It lives in branches/<branch>.md on the agent's state branch, with
frontmatter (branch, created_at, updated_at, agent, status), and is promoted into
global like learnings. 'planq context show' includes the current branch's.

  show          print it (the default): the agent's own, else global's
  append TEXT   add TEXT to the end of its body
  edit          replace its body from stdin, or in $EDITOR in a terminal

--branch names the code branch (default: the one checked out here).`,
		Example: "  planq branch\n  planq branch append \"Plan: refresh on 401, then logout\"\n  planq branch edit < plan.md\n  planq branch show --branch feature/login",
		Args:    maxArgs(2, "show, edit, or append TEXT"),
		RunE: func(cmd *cobra.Command, args []string) error {
			action := "show"
			if len(args) > 0 {
				action = args[0]
			}
			switch {
			case action == "show" && len(args) <= 1:
				return runBranchShow(cmd.Context(), env, opts)
			case action == "append" && len(args) == 2:
				in := opts.input()
				in.Text = args[1]
				return reported(env, opts.writeFlags)(env.service().WriteBranch(cmd.Context(), in))
			case action == "edit" && len(args) == 1:
				return runBranchEdit(cmd.Context(), env, opts)
			}
			return usagef("branch: expects show, edit, or append TEXT")
		},
	}
	opts.register(cmd)
	cmd.Flags().StringVar(&opts.branch, "branch", "", "the code `BRANCH` (default: the one checked out here)")
	return cmd
}

// input is what the command's flags say of the branch and who acts.
func (o branchOptions) input() session.BranchInput {
	return session.BranchInput{Author: o.author(), Branch: o.branch}
}

func runBranchShow(ctx context.Context, env *Env, opts branchOptions) error {
	view, err := env.service().Branch(ctx, opts.input())
	if err != nil {
		return err
	}
	if view.Context == nil {
		if opts.json {
			return env.writeJSON(nil)
		}
		env.Log.Info("no context for this branch yet", "branch", view.Code, "hint", "planq branch append \"...\"")
		return nil
	}
	if opts.json {
		return env.writeJSON(view)
	}
	data, err := view.Render()
	if err != nil {
		return err
	}
	_, err = env.Stdout.Write(data)
	return err
}

func runBranchEdit(ctx context.Context, env *Env, opts branchOptions) error {
	in := opts.input()
	in.Replace = true
	if isTerminal(env.Stdin) {
		view, err := env.service().Branch(ctx, in)
		if err != nil {
			return err
		}
		path, data, err := editInEditor(env, "planq-branch-*.md", []byte(view.Text()), "planq branch edit < file.md")
		os.Remove(path)
		if err != nil {
			return err
		}
		in.Text = string(data)
	} else {
		data, err := io.ReadAll(io.LimitReader(env.Stdin, changelog.MaxRecordSize+1))
		if err != nil {
			return planqerr.New(planqerr.Failure, "stdin", "failed to read: %w", err)
		}
		in.Text = string(data)
	}
	return reported(env, opts.writeFlags)(env.service().WriteBranch(ctx, in))
}

// editInEditor has a person (or a script) edit text in $VISUAL or $EDITOR,
// in a file of its own, and returns the file's path and what it then
// holds; the caller removes it. instead is the command that does without
// an editor, for the hint.
func editInEditor(env *Env, pattern string, text []byte, instead string) (string, []byte, error) {
	f, err := os.CreateTemp("", pattern)
	if err != nil {
		return "", nil, planqerr.New(planqerr.Failure, "editor", "failed to create a file to edit: %w", err)
	}
	path := f.Name()
	_, err = f.Write(text)
	if cerr := f.Close(); err == nil {
		err = cerr
	}
	if err != nil {
		return path, nil, planqerr.New(planqerr.Failure, "editor", "failed to write %s: %w", path, err)
	}
	if err := runEditor(env, path, instead); err != nil {
		return path, nil, err
	}
	data, err := os.ReadFile(path)
	if err != nil {
		return path, nil, planqerr.New(planqerr.Failure, "editor", "failed to read %s: %w", path, err)
	}
	return path, data, nil
}

// runEditor opens path in $VISUAL or $EDITOR, on the terminal, and waits.
// instead is the command that does without one, for the hint.
func runEditor(env *Env, path, instead string) error {
	editor := os.Getenv("VISUAL")
	if editor == "" {
		editor = os.Getenv("EDITOR")
	}
	if editor == "" {
		return planqerr.New(planqerr.Invalid, "editor", "neither $VISUAL nor $EDITOR is set").
			WithHint("set $EDITOR, or pipe the new text in: %s", instead)
	}
	sh, err := platform.Shell("editor", "run planq from Git Bash (Git for Windows' sh runs $EDITOR), or pipe the new text in: "+instead)
	if err != nil {
		return err
	}
	cmd := exec.Command(sh, "-c", editor+` "$1"`, "planq-editor", path)
	cmd.Stdin, cmd.Stdout, cmd.Stderr = os.Stdin, env.Stderr, env.Stderr
	if err := cmd.Run(); err != nil {
		return planqerr.New(planqerr.Failure, "editor", "%s failed: %w", filepath.Base(editor), err)
	}
	return nil
}
