package cli

import (
	"context"
	"fmt"
	"strings"

	"github.com/spf13/cobra"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/planqerr"
	"github.com/planq-dev/planq/session"
)

type logOptions struct {
	agent string
	all   bool
	since string
	limit int
	full  bool
	json  bool
}

func newLogCmd(env *Env) *cobra.Command {
	var opts logOptions
	cmd := &cobra.Command{
		Use:   "log",
		Short: "Show an agent's changelog, or all agents' (add entries with 'log add')",
		Long: `Show changelog entries, newest first: the current agent's, another's with
--agent, or every agent's with --all (then also a table of active agents).
Only current entries are listed and counted, as context show lists them: a
retraction is no entry, and neither is the entry it retracted or a version
a newer one replaced ('planq show ID --history' shows those).

--json prints {"entries": [record...], "agents": [{"agent","entries","last_entry","title"}]}.`,
		Example: "  planq log\n  planq log --all --since 2026-11-01\n  planq log --agent auth --json",
		Args:    exactArgs(0, "no arguments (did you mean 'planq log add'?)"),
		RunE: func(cmd *cobra.Command, _ []string) error {
			return runLog(cmd.Context(), env, opts)
		},
	}
	f := cmd.Flags()
	f.StringVar(&opts.agent, "agent", "", "show agent `NAME`'s entries")
	f.BoolVar(&opts.all, "all", false, "show every agent's entries, aggregated")
	f.StringVar(&opts.since, "since", "", "only entries written since `WHEN`: "+sinceForms)
	f.IntVarP(&opts.limit, "limit", "n", 0, "show at most `N` entries (0: all)")
	f.BoolVar(&opts.full, "full", false, "print each entry's whole text, not its first line")
	f.BoolVar(&opts.json, "json", false, "print as JSON")
	cmd.MarkFlagsMutuallyExclusive("agent", "all")
	cmd.AddCommand(newLogAddCmd(env))
	return cmd
}

func runLog(ctx context.Context, env *Env, opts logOptions) error {
	if opts.limit < 0 {
		return planqerr.New(planqerr.Invalid, "--limit", "must be 0 (all) or more, not %d", opts.limit).
			WithHint("'planq log -n 20' shows the newest 20")
	}
	view, err := env.service().Log(ctx, session.LogQuery{Agent: opts.agent, All: opts.all, Since: opts.since, Limit: opts.limit})
	if err != nil {
		return err
	}
	if opts.json {
		err = env.writeJSON(view)
	} else {
		err = printLog(env, view, opts.full)
	}
	if err != nil {
		return err
	}
	return reportProblems(view.Problems)
}

func printLog(env *Env, view *session.LogView, full bool) error {
	tw := newTable(env.Stdout)
	if len(view.Agents) > 0 {
		fmt.Fprintln(tw, "AGENT\tENTRIES\tLAST ENTRY\tLATEST")
		for _, a := range view.Agents {
			fmt.Fprintf(tw, "%s\t%d\t%s\t%s\n", a.Agent, a.Entries, a.LastEntry.Local().Format(changelog.TimeLayout), a.Title)
		}
		fmt.Fprintln(tw)
	}
	if !full {
		for _, r := range view.Entries {
			fmt.Fprintln(tw, logLine(r))
		}
		return tw.Flush()
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for i, r := range view.Entries {
		if i > 0 {
			env.printf("\n")
		}
		status := ""
		if r.Status != "" {
			status = " [" + string(r.Status) + "]"
		}
		env.printf("%s  %s  %s  %s%s\n", r.Timestamp.Local().Format(changelog.TimeLayout), r.ID, r.Agent, r.Type, status)
		env.printf("    %s\n", strings.ReplaceAll(strings.TrimSpace(r.Body), "\n", "\n    "))
	}
	return nil
}

// sinceForms says what every --since reads (readmodel.ParseSince).
const sinceForms = "a date (2026-01-31), a time (2026-01-31T09:30, or RFC 3339) or an age (7d, 4w, 12h, 90m)"

// maxTitle bounds a record's first line in a listing: a record may hold one
// line of 64 KiB.
const maxTitle = 120

func shortTitle(r *changelog.Record) string { return changelog.Shorten(r.Title(), maxTitle) }

func logLine(r *changelog.Record) string {
	status := ""
	if r.Status != "" {
		status = "[" + string(r.Status) + "]"
	}
	return fmt.Sprintf("%s\t%s\t%s\t%s\t%s\t%s", r.Timestamp.Local().Format(changelog.TimeLayout), r.ID, r.Agent, r.Type, status, shortTitle(r))
}

// reportProblems fails the command after printing its data when records
// were malformed: the data is still useful, and the exit code still tells.
func reportProblems(problems []string) error {
	if len(problems) == 0 {
		return nil
	}
	return planqerr.New(planqerr.Corrupt, "", "%s", strings.Join(problems, "\n")).WithHint("%s", malformedHint)
}

type logAddOptions struct {
	writeFlags
	typ       string
	status    string
	dependsOn []string
}

func newLogAddCmd(env *Env) *cobra.Command {
	var opts logAddOptions
	cmd := &cobra.Command{
		Use:   "add MESSAGE",
		Short: "Add a changelog entry (MESSAGE '-' reads stdin)",
		Long: `Add a changelog entry for the agent, committed at once. Its parent is the
agent's previous entry. Prints the new entry's ID.`,
		Example: `  planq log add "Added JWT validation" --type implement --status completed
  planq log add "Wire the token refresh" --type plan --depends-on pq-3f9a1c2e4b`,
		Args: exactArgs(1, "the MESSAGE"),
		RunE: func(cmd *cobra.Command, args []string) error {
			return runLogAdd(cmd.Context(), env, opts, args[0])
		},
	}
	opts.register(cmd)
	f := cmd.Flags()
	spec := changelog.KindLog.Spec()
	f.StringVar(&opts.typ, "type", string(spec.DefaultType), "entry `TYPE`: "+changelog.Join(spec.Types, "|"))
	f.StringVar(&opts.status, "status", "", "`STATUS`: "+changelog.Join(spec.Statuses, "|"))
	f.StringSliceVar(&opts.dependsOn, "depends-on", nil, "`ID`s of entries this one depends on (repeat or comma-separate)")
	return cmd
}

func runLogAdd(ctx context.Context, env *Env, opts logAddOptions, arg string) error {
	text, err := messageArg(env, arg)
	if err != nil {
		return err
	}
	in := changelog.LogInput{Text: text, Type: changelog.Type(opts.typ),
		Status: changelog.Status(opts.status), DependsOn: splitList(opts.dependsOn)}
	return reported(env, opts.writeFlags)(env.service().AddLog(ctx, session.LogInput{LogInput: in, Author: opts.author()}))
}
