package cli

import (
	"context"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/session"
)

type listOptions struct {
	json bool
}

func newListCmd(env *Env) *cobra.Command {
	var opts listOptions
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List the project's agents",
		Long: `List agents with their branch, status (active, unmounted, missing, or broken:
its tip commit cannot be read, see 'planq doctor'), workspace, last activity and
record counts.

--json prints [{"name","branch","status","workspace"?,"agent_dir"?,"last_activity",
"records":{"<kind>":count}}]: the records of each kind (every kind, 0 too); a key
marked ? is there only when set.`,
		Args: exactArgs(0, "no arguments"),
		RunE: func(cmd *cobra.Command, _ []string) error { return runList(cmd.Context(), env, opts) },
	}
	cmd.Flags().BoolVar(&opts.json, "json", false, "print as JSON")
	return cmd
}

func runList(ctx context.Context, env *Env, opts listOptions) error {
	agents, problems, err := env.service().Agents(ctx)
	if err != nil {
		return err
	}
	return listAgents(env, agents, problems, opts)
}

// listAgents prints the agents, and fails after them when record files did
// not read.
func listAgents(env *Env, agents []session.AgentStatus, problems []string, opts listOptions) error {
	for _, a := range agents {
		if a.Status == session.AgentBroken {
			env.Log.Warn("the tip commit of "+a.Branch+" cannot be read: its object file is damaged", "agent", a.Name, "hint", "run 'planq doctor --fix': it moves the branch back to its newest readable commit")
		}
	}
	if opts.json {
		if err := env.writeJSON(agents); err != nil {
			return err
		}
		return reportProblems(problems)
	}
	tw := newTable(env.Stdout)
	fmt.Fprintln(tw, "AGENT\tBRANCH\tSTATUS\tLAST ACTIVITY\tRECORDS\tWORKSPACE")
	for _, a := range agents {
		var counts []string
		for _, k := range changelog.Kinds {
			if n := a.Records[string(k)]; n > 0 {
				counts = append(counts, fmt.Sprintf("%s %d", k, n))
			}
		}
		last := "-" // a broken tip's time cannot be read
		if !a.LastActivity.IsZero() {
			last = a.LastActivity.Local().Format("2006-01-02 15:04")
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\n", a.Name, a.Branch, a.Status, last, orDashList(counts), orDashStr(a.Workspace))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	return reportProblems(problems)
}

func orDashList(items []string) string {
	if len(items) == 0 {
		return "-"
	}
	return strings.Join(items, ", ")
}

func orDashStr(s string) string {
	if s == "" {
		return "-"
	}
	return s
}
