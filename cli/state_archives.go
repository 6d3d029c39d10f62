package cli

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"
)

type archivesOptions struct {
	json bool
}

func newArchivesCmd(env *Env) *cobra.Command {
	var opts archivesOptions
	cmd := &cobra.Command{
		Use:   "archives",
		Short: "List agent branches gc archived",
		Long:  `List what gc kept. --json prints [{"agent","commit","archive"}].`,
		Args:  exactArgs(0, "no arguments"),
		RunE:  func(cmd *cobra.Command, _ []string) error { return runArchives(cmd.Context(), env, opts) },
	}
	cmd.Flags().BoolVar(&opts.json, "json", false, "print as JSON")
	return cmd
}

func runArchives(ctx context.Context, env *Env, opts archivesOptions) error {
	list, err := env.service().Archives(ctx)
	if err != nil {
		return err
	}
	if opts.json {
		return env.writeJSON(list)
	}
	tw := newTable(env.Stdout)
	fmt.Fprintln(tw, "AGENT\tCOMMIT\tARCHIVE")
	for _, a := range list {
		fmt.Fprintf(tw, "%s\t%s\t%s\n", a.Agent, short(a.Commit), a.Ref)
	}
	return tw.Flush()
}
