package cli

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"
)

type kbDisputedOptions struct {
	json bool
}

func newKBDisputedCmd(env *Env) *cobra.Command {
	var opts kbDisputedOptions
	cmd := &cobra.Command{
		Use:   "disputed",
		Short: "List the disputed articles, both sides of each conflict, and how to settle it",
		Long: `List the articles of global whose sources contradict each other (status
disputed), by path: its path and title, its Conflict section's lines as the
article says them (each side in its own words, with its source and the ones it
contradicts), then each side's source, whether its record is current on global,
its one-line form, and the 'planq kb resolve' that keeps it.

--json prints [{"path","slug","title","description","conflict":[...],"sides":
[{"source","record","kind"?,"path"?,"line"?,"current","ended"?,"resolve"}]}].`,
		Example: "  planq kb disputed\n  planq kb disputed --json",
		Args:    exactArgs(0, "no arguments"),
		RunE:    func(cmd *cobra.Command, _ []string) error { return runKBDisputed(cmd.Context(), env, opts) },
	}
	cmd.Flags().BoolVar(&opts.json, "json", false, "print as JSON")
	return cmd
}

func runKBDisputed(ctx context.Context, env *Env, opts kbDisputedOptions) error {
	list, err := env.service().KBDisputed(ctx)
	if err != nil {
		return err
	}
	if opts.json {
		return env.writeJSON(list)
	}
	if len(list) == 0 {
		env.Log.Info("no article is disputed")
		return nil
	}
	for i, d := range list {
		if i > 0 {
			env.printf("\n")
		}
		env.printf("%s  %s\n", d.Path, d.Title)
		for _, c := range d.Conflict {
			env.printf("  - %s\n", c)
		}
		tw := newTable(env.Stdout)
		for _, s := range d.Sides {
			fmt.Fprintf(tw, "  %s\t%s\t%s\n", s.Source, sourceState(s.Cited), s.Line)
			fmt.Fprintf(tw, "  \tkeep it:\t%s\n", s.Resolve)
		}
		if err := tw.Flush(); err != nil {
			return err
		}
	}
	return nil
}
