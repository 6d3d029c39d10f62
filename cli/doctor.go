package cli

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/planq-dev/planq/session"
)

type doctorOptions struct {
	fix  bool
	json bool
}

func newDoctorCmd(env *Env) *cobra.Command {
	var opts doctorOptions
	cmd := &cobra.Command{
		Use:   "doctor",
		Short: "Find and repair what crashes and moves leave behind",
		Long: `Check the project for: a missing exclude entry for .planq/agent, a missing state
repository, repository extensions planq cannot read, left-over git lock files,
a .planq/agent directory left by a crash, an agent worktree whose checkout was
moved, worktree registrations whose directory is gone, and an agent branch
deleted under its mounted worktree (recreated at the last tip a reflog shows), and
an agent branch whose tip commit cannot be read (moved back to its newest readable
commit; the broken tip is kept under refs/planq/broken/ or, when git refuses a ref
to it, in <state repo>/planq/broken/).
The user layer ($PLANQ_HOME/state-repos/_user.git), yours across projects, is
checked too, in a project or outside one (then it alone is checked, and doctor
says so): extensions planq cannot read, left-over lock files, record files no
reader can use, and a global whose tip cannot be read, which --fix moves back to
its newest readable commit as it does an agent branch (nothing but doctor can
mend the layer, and every user-layer command fails until then). Its checks are
named user-*.
An agent mounted from
a state repository that was moved away, or replaced by a new one, is reported
for you to settle: move the repository back; doctor makes none in its place
and moves none of the agent's files.

With --fix, repair each. Nothing is deleted: a stray .planq/agent is moved under
$PLANQ_HOME/orphans/<project>/. Exits 1 while problems remain.

--json prints [{"check","problem","fix","fixed","manual"?,"error"?}]: manual when
doctor cannot repair it (fix says what to do), error when the repair failed.`,
		Args: exactArgs(0, "no arguments"),
		RunE: func(cmd *cobra.Command, _ []string) error { return runDoctor(cmd.Context(), env, opts) },
	}
	cmd.Flags().BoolVar(&opts.fix, "fix", false, "repair what is found")
	cmd.Flags().BoolVar(&opts.json, "json", false, "print findings as JSON")
	return cmd
}

func runDoctor(ctx context.Context, env *Env, opts doctorOptions) error {
	c, err := env.service().Doctor(ctx, opts.fix)
	if err != nil {
		return err
	}
	if c.Project == "" {
		env.Log.Info("not in a planq project: checking only the user layer", "path", c.UserLayer)
	}
	if err := printFindings(env, c.Findings, opts.json); err != nil {
		return err
	}
	remaining, fixable := 0, 0
	for _, f := range c.Findings {
		if !f.Fixed {
			remaining++
			if !f.Manual {
				fixable++
			}
		}
	}
	switch {
	case remaining > 0 && !opts.fix && fixable > 0:
		env.Log.Warn("problems found", "count", remaining, "hint", "run 'planq doctor --fix'")
	case remaining > 0:
		env.Log.Warn("problems remain that doctor cannot repair; each line says what to do", "count", remaining)
	case len(c.Findings) > 0:
	case c.Project == "":
		env.Log.Info("no problems found in the user layer", "path", c.UserLayer)
	case c.UserLayerExists:
		env.Log.Info("no problems found", "project", c.Project, "user layer", c.UserLayer)
	default:
		env.Log.Info("no problems found", "project", c.Project)
	}
	if remaining > 0 {
		return &silentError{code: ExitFailure}
	}
	return nil
}

// printFindings writes doctor's findings, a line each or as JSON.
func printFindings(env *Env, findings []session.Finding, asJSON bool) error {
	if asJSON {
		return env.writeJSON(findings)
	}
	for _, f := range findings {
		switch {
		case f.Fixed:
			env.printf("fixed\t%s\t%s: %s\n", f.Check, f.Problem, f.Fix)
		case f.Err != "":
			env.printf("failed\t%s\t%s: %s\n", f.Check, f.Problem, f.Err)
		default:
			env.printf("problem\t%s\t%s (fix: %s)\n", f.Check, f.Problem, f.Fix)
		}
	}
	return nil
}
