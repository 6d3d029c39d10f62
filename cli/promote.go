package cli

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"os"
	"strconv"
	"strings"

	"github.com/spf13/cobra"
	"golang.org/x/term"

	"github.com/planq-dev/planq/session"
)

type promoteOptions struct {
	agent     string
	ids       []string
	all       bool
	dryRun    bool
	json      bool
	to        string
	keepPaths bool
}

func newPromoteCmd(env *Env) *cobra.Command {
	var opts promoteOptions
	cmd := &cobra.Command{
		Use:   "promote [--to user ID...]",
		Short: "Merge an agent's new learnings, decisions and branch context into global, or copy records to the user layer",
		Long: `Merge what agent NAME learned since its last promote into the shared 'global'
branch: its new learnings and decisions, and the branch context it changed. The
merge commit has global's old tip and the agent's tip as parents, so 'planq state
gc' can later prove the agent branch merged. It is built in the state repository
directly: the agent keeps working while it runs.

The same learning or decision from two agents lands once, as a new version that
cites both. One that contradicts global (same subject, different content) lands
marked 'disputed' beside the old one, and is reported. Nothing in global is
overwritten.

--all promotes every candidate, --id only the given ones; in a terminal without
either, you pick from a list. --dry-run shows exactly what would land.

--json prints {"agent","candidates":[{"action","id","kind","title","path","existing"}],
"commit"?,"previous"?,"choices"?,"marked_merged"?,"knowledge"?}; action is add, duplicate, disputed or
branch; a key marked ? is there only when set. "knowledge" is what the knowledge
base update that follows a promote did (see planq kb update):
{"commit","created","updated","disputed","error"?}; its failure does not fail the
promote, which has landed: run 'planq kb update' again.

--to user ID... copies instead the project's learnings and decisions ID (of any
branch, current ones) into the user layer (see planq user), made on first use:
each copy is a new record of the user layer whose origin names where it came
from (<project>/<id>). Every check of a record runs again (a credential the
project's writer allowed is refused). Paths that name the project are taken
out: anchors, the evidence's files, commit and branch, and the project's
checkouts in the text (made relative); --keep-paths keeps them. A record copied
before is reported present and lands once. A project with 'private: true' in
.planq/config is refused. With --to user, --json prints {"project","records":
[{"id","kind","title","action","copy"?,"origin"}],"commit"?,"stripped"}; action
is add or present, copy the user layer's record (unknown in a dry run's add).`,
		Example: "  planq context promote --agent auth --dry-run\n  planq context promote --agent auth --all\n  planq context promote --agent auth --id pq-3f9a1c2e4b\n  planq context promote --to user pq-3f9a1c2e4b",
		Args: func(cmd *cobra.Command, args []string) error {
			if opts.to == "" {
				return exactArgs(0, "no arguments (record IDs only with --to user)")(cmd, args)
			}
			return nil
		},
		RunE: func(cmd *cobra.Command, args []string) error {
			if opts.to != "" {
				return runPromoteToUser(cmd.Context(), env, cmd, opts, args)
			}
			if opts.keepPaths {
				return usagef("context promote: --keep-paths goes with --to user")
			}
			return runPromote(cmd.Context(), env, opts)
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.agent, "agent", "", "promote agent `NAME` (default: the agent mounted here)")
	f.StringSliceVar(&opts.ids, "id", nil, "promote only these record `ID`s (repeat or comma-separate)")
	f.BoolVar(&opts.all, "all", false, "promote every candidate")
	f.BoolVar(&opts.dryRun, "dry-run", false, "show what would land, change nothing")
	f.BoolVar(&opts.json, "json", false, "print the result as JSON")
	f.StringVar(&opts.to, "to", "", "copy the records ID... to `LAYER` instead: user, the user layer")
	f.BoolVar(&opts.keepPaths, "keep-paths", false, "with --to user: keep the paths that name the project")
	cmd.MarkFlagsMutuallyExclusive("all", "id")
	return cmd
}

func runPromoteToUser(ctx context.Context, env *Env, cmd *cobra.Command, opts promoteOptions, args []string) error {
	if opts.to != scopeUser {
		return usagef("context promote: --to takes %s (the user layer), not %q", scopeUser, opts.to)
	}
	for _, flag := range []string{"agent", "all"} {
		if cmd.Flags().Changed(flag) {
			return usagef("context promote: --%s does not go with --to user, which copies the records it is given", flag)
		}
	}
	ids := append(splitList(opts.ids), args...)
	if len(ids) == 0 {
		return usagef("context promote --to user: name the records to copy (ID...); 'planq search WORDS' finds their IDs")
	}
	res, err := env.service().PromoteToUser(ctx, session.PromoteToUserInput{IDs: ids, KeepPaths: opts.keepPaths, DryRun: opts.dryRun})
	madeUserLayer(env, res.Made)
	if err != nil {
		return err
	}
	return reportCopied(env, res, res.Records, opts.dryRun, opts.json, "in the user layer already; nothing to add", func(added int) {
		env.Log.Info("copied to the user layer", "project", res.Project, "records", added, "commit", short(res.Commit), "paths_stripped", res.Stripped)
	})
}

// reportCopied tells what a copy between a project and the user layer
// (promote --to user, adopt) did: it logs each record the other side
// holds already (the message already), then the dry run's count or, when
// records landed, landed's line; and it writes res as JSON or the copies
// as a table.
func reportCopied(env *Env, res any, copies []session.Copied, dryRun, asJSON bool, already string, landed func(added int)) error {
	added := 0
	for _, c := range copies {
		if c.Action == session.CopiedAdd {
			added++
		} else {
			env.Log.Info(already, "record", c.ID, "as", c.Copy)
		}
	}
	switch {
	case dryRun:
		env.Log.Info("dry run: nothing changed", "would_land", added)
	case added > 0:
		landed(added)
	}
	if asJSON {
		return env.writeJSON(res)
	}
	return printCopied(env.Stdout, copies)
}

// printCopied lists what a copy between layers did, a line a record.
func printCopied(w io.Writer, cs []session.Copied) error {
	tw := newTable(w)
	for _, c := range cs {
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", c.Action, c.ID, c.Kind, orDashStr(c.Copy), c.Title)
	}
	return tw.Flush()
}

func runPromote(ctx context.Context, env *Env, opts promoteOptions) error {
	svc := env.service()
	name, err := svc.AgentName(ctx, opts.agent)
	if err != nil {
		return err
	}
	in := session.PromoteInput{Agent: name, IDs: splitList(opts.ids), DryRun: opts.dryRun}
	if !opts.all && len(in.IDs) == 0 && !opts.dryRun {
		if !isTerminal(env.Stdin) {
			return usagef("context promote: pass --all, --id ID or --dry-run (a list to pick from needs a terminal)")
		}
		preview, err := svc.Promote(ctx, session.PromoteInput{Agent: name, DryRun: true})
		if err != nil {
			return err
		}
		if in.IDs, err = pick(env, preview.Candidates); err != nil || len(in.IDs) == 0 {
			return err
		}
	}
	done := env.progress(opts.json, "promoting %s's records into global", name)
	res, err := svc.Promote(ctx, in)
	done()
	if err != nil {
		return err
	}
	switch {
	case res.MarkedMerged:
		env.Log.Info("nothing new to promote; recorded the agent as merged", "agent", name, "commit", short(res.Commit))
	case len(res.Candidates) == 0:
		env.Log.Info("nothing new to promote", "agent", name)
	case opts.dryRun:
		env.Log.Info("dry run: nothing changed", "agent", name, "would_land", len(res.Candidates))
	default:
		env.Log.Info("promoted into global", "agent", name, "records", len(res.Candidates), "commit", short(res.Commit), "previous", short(res.Previous))
	}
	for _, p := range res.Problems {
		env.Log.Warn("malformed record not promoted", "problem", p)
	}
	for _, c := range res.Disputed() {
		env.Log.Warn("disputed: contradicts global", "record", c.ID, "existing", c.Existing, "title", c.Title)
	}
	for _, c := range res.Choices {
		env.Log.Warn("branch context changed on both sides; kept the newer", "path", c.Path, "other_version", short(c.Other))
	}
	logKnowledge(env, res.Knowledge)
	if opts.json {
		if res.Candidates == nil {
			res.Candidates = []session.Candidate{}
		}
		return env.writeJSON(res)
	}
	return printCandidates(env.Stdout, res.Candidates, false)
}

func printCandidates(w io.Writer, cs []session.Candidate, numbered bool) error {
	tw := newTable(w)
	for i, c := range cs {
		prefix := ""
		if numbered {
			prefix = strconv.Itoa(i+1) + "\t"
		}
		note := ""
		switch c.Action {
		case session.PromoteDuplicate:
			note = "(same as " + c.Existing + " in global: lands once, citing both)"
		case session.PromoteDisputed:
			note = "(contradicts " + c.Existing + " in global: lands disputed)"
		}
		fmt.Fprintf(tw, "%s%s\t%s\t%s\t%s\t%s\n", prefix, c.Action, orDashStr(c.ID), orDashStr(string(c.Kind)), c.Title, note)
	}
	return tw.Flush()
}

// pick shows the candidates and reads the lead's choice from the terminal.
func pick(env *Env, cs []session.Candidate) ([]string, error) {
	if len(cs) == 0 {
		return nil, nil
	}
	// The list and the question are for the person at the terminal, not
	// data: stdout stays the result (JSON with --json).
	if err := printCandidates(env.Stderr, cs, true); err != nil {
		return nil, err
	}
	fmt.Fprint(env.Stderr, "promote which? (all, none, or numbers like 1,3-5): ")
	line, _ := bufio.NewReader(env.Stdin).ReadString('\n')
	line = strings.TrimSpace(strings.ToLower(line))
	switch line {
	case "all", "a":
		var ids []string
		for _, c := range cs {
			if c.ID != "" {
				ids = append(ids, c.ID)
			}
		}
		return ids, nil
	case "", "none", "n", "q":
		return nil, nil
	}
	var ids []string
	for _, part := range strings.Split(line, ",") {
		lo, hi, isRange := strings.Cut(strings.TrimSpace(part), "-")
		from, err1 := strconv.Atoi(lo)
		to := from
		var err2 error
		if isRange {
			to, err2 = strconv.Atoi(hi)
		}
		if err1 != nil || err2 != nil || from < 1 || to > len(cs) || from > to {
			return nil, usagef("cannot read %q as numbers between 1 and %d", part, len(cs))
		}
		for i := from; i <= to; i++ {
			if cs[i-1].ID != "" {
				ids = append(ids, cs[i-1].ID)
			}
		}
	}
	return ids, nil
}

func isTerminal(r any) bool {
	f, ok := r.(*os.File)
	return ok && term.IsTerminal(int(f.Fd()))
}
