package embed

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/planq-dev/planq/planqerr"
)

// fakeModel is a loaded model that names where it came from.
type fakeModel struct{ id string }

func (m fakeModel) ID() string { return m.id }
func (m fakeModel) Dim() int   { return 2 }
func (m fakeModel) Embed(_ context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	for i := range out {
		out[i] = []float32{1, 0}
	}
	return out, nil
}

// fakeLoaders stands in for the loaders of planq's model and of a
// model2vec directory until the test ends; defaultErr fails the first.
func fakeLoaders(t *testing.T, defaultErr error) {
	t.Helper()
	oldDefault, oldDir := openDefault, openModel2Vec
	t.Cleanup(func() { openDefault, openModel2Vec = oldDefault, oldDir })
	openDefault = func() (Model, error) {
		if defaultErr != nil {
			return nil, defaultErr
		}
		return fakeModel{"planq-default@test"}, nil
	}
	openModel2Vec = func(dir, _ string) (Model, error) {
		if _, err := os.Stat(filepath.Join(dir, "model.safetensors")); err != nil {
			return nil, errors.New("no model.safetensors")
		}
		return fakeModel{"model2vec:" + dir}, nil
	}
}

func TestOpenPicksTheModel(t *testing.T) {
	fakeLoaders(t, nil)
	root, models, home := t.TempDir(), t.TempDir(), t.TempDir()
	t.Setenv("HOME", home)
	writeTinyModel(t, filepath.Join(models, "minishlab", "potion"), 3, 2)
	writeTinyModel(t, filepath.Join(root, "vendor", "mine"), 3, 2)
	writeTinyModel(t, filepath.Join(home, "m2v"), 3, 2)
	abs := filepath.Join(t.TempDir(), "abs")
	writeTinyModel(t, abs, 3, 2)
	cases := []struct {
		model, kind, id string
	}{
		{"", KindDefault, "planq-default@test"},
		{"default", KindDefault, "planq-default@test"},
		{"minishlab/potion", KindHub, "model2vec:" + filepath.Join(models, "minishlab", "potion")},
		// Shaped like a hub name, not fetched, but a directory of the checkout.
		{"vendor/mine", KindDir, "model2vec:" + filepath.Join(root, "vendor", "mine")},
		{"./vendor/mine", KindDir, "model2vec:" + filepath.Join(root, "vendor", "mine")},
		{abs, KindDir, "model2vec:" + abs},
		{"~/m2v", KindDir, "model2vec:" + filepath.Join(home, "m2v")},
	}
	for _, c := range cases {
		s := Settings{Model: c.model, Root: root, ModelsDir: models}
		choice, err := Choose(s)
		if err != nil || choice.Kind != c.kind {
			t.Errorf("Choose(%q) = %+v, %v; want kind %s", c.model, choice, err, c.kind)
		}
		m, err := Open(context.Background(), s)
		if err != nil || m.ID() != c.id {
			t.Errorf("Open(%q) = %v, %v; want %s", c.model, m, err, c.id)
		}
	}
}

func TestOpenRefuses(t *testing.T) {
	fakeLoaders(t, nil)
	root, models := t.TempDir(), t.TempDir()
	write(t, filepath.Join(root, "file"), "not a directory")
	if err := os.MkdirAll(filepath.Join(root, "empty"), 0o755); err != nil {
		t.Fatal(err)
	}
	cases := []struct {
		s    Settings
		kind planqerr.Kind
		want string
	}{
		{Settings{Model: "owner/absent"}, planqerr.NotFound, "is not in"},
		{Settings{Model: "./absent"}, planqerr.NotFound, "has no directory " + filepath.Join(root, "absent")},
		{Settings{Model: "file"}, planqerr.Invalid, "is not a directory"},
		{Settings{Model: "~alice/m2v"}, planqerr.Invalid, "another user's home"},
		{Settings{Model: "owner/m", Endpoint: &EndpointSettings{URL: "http://localhost:11434/v1", Model: "m"}}, planqerr.Invalid, "names both"},
	}
	for _, c := range cases {
		c.s.Root, c.s.ModelsDir = root, models
		m, err := Open(context.Background(), c.s)
		if err == nil || !strings.Contains(err.Error(), c.want) || planqerr.KindOf(err) != c.kind || m != nil {
			t.Errorf("Open(%+v) = %v, %v (kind %v); want %q (kind %v)", c.s, m, err, planqerr.KindOf(err), c.want, c.kind)
		}
	}
	var pe *planqerr.Error
	if _, err := Open(context.Background(), Settings{Model: "owner/absent", Root: root, ModelsDir: models}); !errors.As(err, &pe) || !strings.Contains(pe.Hint, "planq model fetch owner/absent") {
		t.Errorf("a hub name not fetched: %v, hint %q", err, pe.Hint)
	}
	// What the loader refuses is an error naming the directory.
	if _, err := Open(context.Background(), Settings{Model: "empty", Root: root}); err == nil || !strings.Contains(err.Error(), "no model.safetensors") ||
		!strings.Contains(err.Error(), filepath.Join(root, "empty")) {
		t.Errorf("a directory the loader refuses: %v", err)
	}
}

func TestOpenNoneIsOff(t *testing.T) {
	fakeLoaders(t, nil)
	for _, s := range []Settings{{Model: "none"}, {Model: " none ", Endpoint: &EndpointSettings{URL: "http://localhost:1/v1", Model: "m"}}} {
		m, err := Open(context.Background(), s)
		if !errors.Is(err, ErrOff) || m != nil {
			t.Errorf("Open(%+v) = %v, %v; want ErrOff", s, m, err)
		}
	}
}

func TestOpenDefaultFailing(t *testing.T) {
	fakeLoaders(t, errors.New("no default model"))
	if _, err := Open(context.Background(), Settings{}); err == nil || !strings.Contains(err.Error(), "no default model") {
		t.Errorf("Open with the default failing: %v", err)
	}
	openDefault = func() (Model, error) { return nil, ErrNoDefaultModel } // a build without the table
	if _, err := Open(context.Background(), Settings{}); !planqerr.Is(err, planqerr.NotFound) || !errors.Is(err, ErrNoDefaultModel) {
		t.Errorf("Open of a default that is not there: %v", err)
	}
}

// TestOpenEndpoint: an endpoint is asked once at Open, so the model it
// returns knows its dimension; one that does not answer fails Open within
// the time bound.
func TestOpenEndpoint(t *testing.T) {
	fakeLoaders(t, nil)
	f, base := startEndpoint(t, nil)
	m, err := Open(context.Background(), Settings{Model: "default", Endpoint: &EndpointSettings{URL: base, Model: "tiny-embed"}})
	if err != nil {
		t.Fatal(err)
	}
	if m.Dim() != 3 || m.ID() != "openai:"+base+"#tiny-embed@3d" || len(f.calls) != 1 {
		t.Fatalf("Open: Dim %d, ID %q after %d calls", m.Dim(), m.ID(), len(f.calls))
	}
	got, err := m.Embed(context.Background(), []string{"banana"})
	if err != nil {
		t.Fatal(err)
	}
	wantUnit(t, "banana", got[0])

	release := make(chan struct{})
	slow := httptest.NewServer(http.HandlerFunc(func(_ http.ResponseWriter, r *http.Request) {
		select {
		case <-r.Context().Done():
		case <-release:
		}
	}))
	t.Cleanup(slow.Close)
	t.Cleanup(func() { close(release) })
	start := time.Now()
	_, err = Open(context.Background(), Settings{Endpoint: &EndpointSettings{URL: slow.URL + "/v1", Model: "m", Timeout: 100 * time.Millisecond}})
	if err == nil || !strings.Contains(err.Error(), "gave no answer within 100ms") || time.Since(start) > 2*time.Second {
		t.Fatalf("Open of a slow endpoint: %v after %s", err, time.Since(start))
	}
	if _, err := Open(context.Background(), Settings{Endpoint: &EndpointSettings{URL: "ftp://x", Model: "m"}}); !planqerr.Is(err, planqerr.Invalid) {
		t.Errorf("Open of an ftp endpoint: %v", err)
	}
}
