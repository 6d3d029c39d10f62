package cli

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/planq-dev/planq/agent"
	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/project"
	"github.com/planq-dev/planq/userlayer"
)

// The scopes learn and decide write to.
const (
	scopeProject = "project"
	scopeUser    = "user"
)

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

// openUserLayer opens the user layer, making it on first use and saying
// where on stderr.
func openUserLayer(ctx context.Context, env *Env) (*userlayer.Layer, error) {
	home, err := project.Home()
	if err != nil {
		return nil, err
	}
	l, err := userlayer.Open(ctx, home)
	if err != nil {
		return nil, err
	}
	if l.Created {
		env.Log.Info("made the user layer: your memory across projects", "path", l.Project.StateRepo())
	}
	return l, nil
}

// openExistingUserLayer opens the user layer if it was made; nil if not
// (a read makes none).
func openExistingUserLayer(ctx context.Context) (*userlayer.Layer, error) {
	home, err := project.Home()
	if err != nil {
		return nil, err
	}
	l, ok, err := userlayer.OpenExisting(ctx, home)
	if err != nil || !ok {
		return nil, err
	}
	return l, nil
}

// checkScope refuses a --scope that is neither project nor user.
func checkScope(scope string) error {
	if scope != scopeProject && scope != scopeUser {
		return usagef("--scope must be %s or %s, not %q", scopeProject, scopeUser, scope)
	}
	return nil
}

// writeToUserLayer records rec in the user layer and reports it as
// writeRecord reports an agent's record.
func writeToUserLayer(ctx context.Context, env *Env, flags writeFlags, rec *changelog.Record) error {
	if flags.agent != "" {
		return usagef("--agent names an agent of a project; the user layer has none: leave --agent out, or write to the project (--scope project)")
	}
	l, err := openUserLayer(ctx, env)
	if err != nil {
		return err
	}
	defer env.closeHandle(l.Handle)
	w, err := l.Write(ctx, rec, agentWriteOptions(flags))
	if err != nil {
		return err
	}
	return reportWritten(env, flags, w)
}

func agentWriteOptions(flags writeFlags) agent.WriteOptions {
	return agent.WriteOptions{AllowSecret: flags.allowSecret}
}

type userListOptions struct{ json bool }

// userRecord is one line of 'planq user list --json'.
type userRecord struct {
	ID     string         `json:"id"`
	Kind   changelog.Kind `json:"kind"`
	Type   changelog.Type `json:"type,omitempty"`
	Domain string         `json:"domain,omitempty"`
	Title  string         `json:"title"`
	Origin string         `json:"origin,omitempty"`
	Path   string         `json:"path"`
}

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
	out := []userRecord{}
	l, err := openExistingUserLayer(ctx)
	if err != nil {
		return err
	}
	if l != nil {
		defer env.closeHandle(l.Handle)
		recs, problems, err := l.List()
		if err != nil {
			return err
		}
		for _, p := range problems {
			env.Log.Warn("malformed record left out", "problem", p)
		}
		for _, r := range recs {
			out = append(out, userRecord{ID: r.ID, Kind: r.Kind, Type: r.Type, Domain: r.Domain, Title: r.Title(), Origin: r.Origin, Path: r.Path})
		}
	} else {
		env.Log.Info("no user layer yet: 'planq learn --scope user' or 'planq context promote --to user' makes it")
	}
	if opts.json {
		return env.writeJSON(out)
	}
	tw := newTable(env.Stdout)
	for _, r := range out {
		what := string(r.Type)
		if r.Domain != "" {
			what += "/" + r.Domain
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", r.ID, r.Kind, orDashStr(what), r.Title, orDashStr(r.Origin))
	}
	return tw.Flush()
}
