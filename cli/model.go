package cli

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/spf13/cobra"

	"github.com/planq-dev/planq/embed"
	"github.com/planq-dev/planq/planqerr"
	"github.com/planq-dev/planq/project"
	"github.com/planq-dev/planq/readmodel"
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
Prints the model's directory; search uses it once .planq/config says
search: {model: NAME}.

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
	return cmd
}

func runModelFetch(ctx context.Context, env *Env, opts modelFetchOptions) error {
	if err := embed.CheckHubName(opts.name); err != nil {
		return err // before anything is made or asked
	}
	home, err := project.Home()
	if err != nil {
		return err
	}
	env.Log.Info("fetching model "+opts.name, "from", hubShown())
	got, err := embed.Fetch(ctx, opts.name, modelsDir(home), embed.FetchOptions{Force: opts.force})
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

// hubShown is the hub a fetch downloads from, for its message.
func hubShown() string {
	if h := os.Getenv("HF_ENDPOINT"); h != "" {
		return h
	}
	return embed.DefaultHub
}

// modelsDir is where fetched models live under PLANQ_HOME.
func modelsDir(home string) string { return filepath.Join(home, "models") }

// embedSettings are the settings of the model the project's search uses.
func embedSettings(p *project.Project) embed.Settings { return readmodel.EmbedSettings(p) }

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

// modelRow is one model of 'planq model list'.
type modelRow struct {
	Name  string `json:"name"`
	Kind  string `json:"kind"`
	Dir   string `json:"dir,omitempty"`
	Bytes int64  `json:"bytes,omitempty"`
	InUse bool   `json:"in_use"`
}

func runModelList(env *Env, opts modelListOptions) error {
	settings := embed.Settings{}
	p, err := env.project()
	switch {
	case err == nil:
		settings = embedSettings(p)
	case planqerr.Is(err, planqerr.NotInitialized):
		home, err := project.Home()
		if err != nil {
			return err
		}
		settings.ModelsDir = modelsDir(home)
	default:
		return err
	}
	rows := []modelRow{{Name: embed.KindDefault, Kind: embed.KindDefault}}
	fetched, err := fetchedModels(settings.ModelsDir)
	if err != nil {
		return err
	}
	rows = append(rows, fetched...)
	inUse, err := embed.Choose(settings)
	if err != nil {
		env.Log.Warn("search: in .planq/config names a model planq cannot use; search goes by words alone", "err", err, "hint", hintOf(err))
	} else {
		marked := false
		for i := range rows {
			if rows[i].Kind == inUse.Kind && rows[i].Name == inUse.Name {
				rows[i].InUse, marked = true, true
			}
		}
		if !marked { // a directory, an endpoint, or none
			row := modelRow{Name: inUse.Name, Kind: inUse.Kind, Dir: inUse.Dir, InUse: true}
			row.Bytes, _ = dirBytes(inUse.Dir)
			rows = append(rows, row)
		}
	}
	if opts.json {
		return env.writeJSON(rows)
	}
	tw := newTable(env.Stdout)
	fmt.Fprintln(tw, "IN USE\tNAME\tKIND\tSIZE\tDIR")
	for _, r := range rows {
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
		if r.Kind == embed.KindDefault {
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

// fetchedModels are the models under dir/<owner>/<name> that hold a
// model.safetensors, by name; a download under way (a dot directory) is not one.
func fetchedModels(dir string) ([]modelRow, error) {
	owners, err := os.ReadDir(dir)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("failed to read %s: %w", dir, err)
	}
	var rows []modelRow
	for _, o := range owners {
		if !o.IsDir() {
			continue
		}
		names, err := os.ReadDir(filepath.Join(dir, o.Name()))
		if err != nil {
			return nil, fmt.Errorf("failed to read %s: %w", filepath.Join(dir, o.Name()), err)
		}
		for _, n := range names {
			name := o.Name() + "/" + n.Name()
			path := filepath.Join(dir, o.Name(), n.Name())
			if !n.IsDir() || embed.CheckHubName(name) != nil {
				continue
			}
			if _, err := os.Stat(filepath.Join(path, "model.safetensors")); err != nil {
				continue
			}
			size, _ := dirBytes(path)
			rows = append(rows, modelRow{Name: name, Kind: embed.KindHub, Dir: path, Bytes: size})
		}
	}
	sort.Slice(rows, func(i, j int) bool { return rows[i].Name < rows[j].Name })
	return rows, nil
}

// dirBytes is the size of the files directly in dir.
func dirBytes(dir string) (int64, error) {
	if dir == "" {
		return 0, nil
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return 0, err
	}
	var n int64
	for _, e := range entries {
		if info, err := e.Info(); err == nil && info.Mode().IsRegular() {
			n += info.Size()
		}
	}
	return n, nil
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
