package session

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"sort"

	"github.com/planq-dev/planq/internal/embed"
	"github.com/planq-dev/planq/planqerr"
	"github.com/planq-dev/planq/project"
	"github.com/planq-dev/planq/readmodel"
)

// FetchedModel is a model FetchModel downloaded: its name, directory, hub
// and files.
type FetchedModel = embed.Fetched

// ModelChoice is the model a project's search embeds with, found but not
// loaded: its kind (ModelDefault, ModelNone, "dir", "hub", ModelEndpoint),
// its name and its directory.
type ModelChoice = embed.Choice

// The kinds of model a front end tells apart.
const (
	ModelDefault  = embed.KindDefault
	ModelNone     = embed.KindNone
	ModelEndpoint = embed.KindEndpoint
)

// Model is one model search can use, as 'planq model list' shows it.
type Model struct {
	Name  string `json:"name"`
	Kind  string `json:"kind"`
	Dir   string `json:"dir,omitempty"`
	Bytes int64  `json:"bytes,omitempty"`
	InUse bool   `json:"in_use"`
}

// Models are the models search can use, and what .planq/config's search:
// names when planq cannot use it (search then goes by words alone).
type Models struct {
	Models   []Model
	Unusable error
}

// CheckModelName says why name is not a model's name on the hub,
// owner/name, or nil.
func CheckModelName(name string) error { return embed.CheckHubName(name) }

// ModelHub is the hub FetchModel downloads from: $HF_ENDPOINT, else the
// Hugging Face hub.
func ModelHub() string {
	if h := os.Getenv("HF_ENDPOINT"); h != "" {
		return h
	}
	return embed.DefaultHub
}

// FetchModel downloads the model2vec model name (owner/name) from the hub
// into $PLANQ_HOME/models, whole or not at all, and converts it once to
// planq's table format, which every search then reads. A model fetched
// before is kept, unless force.
func (s *Project) FetchModel(ctx context.Context, name string, force bool) (FetchedModel, error) {
	if err := CheckModelName(name); err != nil {
		return FetchedModel{}, err // before anything is made or asked
	}
	home, err := s.Home()
	if err != nil {
		return FetchedModel{}, err
	}
	return embed.Fetch(ctx, name, project.ModelsDir(home), embed.FetchOptions{Force: force})
}

// SearchModel is the model this project's search embeds with, from the
// settings alone: nothing is loaded, no endpoint called. Outside a
// project, the default.
func (s *Project) SearchModel() (ModelChoice, error) {
	settings, err := s.modelSettings()
	if err != nil {
		return ModelChoice{}, err
	}
	return embed.Choose(settings)
}

// modelSettings are the settings of the model this project's search uses;
// outside a project, the default's, with the models fetched under
// $PLANQ_HOME.
func (s *Project) modelSettings() (embed.Settings, error) {
	p, err := s.project()
	switch {
	case err == nil:
		return readmodel.EmbedSettings(p), nil
	case planqerr.Is(err, planqerr.NotInitialized):
		home, err := project.Home()
		if err != nil {
			return embed.Settings{}, err
		}
		return embed.Settings{ModelsDir: project.ModelsDir(home)}, nil
	}
	return embed.Settings{}, err
}

// Models lists the model inside planq, the models fetched, and the model
// or endpoint search: names when it is none of those, marking the one the
// project's search uses (outside a project, the default). No model is
// loaded, no endpoint called.
func (s *Project) Models() (Models, error) {
	settings, err := s.modelSettings()
	if err != nil {
		return Models{}, err
	}
	fetched, err := fetchedModels(settings.ModelsDir)
	if err != nil {
		return Models{}, err
	}
	out := Models{Models: append([]Model{{Name: ModelDefault, Kind: ModelDefault}}, fetched...)}
	inUse, err := embed.Choose(settings)
	if err != nil {
		out.Unusable = err
		return out, nil
	}
	for i, m := range out.Models {
		if m.Kind == inUse.Kind && m.Name == inUse.Name {
			out.Models[i].InUse = true
			return out, nil
		}
	}
	// A directory, an endpoint, or none.
	m := Model{Name: inUse.Name, Kind: inUse.Kind, Dir: inUse.Dir, InUse: true}
	m.Bytes, _ = dirBytes(inUse.Dir)
	out.Models = append(out.Models, m)
	return out, nil
}

// fetchedModels are the models under dir/<owner>/<name> that hold a
// model.safetensors, by name; a download under way (a dot directory) is
// not one.
func fetchedModels(dir string) ([]Model, error) {
	owners, err := os.ReadDir(dir)
	if os.IsNotExist(err) {
		return nil, nil
	}
	if err != nil {
		return nil, fmt.Errorf("failed to read %s: %w", dir, err)
	}
	var out []Model
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
			if _, err := os.Stat(filepath.Join(path, embed.Model2VecWeights)); err != nil {
				continue
			}
			size, _ := dirBytes(path)
			out = append(out, Model{Name: name, Kind: embed.KindHub, Dir: path, Bytes: size})
		}
	}
	sort.Slice(out, func(i, j int) bool { return out[i].Name < out[j].Name })
	return out, nil
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

// PostRequest is a post planq asks planq-server to make for it (see
// embed.PostViaServer).
type PostRequest = embed.PostRequest

// PostAnswer is what came of a PostRequest.
type PostAnswer = embed.PostAnswer

// ServePost makes req with this program's network, planq-server's, and
// says what came: 'planq-server post', by which planq, which links no HTTP
// client, reaches an embeddings endpoint.
func ServePost(ctx context.Context, req PostRequest) PostAnswer {
	if embed.Network.Post == nil {
		return PostAnswer{Failed: "this program reaches no network: planq-server posts for planq"}
	}
	return embed.ServePost(ctx, req, embed.Network.Post)
}
