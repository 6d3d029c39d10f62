package cli

import (
	"context"

	"github.com/spf13/cobra"

	"github.com/planq-dev/planq/session"
)

type adoptOptions struct {
	writeFlags
	dryRun bool
}

func newAdoptCmd(env *Env) *cobra.Command {
	var opts adoptOptions
	cmd := &cobra.Command{
		Use:   "adopt ID...",
		Short: "Copy records of the user layer into this project",
		Long: `Copy the user layer's learnings and decisions ID (see planq user list) into this
project, as new records of the agent: written as the agent writes every record
(stamped, checked, committed on its branch; promote carries them to global),
each with origin user/<id>. A record adopted before (a record of the project,
on any branch, names that origin), or the user layer's copy of one of this
project's own records, is reported present and lands once.

--json prints {"agent","records":[{"id","kind","title","action","copy"?,"origin"}]};
action is add or present, copy the project's record (none in a dry run's add).`,
		Example: "  planq adopt pq-3f9a1c2e4b",
		Args: func(cmd *cobra.Command, args []string) error {
			if len(args) == 0 {
				return usagef("%s: expects one or more IDs of the user layer's records ('planq user list' shows them)", cmd.CommandPath())
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error { return runAdopt(cmd.Context(), env, opts, args) },
	}
	f := cmd.Flags()
	f.StringVar(&opts.agent, "agent", "", "adopt as agent `NAME` (default: the agent mounted in this workspace, else $PLANQ_AGENT_DIR)")
	f.BoolVar(&opts.json, "json", false, "print the result as JSON")
	f.BoolVar(&opts.allowSecret, "allow-secret", false, "store text even if it looks like a credential")
	f.BoolVar(&opts.dryRun, "dry-run", false, "show what would land, change nothing")
	return cmd
}

func runAdopt(ctx context.Context, env *Env, opts adoptOptions, ids []string) error {
	res, err := env.service().Adopt(ctx, session.AdoptInput{Agent: opts.agent, IDs: ids, DryRun: opts.dryRun, AllowSecret: opts.allowSecret})
	if err != nil {
		return err
	}
	return reportCopied(env, res, res.Records, opts.dryRun, opts.json, "in the project already; nothing to add", func(added int) {
		env.Log.Info("adopted from the user layer", "agent", res.Agent, "records", added)
	})
}
