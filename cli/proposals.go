package cli

import (
	"context"
	"fmt"
	"maps"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"time"

	"github.com/spf13/cobra"

	"github.com/planq-dev/planq/planqerr"
	"github.com/planq-dev/planq/session"
)

func newProposalsCmd(env *Env) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "proposals",
		Short: "Review curation proposals: list, show, apply, dismiss",
		Long: `Review what curating agents proposed for the instruction files ('planq propose').

A proposal is pending until a person applies or dismisses it; it is stale when one
of its files changed since it was made (apply refuses it: dismiss it and curate
again). Apply writes the files into this checkout and commits them, and only
them, in one commit; it never pushes.`,
		Args: exactArgs(0, "a subcommand: list, show, apply or dismiss"),
	}
	var asJSON bool
	list := &cobra.Command{
		Use:   "list",
		Short: "List the proposals, newest first",
		Long: `List every proposal, newest first: its ID, state (pending, stale, broken,
applied, dismissed), files, additions, notes, who proposed it (an agent, or lead)
and when, and its summary. A broken proposal is one whose file planq cannot read
as it reads instruction files (it became a symbolic link or a directory, say): it
is listed with the others, and a warning on stderr says why; dismiss it.

--json prints [{"id","version","state","agent","time","decided","decided_by","summary",
"files":[{"path","additions","changed","problem"?}],"entries_used","entries_discarded",
"additions","problem"?}]: "agent" is "global" for the lead; "problem" says why a proposal is broken.`,
		Args: exactArgs(0, "no arguments"),
		RunE: func(cmd *cobra.Command, _ []string) error { return runProposalsList(cmd.Context(), env, asJSON) },
	}
	list.Flags().BoolVar(&asJSON, "json", false, "print as JSON")
	var showJSON bool
	show := &cobra.Command{
		Use:   "show ID",
		Short: "Show a proposal with a unified diff per file",
		Long: `Show a proposal: its state, summary, notes, and for each file a unified diff from
the file as it is now in this checkout to the file as proposed. Any version's ID
names the proposal.

--json adds each file's "proposed" content and "diff" to what list prints.`,
		Args: exactArgs(1, "the proposal's ID"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runProposalsShow(cmd.Context(), env, args[0], showJSON)
		},
	}
	show.Flags().BoolVar(&showJSON, "json", false, "print as JSON")
	var edit, allowRemovals, applyJSON bool
	apply := &cobra.Command{
		Use:   "apply ID",
		Short: "Write a proposal's files and commit them, and only them, in the code repository",
		Long: `Apply a pending proposal: write its files into this checkout, stage only them,
and commit them in one commit whose message says how many lines it adds; never
push. The proposal becomes applied, its notes applied (or dismissed, for those it
discarded), in one commit on global.

Refused, writing nothing: a proposal that is not pending; a stale one (a file
changed since it was made); files with uncommitted or staged changes; a checkout
in the middle of a rebase, merge, cherry-pick, revert or bisect; a detached HEAD
(the commit would be on no branch).

--edit opens each proposed file in $VISUAL or $EDITOR first and applies what you
save. A proposal only adds lines: an edit that removes or rewords a line the
file holds now (an editor that saved an empty file) is refused, saying how many
lines it would remove, unless --allow-removals; the commit message then counts
the lines added and removed.

The commit is on the branch this checkout has checked out, which the log line
names. In an agent's workspace that is the workspace's branch (planq/<agent>),
not the main checkout's: apply warns, and the commit reaches the main checkout's
branch only when someone merges it.

It prints the commit; --json prints {"proposal","commit","branch",
"agent_workspace"?,"main_branch"?,"files","additions","removals"?,"recorded"?}
("agent_workspace" and "main_branch" only in an agent's workspace, "removals"
and "recorded" only when set).`,
		Args: exactArgs(1, "the proposal's ID"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runProposalsApply(cmd.Context(), env, args[0], edit, allowRemovals, applyJSON)
		},
	}
	apply.Flags().BoolVar(&applyJSON, "json", false, "print what was committed as JSON")
	apply.Flags().BoolVar(&edit, "edit", false, "edit the proposed files in $EDITOR before applying")
	apply.Flags().BoolVar(&allowRemovals, "allow-removals", false, "let the edit remove or reword lines the files hold now")
	dismiss := &cobra.Command{
		Use:   "dismiss ID",
		Short: "Dismiss a proposal and the notes it cites",
		Long:  `Dismiss a pending or stale proposal: it and every note it cites become dismissed, in one commit on global. The code repository is not touched.`,
		Args:  exactArgs(1, "the proposal's ID"),
		RunE:  func(cmd *cobra.Command, args []string) error { return runProposalsDismiss(cmd.Context(), env, args[0]) },
	}
	cmd.AddCommand(list, show, apply, dismiss)
	return cmd
}

func runProposalsList(ctx context.Context, env *Env, asJSON bool) error {
	views, err := env.service().Proposals(ctx, false)
	if err != nil {
		return err
	}
	if asJSON {
		return env.writeJSON(views)
	}
	if len(views) == 0 {
		env.Log.Info("no proposal yet", "hint", "'planq curate' gives an agent the raw notes to propose from")
		return nil
	}
	tw := newTable(env.Stdout)
	fmt.Fprintln(tw, "ID\tSTATE\tFILES\tADDITIONS\tNOTES\tBY\tPROPOSED\tSUMMARY")
	for _, v := range views {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%d\t%d\t%s\t%s\t%s\n", v.ID, v.State, filesOf(v), v.Additions,
			len(v.Used)+len(v.Discarded), session.Who(v.Agent), v.Time.Local().Format(time.DateOnly), firstLine(v.Summary, 60))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, v := range views {
		warnBroken(env, v)
	}
	return nil
}

// warnBroken says why a broken proposal is, and how to be rid of it.
func warnBroken(env *Env, v session.ProposalView) {
	if v.State == session.ProposalBroken {
		env.Log.Warn(fmt.Sprintf("proposal %s is broken: %s", v.ID, v.Problem), "hint", "planq proposals dismiss "+v.ID)
	}
}

func runProposalsShow(ctx context.Context, env *Env, id string, asJSON bool) error {
	v, err := env.service().Proposal(ctx, id)
	if err != nil {
		return err
	}
	if asJSON {
		return env.writeJSON(v)
	}
	env.printf("proposal %s: %s, by %s on %s\n", v.ID, v.State, session.Who(v.Agent), v.Time.Local().Format(time.DateOnly))
	if v.Decided != nil {
		env.printf("%s by %s on %s\n", v.State, session.Who(v.DecidedBy), v.Decided.Local().Format(time.DateOnly))
	}
	env.printf("\n%s\n\nnotes used: %s\n", v.Summary, orDashList(v.Used))
	for _, id := range slices.Sorted(maps.Keys(v.Discarded)) {
		env.printf("note discarded: %s: %s\n", id, v.Discarded[id])
	}
	for _, f := range v.Files {
		state := ""
		if f.Changed {
			state = " (changed since the proposal)"
		}
		env.printf("\n=== %s: %s%s\n", f.Path, countOf(f.Additions, "addition"), state)
		switch {
		case f.Problem != "":
			env.printf("(no diff: %s)\n", f.Problem)
		case f.Diff == "":
			env.printf("(the file is as proposed)\n")
		}
		env.printf("%s", f.Diff)
	}
	if v.State == session.ProposalStale {
		env.Log.Warn("the proposal is stale: a file changed since it was made", "hint", "planq proposals dismiss "+v.ID+", then planq curate")
	}
	warnBroken(env, v)
	return nil
}

func runProposalsApply(ctx context.Context, env *Env, id string, edit, allowRemovals, asJSON bool) error {
	svc := env.service()
	in := session.ApplyInput{ID: id, AllowRemovals: allowRemovals}
	if edit {
		v, err := svc.Proposal(ctx, id)
		if err != nil {
			return err
		}
		if in.Edited, err = editProposal(env, v); err != nil {
			return err
		}
	}
	done, err := svc.ApplyProposal(ctx, in)
	if err != nil {
		return err
	}
	if asJSON {
		if err := env.writeJSON(done); err != nil {
			return err
		}
	} else {
		env.printf("%s\n", done.Commit)
	}
	if done.Recorded {
		env.Log.Info("the files were committed already; recorded the proposal as applied", "branch", done.Branch, "proposal", done.Proposal)
	} else {
		what := countOf(done.Additions, "addition")
		if done.Removals > 0 {
			what += " and " + countOf(done.Removals, "removal")
		}
		env.Log.Info(fmt.Sprintf("committed %s to %s (not pushed)", what, strings.Join(done.Files, ", ")), "branch", done.Branch, "proposal", done.Proposal)
	}
	if done.AgentWorkspace != "" {
		warnAgentBranch(env, done)
	}
	return nil
}

// warnAgentBranch says that an apply in an agent's workspace committed on
// that workspace's branch, which the main checkout's does not hold.
func warnAgentBranch(env *Env, done session.ProposalApplied) {
	main, into := "", "the branch you meant"
	if done.MainBranch != "" {
		main, into = ", not "+done.MainBranch+", the branch of the main checkout", done.MainBranch
	}
	env.Log.Warn(fmt.Sprintf("%s is the code branch of agent %s's workspace%s", done.Branch, done.AgentWorkspace, main),
		"hint", fmt.Sprintf("merge %s into %s to bring the commit there, or apply in the main checkout", done.Branch, into))
}

// editProposal lets a person edit each proposed file in $EDITOR.
func editProposal(env *Env, v session.ProposalView) (map[string]string, error) {
	dir, err := os.MkdirTemp("", "planq-proposal-")
	if err != nil {
		return nil, fmt.Errorf("failed to make a directory to edit in: %w", err)
	}
	defer os.RemoveAll(dir)
	edited := map[string]string{}
	for i, f := range v.Files {
		path := filepath.Join(dir, fmt.Sprintf("%d-%s", i, filepath.Base(f.Path)))
		if err := os.WriteFile(path, []byte(f.Proposed), 0o600); err != nil {
			return nil, fmt.Errorf("failed to write %s: %w", path, err)
		}
		if err := runEditor(env, path, "planq proposals apply "+v.ID); err != nil {
			return nil, err
		}
		data, err := os.ReadFile(path)
		if err != nil {
			return nil, planqerr.New(planqerr.Failure, "editor", "failed to read %s: %w", path, err)
		}
		edited[f.Path] = string(data)
	}
	return edited, nil
}

func runProposalsDismiss(ctx context.Context, env *Env, id string) error {
	next, err := env.service().DismissProposal(ctx, id, "")
	if err != nil {
		return err
	}
	env.printf("%s\n", next)
	env.Log.Info("dismissed the proposal and its notes", "proposal", id)
	return nil
}
