package cli

import (
	"context"
	"maps"
	"slices"

	"github.com/spf13/cobra"
)

func newRemoteCmd(env *Env) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "remote",
		Short: "Manage the state repository's remotes",
		Args:  exactArgs(0, "a subcommand: add or list"),
		RunE:  func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
	}
	cmd.AddCommand(newRemoteAddCmd(env), newRemoteListCmd(env))
	return cmd
}

type remoteAddOptions struct {
	name    string
	url     string
	replace bool
}

func newRemoteAddCmd(env *Env) *cobra.Command {
	var opts remoteAddOptions
	cmd := &cobra.Command{
		Use:   "add NAME URL",
		Short: "Add a remote to push state to and pull it from",
		Long: `Add remote NAME at URL (any git URL: ssh, https, a path). 'origin' is the team
remote: its URL also goes into .planq/config (commit it, and every clone finds
the team's memory). Naming another remote lets you pass it to push and pull.
A remote that exists at another URL is replaced only with --replace.`,
		Example: "  planq state remote add origin git@github.com:acme/shop.git",
		Args:    exactArgs(2, "NAME and URL"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.name, opts.url = args[0], args[1]
			return runRemoteAdd(cmd.Context(), env, opts)
		},
	}
	cmd.Flags().BoolVar(&opts.replace, "replace", false, "replace the URL of a remote that exists")
	return cmd
}

func runRemoteAdd(ctx context.Context, env *Env, opts remoteAddOptions) error {
	res, err := env.service().AddRemote(ctx, opts.name, opts.url, opts.replace)
	if err != nil {
		return err
	}
	if res.Registered {
		env.Log.Info("added remote to the state repository", "name", opts.name, "url", opts.url)
	}
	if res.Config {
		env.Log.Info("wrote the team remote into .planq/config", "url", opts.url, "hint", "commit it, so clones find the team's memory")
	}
	if !res.Registered && !res.Config {
		env.Log.Info("remote is there already; nothing changed", "name", opts.name, "url", opts.url)
	}
	return nil
}

type remoteListOptions struct {
	json bool
}

func newRemoteListCmd(env *Env) *cobra.Command {
	var opts remoteListOptions
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List remotes",
		Long:  `List remotes. --json prints {"<name>": "<url>"}.`,
		Args:  exactArgs(0, "no arguments"),
		RunE:  func(cmd *cobra.Command, _ []string) error { return runRemoteList(cmd.Context(), env, opts) },
	}
	cmd.Flags().BoolVar(&opts.json, "json", false, "print as JSON")
	return cmd
}

func runRemoteList(ctx context.Context, env *Env, opts remoteListOptions) error {
	remotes, err := env.service().Remotes(ctx)
	if err != nil {
		return err
	}
	if opts.json {
		return env.writeJSON(remotes)
	}
	for _, n := range slices.Sorted(maps.Keys(remotes)) {
		env.printf("%s\t%s\n", n, remotes[n])
	}
	return nil
}
