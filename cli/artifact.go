package cli

import (
	"context"
	"fmt"
	"io"
	"os"
	"path/filepath"

	"github.com/spf13/cobra"

	"github.com/planq-dev/planq/planqerr"
	"github.com/planq-dev/planq/session"
)

func newArtifactCmd(env *Env) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "artifact",
		Short: "Keep generated outputs beside the agent's records (artifacts/)",
		Long: `An agent's artifacts/ folder keeps generated outputs worth keeping: a report, a
diagram, a benchmark's output. They are files, not records: prime and search
leave them out, and promote does not carry them. One holds at most 1 MiB.`,
		Args: exactArgs(0, "a subcommand: add or list"),
		RunE: func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
	}
	cmd.AddCommand(newArtifactAddCmd(env), newArtifactListCmd(env))
	return cmd
}

type artifactAddOptions struct {
	writeFlags
	file string
	name string
}

func newArtifactAddCmd(env *Env) *cobra.Command {
	var opts artifactAddOptions
	cmd := &cobra.Command{
		Use:     "add FILE",
		Short:   "Store FILE in the agent's artifacts/ and commit it (FILE '-' reads stdin, with --name)",
		Example: "  planq artifact add bench.txt\n  go test -bench . | planq artifact add - --name bench.txt",
		Args:    exactArgs(1, "the FILE"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.file = args[0]
			return runArtifactAdd(cmd.Context(), env, opts)
		},
	}
	opts.register(cmd)
	cmd.Flags().StringVar(&opts.name, "name", "", "store it as `NAME` (default: FILE's base name)")
	return cmd
}

func runArtifactAdd(ctx context.Context, env *Env, opts artifactAddOptions) error {
	name := opts.name
	var in io.Reader
	if opts.file == "-" {
		if name == "" {
			return usagef("artifact add: --name is needed when FILE is - (stdin)")
		}
		in = env.Stdin
	} else {
		f, err := os.Open(opts.file)
		if err != nil {
			return planqerr.New(planqerr.NotFound, opts.file, "cannot be read: %w", err)
		}
		defer f.Close()
		in = f
		if name == "" {
			name = filepath.Base(opts.file)
		}
	}
	data, err := io.ReadAll(io.LimitReader(in, session.MaxArtifactSize+1))
	if err != nil {
		return fmt.Errorf("failed to read %s: %w", opts.file, err)
	}
	return reported(env, opts.writeFlags)(env.service().AddArtifact(ctx, session.ArtifactInput{Author: opts.author(), Name: name, Data: data}))
}

type artifactListOptions struct {
	agent string
	json  bool
}

func newArtifactListCmd(env *Env) *cobra.Command {
	var opts artifactListOptions
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List the agent's artifacts",
		Long:  `List the artifacts on the agent's branch. --json prints [{"name","path","size"}].`,
		Args:  exactArgs(0, "no arguments"),
		RunE:  func(cmd *cobra.Command, _ []string) error { return runArtifactList(cmd.Context(), env, opts) },
	}
	cmd.Flags().StringVar(&opts.agent, "agent", "", "list agent `NAME`'s artifacts")
	cmd.Flags().BoolVar(&opts.json, "json", false, "print as JSON")
	return cmd
}

func runArtifactList(ctx context.Context, env *Env, opts artifactListOptions) error {
	list, err := env.service().Artifacts(ctx, opts.agent)
	if err != nil {
		return err
	}
	if opts.json {
		return env.writeJSON(list)
	}
	tw := newTable(env.Stdout)
	fmt.Fprintln(tw, "NAME\tSIZE\tPATH")
	for _, x := range list {
		fmt.Fprintf(tw, "%s\t%d\t%s\n", x.Name, x.Size, x.Path)
	}
	return tw.Flush()
}
