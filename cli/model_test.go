package cli

import (
	"bytes"
	"encoding/binary"
	"encoding/json"
	"fmt"
	"math"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"

	"github.com/rogpeppe/go-internal/testscript"
)

// writeTinyModel writes a model2vec model of vocab x dim into dir: a
// safetensors file written by hand (an 8-byte little-endian header
// length, the JSON header, the F32 data), a WordPiece tokenizer.json and
// a config.json.
func writeTinyModel(dir string, vocab, dim int) error {
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return err
	}
	data := make([]byte, 4*vocab*dim)
	for i := range vocab * dim {
		binary.LittleEndian.PutUint32(data[4*i:], math.Float32bits(float32(i%5)-2))
	}
	header := fmt.Sprintf(`{"embeddings":{"dtype":"F32","shape":[%d,%d],"data_offsets":[0,%d]}}`, vocab, dim, len(data))
	var st bytes.Buffer
	_ = binary.Write(&st, binary.LittleEndian, uint64(len(header)))
	st.WriteString(header)
	st.Write(data)
	words := map[string]int{"[UNK]": 0}
	for i := 1; i < vocab; i++ {
		words[fmt.Sprintf("word%d", i)] = i
	}
	tok, err := json.Marshal(map[string]any{"version": "1.0", "model": map[string]any{"type": "WordPiece", "unk_token": "[UNK]", "vocab": words}})
	if err != nil {
		return err
	}
	for name, content := range map[string][]byte{"model.safetensors": st.Bytes(), "tokenizer.json": tok, "config.json": []byte(`{"model_type":"model2vec"}`)} {
		if err := os.WriteFile(filepath.Join(dir, name), content, 0o644); err != nil {
			return err
		}
	}
	return nil
}

// hubHandler serves root as the Hugging Face hub does: GET
// /<owner>/<name>/resolve/main/<file> is root/<owner>/<name>/<file>.
// Each request's path is appended to log, when given.
func hubHandler(root, log string) http.Handler {
	var mu sync.Mutex
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if log != "" {
			mu.Lock()
			if f, err := os.OpenFile(log, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644); err == nil {
				_, _ = fmt.Fprintln(f, r.Method, r.URL.Path)
				_ = f.Close()
			}
			mu.Unlock()
		}
		parts := strings.Split(strings.TrimPrefix(r.URL.Path, "/"), "/")
		if r.Method != http.MethodGet || len(parts) != 5 || parts[2] != "resolve" || parts[3] != "main" {
			http.NotFound(w, r)
			return
		}
		http.ServeFile(w, r, filepath.Join(root, parts[0], parts[1], parts[4]))
	})
}

// tinymodel DIR VOCAB DIM: write a model2vec model of VOCAB x DIM into DIR.
func cmdTinyModel(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 3 {
		ts.Fatalf("usage: tinymodel DIR VOCAB DIM")
	}
	vocab, err := strconv.Atoi(args[1])
	ts.Check(err)
	dim, err := strconv.Atoi(args[2])
	ts.Check(err)
	ts.Check(writeTinyModel(ts.MkAbs(args[0]), vocab, dim))
}

// hub DIR: serve DIR as the Hugging Face hub (DIR/<owner>/<name>/<file>)
// until the script ends, with HF_ENDPOINT pointing at it; each request is
// logged in $WORK/hub.log.
func cmdHub(ts *testscript.TestScript, neg bool, args []string) {
	if neg || len(args) != 1 {
		ts.Fatalf("usage: hub DIR")
	}
	srv := httptest.NewServer(hubHandler(ts.MkAbs(args[0]), ts.MkAbs("hub.log")))
	ts.Defer(srv.Close)
	ts.Setenv("HF_ENDPOINT", srv.URL)
}

// hub serves a tiny model as owner/tiny from a hub of the test's own,
// with HF_ENDPOINT pointing at it, for model fetch.
func (f *shapeFixture) hub() {
	root := f.t.TempDir()
	if err := writeTinyModel(filepath.Join(root, "owner", "tiny"), 4, 3); err != nil {
		f.t.Fatal(err)
	}
	srv := httptest.NewServer(hubHandler(root, ""))
	f.t.Cleanup(srv.Close)
	f.t.Setenv("HF_ENDPOINT", srv.URL)
}
