package cli

import (
	"context"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/planq-dev/planq/agent"
	"github.com/planq-dev/planq/readmodel"
)

type validateOptions struct {
	json bool
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
depends_on or supersedes names exist on some branch, no ID is at two paths, and
no versions supersede each other in a ring.

Each problem is a line 'path:line: problem' (the line when one line is to
blame), then the check and the branches that hold the file. Exits 1 when
anything is wrong, 0 when nothing is. Nothing is changed: fix a file in the
.planq/agent of the agent whose branch holds it, and commit.

--json prints [{"path","line","check","problem","branches"}].`,
		Example: `  planq validate
  planq validate --json | jq -r '.[].path'`,
		Args: exactArgs(0, "no arguments"),
		RunE: func(cmd *cobra.Command, _ []string) error { return runValidate(cmd.Context(), env, opts) },
	}
	cmd.Flags().BoolVar(&opts.json, "json", false, "print findings as JSON")
	return cmd
}

func runValidate(ctx context.Context, env *Env, opts validateOptions) error {
	var findings []readmodel.Finding
	err := withStore(ctx, env, func(store *agent.Store) error {
		var err error
		findings, err = store.Records.Validate()
		return err
	})
	if err != nil {
		return err
	}
	if opts.json {
		if err := env.writeJSON(findings); err != nil {
			return err
		}
	} else {
		for _, f := range findings {
			where := f.Path
			if f.Line > 0 {
				where += ":" + strconv.Itoa(f.Line)
			}
			env.printf("%s: %s\t(%s; %s)\n", where, f.Problem, f.Check, strings.Join(f.Branches, ", "))
		}
	}
	if len(findings) > 0 {
		env.Log.Warn("records with problems", "count", len(findings),
			"hint", "fix each file in the .planq/agent of the agent whose branch holds it and commit")
		return &silentError{code: ExitFailure}
	}
	env.Log.Info("every record is sound")
	return nil
}
