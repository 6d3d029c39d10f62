package cli

import (
	"context"
	"io"
	"os"
	"os/exec"
	"path/filepath"
	"strings"

	"github.com/spf13/cobra"

	"github.com/planq-dev/planq/agent"
	"github.com/planq-dev/planq/branchctx"
	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/internal/platform"
	"github.com/planq-dev/planq/planqerr"
	"github.com/planq-dev/planq/project"
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
				return runBranchWrite(cmd.Context(), env, opts, func(c *branchctx.Context) {
					c.Body = strings.TrimRight(c.Body, "\n") + "\n\n" + args[1] + "\n"
				})
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

// resolveBranch opens the agent and names the code branch the command is about.
func resolveBranch(ctx context.Context, env *Env, opts branchOptions) (*agent.Store, *agent.Agent, string, error) {
	if opts.branch != "" {
		if err := project.CheckCodeBranch(opts.branch); err != nil {
			return nil, nil, "", err
		}
	}
	store, a, err := env.openAgent(ctx, opts.agent)
	if err != nil {
		return nil, nil, "", err
	}
	branch := opts.branch
	if branch == "" {
		code, err := branchctx.Current(store.Project.Workspace)
		if err != nil || code.Branch == "" {
			env.closeStore(store)
			return nil, nil, "", planqerr.New(planqerr.Invalid, store.Project.Workspace, "has no branch checked out (detached HEAD)").
				WithHint("name one with --branch")
		}
		branch = code.Branch
	}
	return store, a, branch, nil
}

func runBranchShow(ctx context.Context, env *Env, opts branchOptions) error {
	store, a, branch, err := resolveBranch(ctx, env, opts)
	if err != nil {
		return err
	}
	defer env.closeStore(store)
	c, source, err := a.BranchContext(branch)
	if err != nil {
		return err
	}
	if c == nil {
		if opts.json {
			return env.writeJSON(nil)
		}
		env.Log.Info("no context for this branch yet", "branch", branch, "hint", "planq branch append \"...\"")
		return nil
	}
	if opts.json {
		return env.writeJSON(struct {
			*branchctx.Context
			Source string `json:"source"`
		}{c, source})
	}
	data, err := c.Render()
	if err != nil {
		return err
	}
	_, err = env.Stdout.Write(data)
	return err
}

func runBranchWrite(ctx context.Context, env *Env, opts branchOptions, edit func(*branchctx.Context)) error {
	store, a, branch, err := resolveBranch(ctx, env, opts)
	if err != nil {
		return err
	}
	defer env.closeStore(store)
	w, _, err := a.EditBranchContext(ctx, branch, edit, agent.WriteOptions{AllowSecret: opts.allowSecret})
	if err != nil {
		return err
	}
	return reportWritten(env, opts.writeFlags, w)
}

func runBranchEdit(ctx context.Context, env *Env, opts branchOptions) error {
	var body string
	if isTerminal(env.Stdin) {
		text, err := editInEditor(ctx, env, opts)
		if err != nil {
			return err
		}
		body = text
	} else {
		data, err := io.ReadAll(io.LimitReader(env.Stdin, changelog.MaxRecordSize+1))
		if err != nil {
			return planqerr.New(planqerr.Failure, "stdin", "failed to read: %w", err)
		}
		body = string(data)
	}
	return runBranchWrite(ctx, env, opts, func(c *branchctx.Context) { c.Body = body })
}

// editInEditor lets a person edit the current body in $VISUAL or $EDITOR.
func editInEditor(ctx context.Context, env *Env, opts branchOptions) (string, error) {
	store, a, branch, err := resolveBranch(ctx, env, opts)
	if err != nil {
		return "", err
	}
	c, _, err := a.BranchContext(branch)
	env.closeStore(store)
	if err != nil {
		return "", err
	}
	body := branchctx.New(branch, a.Name, nowUTC()).Body
	if c != nil {
		body = c.Body
	}
	f, err := os.CreateTemp("", "planq-branch-*.md")
	if err != nil {
		return "", planqerr.New(planqerr.Failure, "editor", "failed to create a file to edit: %w", err)
	}
	defer os.Remove(f.Name())
	if _, err := f.WriteString(body); err != nil {
		f.Close()
		return "", planqerr.New(planqerr.Failure, "editor", "failed to write %s: %w", f.Name(), err)
	}
	f.Close()
	if err := runEditor(env, f.Name(), "planq branch edit < file.md"); err != nil {
		return "", err
	}
	data, err := os.ReadFile(f.Name())
	if err != nil {
		return "", planqerr.New(planqerr.Failure, "editor", "failed to read %s: %w", f.Name(), err)
	}
	return string(data), nil
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
