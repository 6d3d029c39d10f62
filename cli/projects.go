package cli

import (
	"context"
	"fmt"

	"github.com/spf13/cobra"
)

type projectsOptions struct {
	json bool
}

func newProjectsCmd(env *Env) *cobra.Command {
	var opts projectsOptions
	cmd := &cobra.Command{
		Use:   "projects",
		Short: "List the state repositories on this machine",
		Long: `List every state repository under $PLANQ_HOME/state-repos: each project's, and
the user layer's (its own row, labelled "user layer"). Each row: its name (and
"(current)" for the project planq runs in), whether it opted out (private:
true in its .planq/config: never searched from another project), its count of
current records, its size on disk, its last activity (the newest commit a
branch of it points at) and its code repository, as the last planq command run
in it recorded ("unknown" when none did yet: run any planq command there once). A repository that does not open or whose
records do not read is listed with its problem, and the command exits 0.
Runs anywhere: it needs no project.

--json prints [{"name","user_layer","current","state_repo","size","last_activity",
"code_repo","private","records","problem"?}]: size in bytes, code_repo "" when
unknown (then whether it opted out is unknown too, and it is not searched from
elsewhere), records -1 when they did not read; a key marked ? is there only
when set.`,
		Example: "  planq projects\n  planq projects --json",
		Args:    exactArgs(0, "no arguments"),
		RunE:    func(cmd *cobra.Command, _ []string) error { return runProjects(cmd.Context(), env, opts) },
	}
	cmd.Flags().BoolVar(&opts.json, "json", false, "print as JSON")
	return cmd
}

func runProjects(ctx context.Context, env *Env, opts projectsOptions) error {
	list, err := env.service().Projects(ctx)
	if err != nil {
		return err
	}
	if opts.json {
		return env.writeJSON(list)
	}
	if len(list) == 0 {
		home, _ := env.service().Home() // it listed there
		env.Log.Info("no state repository yet", "dir", home+"/state-repos")
		env.printf("next: planq init   (in a code repository)\n")
		return nil
	}
	tw := newTable(env.Stdout)
	fmt.Fprintln(tw, "PROJECT\tPRIVATE\tRECORDS\tSIZE\tLAST ACTIVITY\tCODE REPOSITORY\tPROBLEM")
	for _, p := range list {
		name := p.Label()
		if p.Current {
			name += " (current)"
		}
		private := "no"
		switch {
		case p.Private:
			private = "yes"
		case p.CodeRepo == "" && !p.UserLayer:
			private = "unknown" // never recorded: not searched from elsewhere
		}
		records := "?"
		if p.Records >= 0 {
			records = fmt.Sprint(p.Records)
		}
		last := "-"
		if !p.LastActivity.IsZero() {
			last = p.LastActivity.Local().Format("2006-01-02 15:04")
		}
		code := p.CodeRepo
		switch {
		case p.UserLayer:
			code = "-"
		case code == "":
			code = "unknown"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\t%s\t%s\n", name, private, records, humanSize(p.Size), last, code, orDashStr(p.Problem))
	}
	return tw.Flush()
}

// humanSize is a size in bytes as a person reads it.
func humanSize(n int64) string {
	const unit = 1024
	if n < unit {
		return fmt.Sprintf("%d B", n)
	}
	v, suffix := float64(n)/unit, "KiB"
	for _, s := range []string{"MiB", "GiB", "TiB"} {
		if v < unit {
			break
		}
		v, suffix = v/unit, s
	}
	return fmt.Sprintf("%.1f %s", v, suffix)
}
