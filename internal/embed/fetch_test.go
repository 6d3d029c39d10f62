package embed

import (
	"bytes"
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	"github.com/planq-dev/planq/planqerr"
)

// safetensorsBytes is a safetensors file holding one F32 tensor
// "embeddings" of vocab x dim, written by hand: an 8-byte little-endian
// header length, the JSON header, the raw data.
func handSafetensors(vocab, dim int) []byte {
	data := make([]byte, 4*vocab*dim)
	for i := range vocab * dim {
		binary.LittleEndian.PutUint32(data[4*i:], math.Float32bits(float32(i%7)-3))
	}
	header := fmt.Sprintf(`{"embeddings":{"dtype":"F32","shape":[%d,%d],"data_offsets":[0,%d]}}`, vocab, dim, len(data))
	var buf bytes.Buffer
	_ = binary.Write(&buf, binary.LittleEndian, uint64(len(header)))
	buf.WriteString(header)
	buf.Write(data)
	return buf.Bytes()
}

// writeTinyModel writes a model2vec model of vocab x dim into dir.
func writeTinyModel(t *testing.T, dir string, vocab, dim int) {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	vocabJSON := map[string]int{}
	for i := range vocab {
		vocabJSON[fmt.Sprintf("w%d", i)] = i
	}
	tok, _ := json.Marshal(map[string]any{"version": "1.0", "model": map[string]any{"type": "WordPiece", "unk_token": "w0", "vocab": vocabJSON}})
	files := map[string][]byte{
		"model.safetensors": handSafetensors(vocab, dim),
		"tokenizer.json":    tok,
		"config.json":       []byte(`{"model_type":"model2vec","normalize":true}`),
	}
	for name, data := range files {
		if err := os.WriteFile(filepath.Join(dir, name), data, 0o644); err != nil {
			t.Fatal(err)
		}
	}
}

// startHub serves root as a hub does: GET /<owner>/<name>/resolve/main/<file>
// is root/<owner>/<name>/<file>. It counts the requests.
func startHub(t *testing.T, root string) (string, *atomic.Int32) {
	t.Helper()
	var requests atomic.Int32
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		requests.Add(1)
		parts := strings.Split(strings.TrimPrefix(r.URL.Path, "/"), "/")
		if len(parts) != 5 || parts[2] != "resolve" || parts[3] != "main" {
			http.NotFound(w, r)
			return
		}
		http.ServeFile(w, r, filepath.Join(root, parts[0], parts[1], parts[4]))
	}))
	t.Cleanup(srv.Close)
	return srv.URL, &requests
}

// newHub serves a tiny model as owner/tiny and returns the hub's URL.
func newHub(t *testing.T) (hubRoot, url string) {
	t.Helper()
	hubRoot = t.TempDir()
	writeTinyModel(t, filepath.Join(hubRoot, "owner", "tiny"), 5, 4)
	url, _ = startHub(t, hubRoot)
	return hubRoot, url
}

// entries lists the names in dir.
func entries(t *testing.T, dir string) []string {
	t.Helper()
	list, err := os.ReadDir(dir)
	if err != nil && !os.IsNotExist(err) {
		t.Fatal(err)
	}
	var names []string
	for _, e := range list {
		names = append(names, e.Name())
	}
	return names
}

func TestFetchDownloadsAModel(t *testing.T) {
	hubRoot, hub := newHub(t)
	t.Setenv("HF_ENDPOINT", hub+"/")
	dest := filepath.Join(t.TempDir(), "models")
	got, err := Fetch(context.Background(), "owner/tiny", dest, FetchOptions{})
	if err != nil {
		t.Fatal(err)
	}
	want := filepath.Join(dest, "owner", "tiny")
	if got.Dir != want || got.Name != "owner/tiny" || got.Hub != hub || len(got.Files) != 3 {
		t.Fatalf("Fetch = %+v", got)
	}
	for _, f := range got.Files {
		served, err := os.ReadFile(filepath.Join(hubRoot, "owner", "tiny", f.Name))
		if err != nil {
			t.Fatal(err)
		}
		fetched, err := os.ReadFile(filepath.Join(want, f.Name))
		if err != nil {
			t.Fatal(err)
		}
		sum := sha256.Sum256(served)
		if !bytes.Equal(served, fetched) || f.Bytes != int64(len(served)) || f.SHA256 != hex.EncodeToString(sum[:]) {
			t.Errorf("%s: fetched %d bytes, %+v; served %d", f.Name, len(fetched), f, len(served))
		}
	}
	if names := entries(t, want); strings.Join(names, " ") != "config.json model.safetensors tokenizer.json" {
		t.Errorf("the model's directory holds %q", names)
	}
	if names := entries(t, filepath.Join(dest, "owner")); strings.Join(names, " ") != "tiny" {
		t.Errorf("beside the model: %q, want nothing left of the download", names)
	}
	// Search opens it by its name.
	m, err := Open(context.Background(), Settings{Model: "owner/tiny", ModelsDir: dest, Root: t.TempDir()})
	if err != nil {
		t.Fatal(err)
	}
	if m.Dim() != 4 || !strings.HasPrefix(m.ID(), "model2vec:tiny@") {
		t.Errorf("opened as %s of %d dimensions", m.ID(), m.Dim())
	}
	vecs, err := m.Embed(context.Background(), []string{"w3 w4", "nothing known"})
	if err != nil || len(vecs) != 2 || len(vecs[0]) != 4 {
		t.Fatalf("Embed: %v, %v", vecs, err)
	}
}

func TestFetchRefusesWhatIsThereUnlessForced(t *testing.T) {
	hubRoot, hub := newHub(t)
	dest := t.TempDir()
	opts := FetchOptions{Hub: hub}
	if _, err := Fetch(context.Background(), "owner/tiny", dest, opts); err != nil {
		t.Fatal(err)
	}
	_, err := Fetch(context.Background(), "owner/tiny", dest, opts)
	if !planqerr.Is(err, planqerr.Exists) || !strings.Contains(err.Error(), "is already in") {
		t.Fatalf("second fetch: %v", err)
	}
	// The hub's model changes; --force takes the new one.
	writeTinyModel(t, filepath.Join(hubRoot, "owner", "tiny"), 6, 4)
	opts.Force = true
	if _, err := Fetch(context.Background(), "owner/tiny", dest, opts); err != nil {
		t.Fatal(err)
	}
	data, err := os.ReadFile(filepath.Join(dest, "owner", "tiny", "model.safetensors"))
	if err != nil || !bytes.Equal(data, handSafetensors(6, 4)) {
		t.Fatalf("after --force: %d bytes, %v", len(data), err)
	}
	if names := entries(t, filepath.Join(dest, "owner")); strings.Join(names, " ") != "tiny" {
		t.Errorf("beside the model: %q", names)
	}
}

// TestFetchFailuresLeaveNothing: a model that cannot be fetched whole is
// not there at all, and the error says which file and why.
func TestFetchFailuresLeaveNothing(t *testing.T) {
	cases := []struct {
		name string
		// hub changes the served model before the fetch.
		hub  func(t *testing.T, dir string)
		opts FetchOptions
		kind planqerr.Kind
		want string
	}{
		{"no config", func(_ *testing.T, dir string) { _ = os.Remove(filepath.Join(dir, "config.json")) }, FetchOptions{}, planqerr.NotFound, "has no config.json on"},
		{"no model", func(_ *testing.T, dir string) { _ = os.Remove(filepath.Join(dir, "model.safetensors")) }, FetchOptions{}, planqerr.NotFound, "has no model.safetensors on"},
		{"too large", nil, FetchOptions{MaxModelBytes: 16}, planqerr.Refused, "model.safetensors is larger than"},
		{"an error page", func(t *testing.T, dir string) {
			write(t, filepath.Join(dir, "model.safetensors"), "<html>rate limited</html>")
		}, FetchOptions{}, planqerr.Corrupt, "as fetched, model.safetensors: safetensors header of"},
		{"cut short", func(t *testing.T, dir string) {
			data := handSafetensors(5, 4)
			write(t, filepath.Join(dir, "model.safetensors"), string(data[:len(data)-4]))
		}, FetchOptions{}, planqerr.Corrupt, "as fetched, model.safetensors: truncated"},
		{"no embeddings", func(t *testing.T, dir string) {
			write(t, filepath.Join(dir, "model.safetensors"), "\x02\x00\x00\x00\x00\x00\x00\x00{}")
		}, FetchOptions{}, planqerr.Invalid, `as fetched, model.safetensors: no tensor "embeddings"`},
		{"tokenizer not JSON", func(t *testing.T, dir string) { write(t, filepath.Join(dir, "tokenizer.json"), "Not Found") }, FetchOptions{}, planqerr.Corrupt, "as fetched, tokenizer.json: not a tokenizer.json"},
		{"a tokenizer planq cannot reproduce", func(t *testing.T, dir string) {
			write(t, filepath.Join(dir, "tokenizer.json"), `{"model":{"type":"Unigram","vocab":[["a",0]]}}`)
		}, FetchOptions{}, planqerr.Invalid, "as fetched, tokenizer.json: a Unigram tokenizer"},
		{"config not JSON", func(t *testing.T, dir string) { write(t, filepath.Join(dir, "config.json"), "<html>") }, FetchOptions{}, planqerr.Corrupt, "as fetched, config.json: is not a JSON object"},
	}
	for _, c := range cases {
		t.Run(c.name, func(t *testing.T) {
			hubRoot, hub := newHub(t)
			if c.hub != nil {
				c.hub(t, filepath.Join(hubRoot, "owner", "tiny"))
			}
			c.opts.Hub = hub
			dest := t.TempDir()
			_, err := Fetch(context.Background(), "owner/tiny", dest, c.opts)
			if err == nil || !strings.Contains(err.Error(), c.want) || planqerr.KindOf(err) != c.kind {
				t.Fatalf("Fetch: %v (kind %v), want %q (kind %v)", err, planqerr.KindOf(err), c.want, c.kind)
			}
			if names := entries(t, filepath.Join(dest, "owner")); len(names) != 0 {
				t.Errorf("left %q", names)
			}
		})
	}
}

func write(t *testing.T, path, content string) {
	t.Helper()
	if err := os.WriteFile(path, []byte(content), 0o644); err != nil {
		t.Fatal(err)
	}
}

func TestFetchRefusesBadNames(t *testing.T) {
	_, hub := newHub(t)
	_, requests := startHub(t, t.TempDir())
	for _, name := range []string{"", "tiny", "owner/", "/tiny", "owner/tiny/extra", "../tiny", "owner/..", "owner/../x", "ow ner/tiny", "owner/ti ny",
		"owner/.tiny", "-owner/tiny", "owner/tiny.", "a--b/tiny", "owner\\tiny", "owner/tiny\n", strings.Repeat("a", 97) + "/tiny"} {
		dest := t.TempDir()
		_, err := Fetch(context.Background(), name, dest, FetchOptions{Hub: hub})
		if !planqerr.Is(err, planqerr.Invalid) || !strings.Contains(err.Error(), "is not a model's name on the hub") {
			t.Errorf("Fetch(%q): %v", name, err)
		}
		if names := entries(t, dest); len(names) != 0 {
			t.Errorf("Fetch(%q) left %q", name, names)
		}
	}
	if n := requests.Load(); n != 0 {
		t.Errorf("%d requests for bad names", n)
	}
	for _, name := range []string{"minishlab/potion-base-8M", "sentence-transformers/all-MiniLM-L6-v2", "a/b", "Org_1/m.v2"} {
		if err := CheckHubName(name); err != nil {
			t.Errorf("CheckHubName(%q): %v", name, err)
		}
	}
}

func TestFetchRefusesABadHub(t *testing.T) {
	for _, hub := range []string{"ftp://hub", "hub.example", "https://user:tok@hub", "https:///x"} {
		t.Setenv("HF_ENDPOINT", hub)
		_, err := Fetch(context.Background(), "owner/tiny", t.TempDir(), FetchOptions{})
		if !planqerr.Is(err, planqerr.Invalid) || !strings.Contains(err.Error(), "$HF_ENDPOINT") {
			t.Errorf("HF_ENDPOINT=%s: %v", hub, err)
		}
	}
}

// TestFetchStallIsBounded: a hub that stops sending fails the fetch after
// the stall bound, and a caller's cancelling stops it too.
func TestFetchStallIsBounded(t *testing.T) {
	release := make(chan struct{})
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		w.Header().Set("Content-Length", "1000")
		_, _ = io.WriteString(w, "\x10\x00")
		w.(http.Flusher).Flush()
		select {
		case <-r.Context().Done():
		case <-release:
		}
	}))
	t.Cleanup(srv.Close)
	t.Cleanup(func() { close(release) })
	dest := t.TempDir()
	start := time.Now()
	_, err := Fetch(context.Background(), "owner/tiny", dest, FetchOptions{Hub: srv.URL, Stall: 100 * time.Millisecond})
	if err == nil || !strings.Contains(err.Error(), "no byte of model.safetensors came for 100ms") {
		t.Fatalf("Fetch from a stalled hub: %v", err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 100*time.Millisecond)
	defer cancel()
	_, err = Fetch(ctx, "owner/tiny", dest, FetchOptions{Hub: srv.URL})
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Fatalf("Fetch past the caller's deadline: %v", err)
	}
	if took := time.Since(start); took > 3*time.Second {
		t.Errorf("two stalled fetches took %s", took)
	}
	if names := entries(t, filepath.Join(dest, "owner")); len(names) != 0 {
		t.Errorf("left %q", names)
	}
}
