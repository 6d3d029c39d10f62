package embed

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"strings"

	"github.com/planq-dev/planq/planqerr"
)

// Settings choose the model search embeds with (search: in .planq/config).
type Settings struct {
	// Model is "" or "default" (the model inside planq), "none" (search by
	// words alone), a model2vec model's directory (absolute, or relative to
	// Root), or a hub name (owner/name) fetched under ModelsDir.
	Model string
	// Endpoint, when it has a URL, is an OpenAI-compatible embeddings
	// endpoint to embed with instead of a model of planq's.
	Endpoint *EndpointSettings
	// Root is what a relative directory is relative to: the code checkout.
	Root string
	// ModelsDir is $PLANQ_HOME/models, where fetched models are.
	ModelsDir string
}

// The kinds of model a Choice names.
const (
	KindDefault  = "default"
	KindNone     = "none"
	KindDir      = "dir"
	KindHub      = "hub"
	KindEndpoint = "endpoint"
)

// Choice is the model Settings name, found but not loaded.
type Choice struct {
	// Kind is KindDefault, KindNone, KindDir, KindHub or KindEndpoint.
	Kind string
	// Name is the model as the settings name it: "default", "none", the
	// directory as written, the hub name, or the endpoint's URL#model.
	Name string
	// Dir is the model's directory, for KindDir and KindHub.
	Dir string
}

// ErrOff is Open's error when the settings say "none": search by words
// alone, which is no failure to report.
var ErrOff = errors.New("semantic search is off (search: model: none)")

// The loaders of the model inside planq and of a model2vec directory, as
// the table converted from it (tests put others in their place).
var (
	openDefault = func() (Model, error) {
		t, err := Default()
		if err != nil {
			return nil, err
		}
		return t, nil
	}
	openModel2Vec = func(dir, models string) (Model, error) {
		t, err := LoadConverted(dir, models)
		if err != nil {
			return nil, err
		}
		return t, nil
	}
)

// Choose says which model s names, and where it is, without loading it.
func Choose(s Settings) (Choice, error) {
	name := strings.TrimSpace(s.Model)
	endpoint := s.Endpoint != nil && s.Endpoint.URL != ""
	switch {
	case name == KindNone:
		return Choice{Kind: KindNone, Name: KindNone}, nil
	case endpoint && name != "" && name != KindDefault:
		return Choice{}, planqerr.New(planqerr.Invalid, "search", "names both the model %q and an endpoint", name).
			WithHint("keep one of search: model: and search: endpoint: in .planq/config")
	case endpoint:
		return Choice{Kind: KindEndpoint, Name: s.Endpoint.URL + "#" + s.Endpoint.Model}, nil
	case name == "" || name == KindDefault:
		return Choice{Kind: KindDefault, Name: KindDefault}, nil
	}
	if !isPathLike(name) && CheckHubName(name) == nil {
		return chooseHub(s, name)
	}
	return chooseDir(s, name)
}

// chooseHub finds the hub's model name fetched, or a checkout's directory.
func chooseHub(s Settings, name string) (Choice, error) {
	if dir := HubModelDir(s.ModelsDir, name); s.ModelsDir != "" && isDir(dir) {
		return Choice{Kind: KindHub, Name: name, Dir: dir}, nil
	}
	if local := filepath.Join(s.Root, filepath.FromSlash(name)); s.Root != "" && isDir(local) {
		return Choice{Kind: KindDir, Name: name, Dir: local}, nil
	}
	return Choice{}, planqerr.New(planqerr.NotFound, fmt.Sprintf("model %q", name), "is not in %s", s.ModelsDir).
		WithHint("download it: planq model fetch %s (or name a model2vec directory in search: model: in .planq/config)", name)
}

func chooseDir(s Settings, name string) (Choice, error) {
	subject := fmt.Sprintf("model %q", name)
	dir, err := expandDir(name, s.Root)
	if err != nil {
		return Choice{}, planqerr.New(planqerr.Invalid, subject, "%w", err)
	}
	info, err := os.Stat(dir)
	switch {
	case err != nil:
		return Choice{}, planqerr.New(planqerr.NotFound, subject, "has no directory %s", dir).
			WithHint("name a model2vec model's directory (model.safetensors, tokenizer.json) in search: model: in .planq/config, or a model of the hub you fetched with planq model fetch")
	case !info.IsDir():
		return Choice{}, planqerr.New(planqerr.Invalid, subject, "%s is not a directory", dir).
			WithHint("name the directory that holds model.safetensors and tokenizer.json")
	}
	return Choice{Kind: KindDir, Name: name, Dir: dir}, nil
}

// isPathLike reports whether name is written as a path: absolute, or
// starting with . or ~.
func isPathLike(name string) bool {
	return filepath.IsAbs(name) || strings.HasPrefix(name, ".") || strings.HasPrefix(name, "~")
}

// expandDir is name as a directory: ~/ is the home directory, and a
// relative path is relative to root.
func expandDir(name, root string) (string, error) {
	if rest, ok := strings.CutPrefix(name, "~"); ok {
		if rest != "" && rest[0] != '/' && rest[0] != filepath.Separator {
			return "", errors.New("names another user's home; write the path in full")
		}
		home, err := os.UserHomeDir()
		if err != nil {
			return "", fmt.Errorf("failed to find the home directory: %w", err)
		}
		return filepath.Join(home, rest), nil
	}
	if filepath.IsAbs(name) {
		return filepath.Clean(name), nil
	}
	return filepath.Join(root, filepath.FromSlash(name)), nil
}

func isDir(path string) bool {
	info, err := os.Stat(path)
	return err == nil && info.IsDir()
}

// Open loads the model s names. An endpoint is called once, within its
// time bound, to learn its dimension and that it answers. "none" gives
// ErrOff; any other error means the model cannot be used, and search goes
// by words alone.
func Open(ctx context.Context, s Settings) (Model, error) {
	c, err := Choose(s)
	if err != nil {
		return nil, err
	}
	switch c.Kind {
	case KindNone:
		return nil, ErrOff
	case KindEndpoint:
		e, err := NewEndpoint(*s.Endpoint)
		if err != nil {
			return nil, err
		}
		if err := e.probe(ctx); err != nil {
			return nil, err
		}
		return e, nil
	case KindDefault:
		m, err := openDefault()
		if errors.Is(err, ErrNoDefaultModel) {
			return nil, planqerr.New(planqerr.NotFound, "model default", "%w", err).
				WithHint("name a model2vec model in search: model: in .planq/config, or fetch one: planq model fetch minishlab/potion-base-8M")
		}
		if err != nil {
			return nil, fmt.Errorf("failed to load planq's model: %w", err)
		}
		return m, nil
	}
	m, err := openModel2Vec(c.Dir, s.ModelsDir)
	if err != nil {
		return nil, fmt.Errorf("failed to load the model in %s: %w", c.Dir, err)
	}
	return m, nil
}
