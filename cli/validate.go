package cli

import (
	"context"
	"slices"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/planq-dev/planq/internal/plural"
	"github.com/planq-dev/planq/session"
)

type validateOptions struct {
	json  bool
	fix   bool
	agent string
}

func newValidateCmd(env *Env) *cobra.Command {
	var opts validateOptions
	cmd := &cobra.Command{
		Use:   "validate",
		Short: "Check every record on every branch",
		Long: `Check every record on global and on every agent branch. Each file on its own:
its frontmatter (fields, types and enums, no key twice), its ID, and its place in
the tree (its kind's directory and shard, named by its ID); files under a kind's
directory that are no record. Then the records together: the records a parent,
depends_on or supersedes names exist on some branch, no ID is at two paths, no
versions supersede each other in a ring, and no current record says nothing (an
empty body, where the body is its text: every kind but decisions and
checkpoints; a record planq never writes, committed with plain git).

Each problem is a line 'path:line: problem' (the line when one line is to
blame), then the check and the branches that hold the file. Exits 1 when
anything is wrong, 0 when nothing is.

Without --fix nothing is changed. --fix repairs, in the agent's own worktree
(this workspace's, or --agent's), what is safe to repair, in one commit: a
value of a fixed set (kind, type, classification, status, domain) in the wrong
case or with stray spaces, a record at the wrong place (moved to where its
kind, shard and ID say, unless a file is there), and versions that supersede
each other in a ring (made by plain git): of each ring, the one supersedes
line that names its newest version (by time, then ID: the version readers
show) is dropped, so the newest is current and the others are its older
versions; the commit message names the link, and the file as it was stays in
history. A file is changed only if it then reads as a record. The rest is
listed for a person: fix it in the .planq/agent of the agent whose branch
holds it (or run --fix there), and commit.

--json prints [{"path","line","check","problem","branches"}]; with --fix,
{"fixed":[{"path","to","what"}],"commit","left":[...]}.`,
		Example: `  planq validate
  planq validate --fix
  planq validate --json | jq -r '.[].path'`,
		Args: exactArgs(0, "no arguments"),
		RunE: func(cmd *cobra.Command, _ []string) error { return runValidate(cmd.Context(), env, opts) },
	}
	cmd.Flags().BoolVar(&opts.json, "json", false, "print findings as JSON")
	cmd.Flags().BoolVar(&opts.fix, "fix", false, "repair what is safe to repair in the agent's worktree, in one commit")
	cmd.Flags().StringVar(&opts.agent, "agent", "", "with --fix: repair agent `NAME`'s worktree (default: the one mounted here)")
	return cmd
}

func runValidate(ctx context.Context, env *Env, opts validateOptions) error {
	v, err := env.service().Validate(ctx, opts.fix, opts.agent)
	if v.Commit != "" {
		env.Log.Info("repaired "+plural.Of(len(v.Fixed), "record file"), "agent", v.FixedBy, "commit", short(v.Commit))
	}
	if err != nil {
		return err
	}
	findings := v.Left
	switch {
	case opts.json && opts.fix:
		err = env.writeJSON(v)
	case opts.json:
		err = env.writeJSON(findings)
	default:
		for _, f := range v.Fixed {
			if f.To != "" {
				env.printf("fixed: %s -> %s: %s\n", f.Path, f.To, f.What)
			} else {
				env.printf("fixed: %s: %s\n", f.Path, f.What)
			}
		}
		for _, f := range findings {
			where := f.Path
			if f.Line > 0 {
				where += ":" + strconv.Itoa(f.Line)
			}
			env.printf("%s: %s\t(%s; %s)\n", where, f.Problem, f.Check, strings.Join(f.Branches, ", "))
		}
	}
	if err != nil {
		return err
	}
	if len(findings) > 0 {
		hint := "fix each file in the .planq/agent of the agent whose branch holds it and commit"
		if slices.ContainsFunc(findings, func(f session.RecordFinding) bool { return f.Check == session.CheckCycle }) {
			// A ring is mended by a command, in the workspace of the agent
			// whose branch holds it.
			hint += "; a ring of versions: planq validate --fix"
		}
		env.Log.Warn("records with problems", "count", len(findings), "hint", hint)
		return &silentError{code: ExitFailure}
	}
	env.Log.Info("every record is sound")
	return nil
}
