package cli

import (
	"context"
	"fmt"
	"sort"
	"text/tabwriter"

	"github.com/spf13/cobra"

	"github.com/planq-dev/planq/agent"
	"github.com/planq-dev/planq/project"
	"github.com/planq-dev/planq/team"
	"github.com/planq-dev/planq/workspace"
)

func newStateCmd(env *Env) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "state",
		Short: "Manage the state repository: init, push, pull, remotes, gc",
		Args:  exactArgs(0, "a subcommand"),
		RunE:  func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
	}
	cmd.AddCommand(newStateInitCmd(env), newPushCmd(env), newPullCmd(env), newRemoteCmd(env),
		newGCCmd(env), newRestoreCmd(env), newArchivesCmd(env))
	return cmd
}

// withStore runs fn with the project's store, closing it after.
func withStore(env *Env, fn func(*agent.Store) error) error {
	p, err := env.project()
	if err != nil {
		return err
	}
	store, err := agent.OpenStore(p)
	if err != nil {
		return err
	}
	defer env.closeStore(store)
	return fn(store)
}

func newStateInitCmd(env *Env) *cobra.Command {
	return &cobra.Command{
		Use:   "init",
		Short: "Create the state repository of an initialised project",
		Long: `Create $PLANQ_HOME/state-repos/<project>.git for a repository whose .planq/config
is already committed (a fresh clone, a new machine). When the config names a
remote, global is fetched from it instead of starting empty; an unreachable
remote is an error and leaves nothing behind. Running it again changes nothing.`,
		Args: exactArgs(0, "no arguments"),
		RunE: func(cmd *cobra.Command, _ []string) error {
			p, err := env.project()
			if err != nil {
				return err
			}
			res, err := workspace.InitState(cmd.Context(), p)
			if err != nil {
				return err
			}
			reportStateInit(env, p, res)
			env.printf("%s\n", p.StateRepo())
			return nil
		},
	}
}

func reportStateInit(env *Env, p *project.Project, res workspace.StateInit) {
	switch {
	case res.Fetched:
		env.Log.Info("created state repository from the team's remote", "path", p.StateRepo(), "remote", p.Config.Remote)
	case res.Created:
		env.Log.Info("created state repository", "path", p.StateRepo(), "branch", "global")
	default:
		env.Log.Info("state repository exists; nothing changed", "path", p.StateRepo())
	}
}

type syncOptions struct {
	agents bool
	json   bool
}

func newPushCmd(env *Env) *cobra.Command {
	var opts syncOptions
	cmd := &cobra.Command{
		Use:   "push [REMOTE]",
		Short: "Publish global to the team remote",
		Long: `Push global to REMOTE (default origin: the remote of .planq/config) as
refs/planq/global, never as a branch a code host would offer for a pull request.
The push carries a lease on what the remote last had: if a teammate pushed since,
planq pulls, merges and pushes again, never overwriting their work. Records that
look like credentials stop the push before anything is sent.

--agents also publishes this machine's agent branches, under
refs/planq/agents/<owner>/<agent>, where <owner> is unique to this machine.`,
		Args: maxArgs(1, "one REMOTE"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return withStore(env, func(store *agent.Store) error {
				res, err := team.Push(cmd.Context(), store, remoteArg(args), opts.agents)
				if err != nil {
					return err
				}
				env.Log.Info("pushed global", "remote", res.Remote, "commit", short(res.Global), "merged_first", res.Pulls)
				if len(res.Agents) > 0 {
					env.Log.Info("pushed agent branches", "count", len(res.Agents))
				}
				if opts.json {
					return env.writeJSON(res)
				}
				return nil
			})
		},
	}
	cmd.Flags().BoolVar(&opts.agents, "agents", false, "also push this machine's agent branches")
	cmd.Flags().BoolVar(&opts.json, "json", false, "print the result as JSON")
	return cmd
}

func newPullCmd(env *Env) *cobra.Command {
	var opts syncOptions
	cmd := &cobra.Command{
		Use:   "pull [REMOTE]",
		Short: "Fetch the team's global and merge it",
		Long: `Fetch global from REMOTE (default origin) and merge it into the local global:
a fast-forward when possible, else a three-way, per-path merge that never writes
conflict markers and never loses a record (see 'How it works' in the README).

--agents also fetches teammates' agent branches, read only.`,
		Args: maxArgs(1, "one REMOTE"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return withStore(env, func(store *agent.Store) error {
				res, err := team.Pull(cmd.Context(), store, remoteArg(args), opts.agents)
				if err != nil {
					return err
				}
				env.Log.Info("pulled global", "remote", res.Remote, "outcome", res.Outcome, "before", short(res.Before), "after", short(res.After))
				for _, c := range res.Choices {
					env.Log.Warn("changed on both sides; kept one version", "path", c.Path, "kept", short(c.Kept), "other", short(c.Other))
				}
				if opts.json {
					return env.writeJSON(res)
				}
				return nil
			})
		},
	}
	cmd.Flags().BoolVar(&opts.agents, "agents", false, "also fetch teammates' agent branches")
	cmd.Flags().BoolVar(&opts.json, "json", false, "print the result as JSON")
	return cmd
}

func remoteArg(args []string) string {
	if len(args) == 1 {
		return args[0]
	}
	return team.DefaultRemote
}

func newRemoteCmd(env *Env) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "remote",
		Short: "Manage the state repository's remotes",
		Args:  exactArgs(0, "a subcommand: add or list"),
		RunE:  func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
	}
	cmd.AddCommand(&cobra.Command{
		Use:   "add NAME URL",
		Short: "Add a remote to push state to and pull it from",
		Long: `Add remote NAME at URL (any git URL: ssh, https, a path). 'origin' is also
what remote: in .planq/config sets up; naming another remote lets you pass it to
push and pull.`,
		Args: exactArgs(2, "NAME and URL"),
		RunE: func(cmd *cobra.Command, args []string) error {
			if err := project.ValidateName("remote", args[0]); err != nil {
				return err
			}
			return withStore(env, func(store *agent.Store) error {
				if err := store.Repo.SetRemote(cmd.Context(), args[0], args[1]); err != nil {
					return err
				}
				env.Log.Info("added remote", "name", args[0], "url", args[1])
				return nil
			})
		},
	})
	var asJSON bool
	list := &cobra.Command{
		Use:   "list",
		Short: "List remotes",
		Long:  `List remotes. --json prints {"<name>": "<url>"}.`,
		Args:  exactArgs(0, "no arguments"),
		RunE: func(cmd *cobra.Command, _ []string) error {
			return withStore(env, func(store *agent.Store) error {
				return listRemotes(cmd.Context(), env, store, asJSON)
			})
		},
	}
	list.Flags().BoolVar(&asJSON, "json", false, "print as JSON")
	cmd.AddCommand(list)
	return cmd
}

func listRemotes(ctx context.Context, env *Env, store *agent.Store, asJSON bool) error {
	remotes, err := store.Repo.Remotes(ctx)
	if err != nil {
		return err
	}
	if url := store.Project.Config.Remote; url != "" && remotes[team.DefaultRemote] == "" {
		remotes[team.DefaultRemote] = url
	}
	if asJSON {
		return env.writeJSON(remotes)
	}
	names := make([]string, 0, len(remotes))
	for n := range remotes {
		names = append(names, n)
	}
	sort.Strings(names)
	for _, n := range names {
		env.printf("%s\t%s\n", n, remotes[n])
	}
	return nil
}

type gcOptions struct {
	dryRun bool
	json   bool
}

func newGCCmd(env *Env) *cobra.Command {
	var opts gcOptions
	cmd := &cobra.Command{
		Use:   "gc",
		Short: "Delete merged agent branches (kept in an archive) and tidy the repository",
		Long: `Delete the agent branches that global already holds (their tip is an ancestor
of global, checked with merge-base) and whose worktree is gone. Each is first
kept under refs/planq/archive/<agent>/<time>; 'planq state restore NAME' brings
it back. Then stale worktree registrations are pruned and git's maintenance runs,
never pruning objects younger than two weeks.

--json prints {"archived":[{"agent","commit","archive"}],"kept":[agent]}.`,
		Args: exactArgs(0, "no arguments"),
		RunE: func(cmd *cobra.Command, _ []string) error {
			return withStore(env, func(store *agent.Store) error {
				res, err := team.GC(cmd.Context(), store, opts.dryRun)
				if err != nil {
					return err
				}
				verb := "archived and deleted"
				if opts.dryRun {
					verb = "would archive and delete"
				}
				for _, a := range res.Archived {
					env.Log.Info(verb, "branch", "agent-"+a.Agent, "archive", a.Ref)
				}
				for _, k := range res.Kept {
					env.Log.Info("merged but mounted; kept", "agent", k)
				}
				if opts.json {
					if res.Archived == nil {
						res.Archived = []team.Archived{}
					}
					return env.writeJSON(res)
				}
				for _, a := range res.Archived {
					env.printf("%s\t%s\n", a.Agent, a.Ref)
				}
				return nil
			})
		},
	}
	cmd.Flags().BoolVar(&opts.dryRun, "dry-run", false, "show what would be deleted")
	cmd.Flags().BoolVar(&opts.json, "json", false, "print the result as JSON")
	return cmd
}

func newRestoreCmd(env *Env) *cobra.Command {
	return &cobra.Command{
		Use:   "restore NAME",
		Short: "Bring back an agent branch that gc archived",
		Long:  "Recreate agent-NAME from its latest archive; then 'planq create NAME --resume' mounts it.",
		Args:  exactArgs(1, "the agent's NAME"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return withStore(env, func(store *agent.Store) error {
				a, err := team.Restore(cmd.Context(), store, args[0])
				if err != nil {
					return err
				}
				env.Log.Info("restored", "branch", "agent-"+a.Agent, "commit", short(a.Commit), "from", a.Ref, "next", "planq create "+a.Agent+" --resume")
				return nil
			})
		},
	}
}

func newArchivesCmd(env *Env) *cobra.Command {
	var asJSON bool
	cmd := &cobra.Command{
		Use:   "archives",
		Short: "List agent branches gc archived",
		Long:  `List what gc kept. --json prints [{"agent","commit","archive"}].`,
		Args:  exactArgs(0, "no arguments"),
		RunE: func(*cobra.Command, []string) error {
			return withStore(env, func(store *agent.Store) error {
				list, err := team.Archives(store)
				if err != nil {
					return err
				}
				if asJSON {
					return env.writeJSON(list)
				}
				tw := tabwriter.NewWriter(env.Stdout, 0, 2, 2, ' ', 0)
				fmt.Fprintln(tw, "AGENT\tCOMMIT\tARCHIVE")
				for _, a := range list {
					fmt.Fprintf(tw, "%s\t%s\t%s\n", a.Agent, short(a.Commit), a.Ref)
				}
				return tw.Flush()
			})
		},
	}
	cmd.Flags().BoolVar(&asJSON, "json", false, "print as JSON")
	return cmd
}
