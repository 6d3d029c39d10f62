package cli

import (
	"context"
	"errors"
	"fmt"

	"github.com/spf13/cobra"

	"github.com/planq-dev/planq/planqerr"
	"github.com/planq-dev/planq/session"
)

func newModelCmd(env *Env) *cobra.Command {
	cmd := &cobra.Command{
		Use:   "model",
		Short: "The models search embeds text with: fetch one, list them",
		Long: `Search finds records by meaning as well as by their words, with a model that
turns text into vectors: the model inside planq by default, or the one search:
in .planq/config names: a model2vec model's directory, a model fetched from the
Hugging Face hub into $PLANQ_HOME/models, an OpenAI-compatible embeddings
endpoint, or none (words alone).`,
		Args: exactArgs(0, "a subcommand: fetch or list"),
		RunE: func(cmd *cobra.Command, _ []string) error { return cmd.Help() },
	}
	cmd.AddCommand(newModelFetchCmd(env), newModelListCmd(env))
	return cmd
}

type modelFetchOptions struct {
	name  string
	force bool
	json  bool
}

func newModelFetchCmd(env *Env) *cobra.Command {
	var opts modelFetchOptions
	cmd := &cobra.Command{
		Use:   "fetch NAME",
		Short: "Download a model2vec model from the Hugging Face hub into $PLANQ_HOME/models",
		Long: `Download the model2vec model NAME (owner/name, as the hub names it) from the
Hugging Face hub ($HF_ENDPOINT, default https://huggingface.co; $HF_TOKEN for a
private or gated model): its model.safetensors, tokenizer.json and config.json,
into $PLANQ_HOME/models/<owner>/<name>. The model is there whole or not at all:
the files go into a directory beside it that takes its name once every one is
there and reads as it should. A model already fetched is kept, unless --force.
It is converted once to planq's own table format (in $PLANQ_HOME/models/.tables),
which every search reads in milliseconds; so is a model directory search: names,
at its first search and whenever its files change. Prints the model's directory;
search uses it once .planq/config says search: {model: NAME}.

--json prints {"name","dir","hub","files":[{"name","bytes","sha256"}]}.`,
		Example: "  planq model fetch minishlab/potion-base-8M",
		Args:    exactArgs(1, "the NAME (owner/name)"),
		RunE: func(cmd *cobra.Command, args []string) error {
			opts.name = args[0]
			return runModelFetch(cmd.Context(), env, opts)
		},
	}
	cmd.Flags().BoolVar(&opts.force, "force", false, "replace the model if it was fetched before")
	cmd.Flags().BoolVar(&opts.json, "json", false, "print as JSON")
	// A download is planq-server's: planq links no HTTP client.
	handedOff(env, cmd)
	return cmd
}

func runModelFetch(ctx context.Context, env *Env, opts modelFetchOptions) error {
	if err := session.CheckModelName(opts.name); err != nil {
		return err // before anything is said
	}
	env.Log.Info("fetching model "+opts.name, "from", session.ModelHub())
	got, err := env.service().FetchModel(ctx, opts.name, opts.force)
	if err != nil {
		return err
	}
	var size int64
	for _, f := range got.Files {
		size += f.Bytes
	}
	env.Log.Info("fetched model "+got.Name, "dir", got.Dir, "size", byteSize(size))
	env.Log.Info("to search with it, write in .planq/config:  search: {model: " + got.Name + "}")
	if opts.json {
		return env.writeJSON(got)
	}
	env.printf("%s\n", got.Dir)
	return nil
}

type modelListOptions struct {
	json bool
}

func newModelListCmd(env *Env) *cobra.Command {
	var opts modelListOptions
	cmd := &cobra.Command{
		Use:   "list",
		Short: "List the models search can use, marking the one it uses",
		Long: `List the model inside planq (default), the models fetched into
$PLANQ_HOME/models, and the model or endpoint search: in .planq/config names
when it is none of those; the one this project's search uses is marked (outside
a project, the default). A model search: names that cannot be found is named on
stderr: search then goes by words alone. No model is loaded, no endpoint called.

--json prints [{"name","kind","dir"?,"bytes"?,"in_use"}], kind default, hub,
dir, endpoint or none.`,
		Args: exactArgs(0, "no arguments"),
		RunE: func(*cobra.Command, []string) error { return runModelList(env, opts) },
	}
	cmd.Flags().BoolVar(&opts.json, "json", false, "print as JSON")
	return cmd
}

func runModelList(env *Env, opts modelListOptions) error {
	list, err := env.service().Models()
	if err != nil {
		return err
	}
	if list.Unusable != nil {
		env.Log.Warn("search: in .planq/config names a model planq cannot use; search goes by words alone", "err", list.Unusable, "hint", hintOf(list.Unusable))
	}
	if opts.json {
		return env.writeJSON(list.Models)
	}
	tw := newTable(env.Stdout)
	fmt.Fprintln(tw, "IN USE\tNAME\tKIND\tSIZE\tDIR")
	for _, r := range list.Models {
		mark, size, dir := "", "-", r.Dir
		if dir == "" {
			dir = "-"
		}
		if r.InUse {
			mark = "*"
		}
		if r.Bytes > 0 {
			size = byteSize(r.Bytes)
		}
		if r.Kind == session.ModelDefault {
			dir = "(inside planq)"
		}
		fmt.Fprintf(tw, "%s\t%s\t%s\t%s\t%s\n", mark, r.Name, r.Kind, size, dir)
	}
	return tw.Flush()
}

// hintOf is the hint an error carries, if any.
func hintOf(err error) string {
	var pe *planqerr.Error
	if errors.As(err, &pe) {
		return pe.Hint
	}
	return ""
}

// byteSize writes a size the way people read it.
func byteSize(n int64) string {
	switch {
	case n >= 1<<30:
		return fmt.Sprintf("%.1f GiB", float64(n)/(1<<30))
	case n >= 1<<20:
		return fmt.Sprintf("%.1f MiB", float64(n)/(1<<20))
	case n >= 1<<10:
		return fmt.Sprintf("%.1f KiB", float64(n)/(1<<10))
	}
	return fmt.Sprintf("%d B", n)
}
