package cli

import (
	"context"
	"io"
	"strconv"
	"strings"

	"github.com/spf13/cobra"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/planqerr"
	"github.com/planq-dev/planq/session"
)

type showOptions struct {
	asOf    asOfFlag
	id      string
	history bool
	json    bool
}

func newShowCmd(env *Env) *cobra.Command {
	var opts showOptions
	cmd := &cobra.Command{
		Use:   "show ID",
		Short: "Show a record, and with --history every version before it",
		Long: `Show record ID as its file holds it, read from git (global and every agent
branch), after a line with its ID, path, kind, agent, time and whether it is
current, superseded by a newer version or retracted, and, when code files it
cites changed or went since it was written, every one of them (the listings,
prime, query and search, name only the first). With --history, every
version before it follows, newest first: the versions its supersedes names,
one after the other. With --as-of, the record as the memory held it then:
its versions up to that moment, and whether it was current then.

On a terminal, control characters in the file are shown escaped (\x1b); piped,
the file is printed byte for byte.

--json prints [{"record":{...},"superseded_by"?,"retracted"?,"stale"?:[...]}],
newest first.`,
		Example: "  planq show pq-3f9a1c2e4b\n  planq show pq-3f9a1c2e4b --history\n  planq show pq-3f9a1c2e4b --as-of 2026-11-02",
		Args:    exactArgs(1, "the record's ID"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.id = args[0]
			return runShow(cmd.Context(), env, opts)
		},
	}
	cmd.Flags().BoolVar(&opts.history, "history", false, "also every version before it")
	cmd.Flags().BoolVar(&opts.json, "json", false, "print as JSON")
	opts.asOf.register(cmd)
	return cmd
}

func runShow(ctx context.Context, env *Env, opts showOptions) error {
	if !changelog.ValidID(opts.id) {
		return planqerr.New(planqerr.Invalid, strconv.Quote(opts.id), "is not a record id").
			WithHint("an id reads pq- and hex digits, as search and log show it; 'planq search WORDS' finds one")
	}
	versions, at, err := env.service().Show(ctx, session.ShowInput{ID: opts.id, History: opts.history, AsOf: opts.asOf.spec, Files: !opts.json})
	opts.asOf.report(env, at)
	if err != nil {
		return err
	}
	if opts.json {
		return env.writeJSON(versions)
	}
	// The file as it is, when a program reads it; on a terminal, with
	// its control characters escaped (see escaper).
	file := env.raw()
	if isTerminal(file) {
		file = env.Stdout
	}
	for i, v := range versions {
		if i > 0 {
			env.printf("\n")
		}
		env.printf("%s  %s  %s by %s, %s  %s\n", v.Record.ID, v.Record.Path, v.Record.Kind, v.Record.Agent,
			v.Record.Timestamp.Local().Format("2006-01-02 15:04"), versionState(v.Version))
		if mark := session.StaleList(v.Stale); mark != "" {
			env.printf("%s\n", mark)
		}
		if _, err := io.WriteString(file, withNewline(string(v.File))); err != nil {
			return err
		}
	}
	return nil
}

func versionState(v session.Version) string {
	switch {
	case v.SupersededBy == "":
		return "current"
	case v.Retracted:
		return "retracted by " + v.SupersededBy
	}
	return "superseded by " + v.SupersededBy
}

func withNewline(s string) string {
	if strings.HasSuffix(s, "\n") {
		return s
	}
	return s + "\n"
}
