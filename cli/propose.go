package cli

import (
	"context"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/planq-dev/planq/session"
)

type proposeOptions struct {
	json bool
}

func newProposeCmd(env *Env) *cobra.Command {
	var opts proposeOptions
	cmd := &cobra.Command{
		Use:   "propose",
		Short: "Keep a curating agent's proposal (JSON on stdin) for a person to review",
		Long: `Read the curating agent's answer to 'planq curate' on stdin, check it, and keep it
on global for a person to apply or dismiss ('planq proposals', 'planq ui'):

  {"proposed_files": {"CLAUDE.md": "<the whole file as proposed>"},
   "diff_summary": "<what it adds>",
   "entries_used": ["<note id>", ...],
   "entries_discarded": {"<note id>": "<why>"}}

The packet asks for bare JSON; an answer that holds the one proposal in a
fenced code block or among sentences is read too. An answer with two objects
that could each be the proposal, or none, is refused and says so.

A proposal may name only the project's instruction files, inside the code
repository; it may only add lines (every existing line stays, in order); it
cites notes that exist and are raw; and the same proposal is kept once. A file
named through a symbolic link goes to the file the link leads to when that is
an instruction file inside the work tree, else it is left out, and the rest
of the proposal kept; each is said on stderr. The SHA-256 of each file as it
is now is kept with it: a file changed after that makes the proposal stale.
The notes it cites become proposed, in the same commit.

--json prints the kept proposal as 'planq proposals show --json' does.`,
		Example: "  planq curate | claude -p | planq propose",
		Args:    exactArgs(0, "no arguments: the proposal comes on stdin"),
		RunE:    func(cmd *cobra.Command, _ []string) error { return runPropose(cmd.Context(), env, opts) },
	}
	cmd.Flags().BoolVar(&opts.json, "json", false, "print the kept proposal as JSON")
	return cmd
}

func runPropose(ctx context.Context, env *Env, opts proposeOptions) error {
	p, err := session.DecodeProposal(env.Stdin)
	if err != nil {
		return err
	}
	res, err := env.service().Propose(ctx, session.ProposeInput{Proposal: p})
	for _, line := range res.Settled {
		env.Log.Warn(line)
	}
	if err != nil {
		return err
	}
	v := res.View
	if opts.json {
		return env.writeJSON(v)
	}
	env.printf("%s\n", v.ID)
	env.Log.Info(fmt.Sprintf("proposal %s keeps %s to %s from %s", v.ID, countOf(v.Additions, "addition"), filesOf(v), countOf(len(v.Used), "note")),
		"review", "planq proposals show "+v.ID)
	return nil
}

func filesOf(v session.ProposalView) string { return orDashStr(strings.Join(v.Paths(), ", ")) }
