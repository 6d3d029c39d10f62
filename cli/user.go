package cli

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/planq-dev/planq/session"
)

// scopeUser is the user layer's scope, as --scope and --to take it.
const scopeUser = string(session.ScopeUser)

func newUserCmd(env *Env) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "user",
		Short: "The user layer: what you keep across projects, and its sync",
		Long: `The user layer is a state repository of your own under $PLANQ_HOME
(state-repos/_user.git), beside the projects': your preferences (learnings of
the preferences domain) and the learnings and decisions you chose to carry from
one project to the next. Nothing crosses into it or out of it unless you ask:
'planq learn --scope user' and 'planq decide --scope user' write there, 'planq
context promote --to user ID' copies a project's record up, 'planq adopt ID'
copies one of its records into the current project. It is made on first use.

Sync it across your machines as you sync dotfiles: set a remote once (planq user
remote URL, kept in $PLANQ_HOME/user.yaml), then planq user push and planq user
pull.`,
		Args: exactArgs(0, "a subcommand: list, remote, push, pull or prune"),
		RunE: func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
	}
	cmd.AddCommand(newUserListCmd(env), newUserRemoteCmd(env), newUserPushCmd(env), newUserPullCmd(env), newUserPruneCmd(env))
	return cmd
}

// madeUserLayer tells where a command made the user layer, on its first
// use.
func madeUserLayer(env *Env, path string) {
	if path != "" {
		env.Log.Info("made the user layer: your memory across projects", "path", path)
	}
}

type userListOptions struct{ json bool }

func newUserListCmd(env *Env) *cobra.Command {
	var opts userListOptions
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List the user layer's current learnings and decisions",
		Long: `List the user layer's current learnings and decisions, oldest first: ID, kind,
type and domain (a decision has none), title, and origin (where a promoted
record came from, <project>/<id>). Nothing when the layer was never made.

--json prints [{"id","kind","type"?,"domain"?,"title","origin"?,"path"}].`,
		Args: exactArgs(0, "no arguments"),
		RunE: func(cmd *cobra.Command, _ []string) error { return runUserList(cmd.Context(), env, opts) },
	}
	cmd.Flags().BoolVar(&opts.json, "json", false, "print the records as JSON")
	return cmd
}

func runUserList(ctx context.Context, env *Env, opts userListOptions) error {
	list, err := env.service().UserList(ctx)
	if err != nil {
		return err
	}
	for _, p := range list.Problems {
		env.Log.Warn("malformed record left out", "problem", p)
	}
	if !list.Exists {
		env.Log.Info("no user layer yet: 'planq learn --scope user' or 'planq context promote --to user' makes it")
	}
	if opts.json {
		return env.writeJSON(list.Records)
	}
	tw := newTable(env.Stdout)
	for _, r := range list.Records {
		what := string(r.Type)
		if r.Domain != "" {
			what += "/" + r.Domain
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", r.ID, r.Kind, orDashStr(what), r.Title, orDashStr(r.Origin))
	}
	return tw.Flush()
}
