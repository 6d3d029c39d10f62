package embed

import (
	"bytes"
	"context"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"
)

// convertCases are model2vec directories of every shape the loader reads.
func convertCases(t *testing.T) map[string]string {
	parent := t.TempDir()
	emb := func(dtype string) st { return st{"embeddings", dtype, []int{len(testVocab), 3}, flat(testRows)} }
	weights := st{"weights", "F32", []int{len(testVocab)}, testWeights}
	mapping := []float64{0, 0, 1, 0, 0, 0, 0, 1, 1, 1, 0, 0}
	wordLevel := wordPieceJSON(t, nil, func(tok map[string]any) {
		tok["model"] = map[string]any{"type": "WordLevel", "unk_token": "[UNK]", "vocab": map[string]int{"[UNK]": 0, "database": 1, "postgres": 2}}
		tok["added_tokens"] = []any{}
		tok["normalizer"] = map[string]any{"type": "Sequence", "normalizers": []any{map[string]any{"type": "NFD"}, map[string]any{"type": "Lowercase"}}}
		tok["pre_tokenizer"] = map[string]any{"type": "Whitespace"}
	})
	return map[string]string{
		"F32": writeModelDir(t, filepath.Join(parent, "f32"), safetensorsBytes(t, emb("F32")), wordPieceJSON(t, testVocab, nil)),
		"F16 weighted": writeModelDir(t, filepath.Join(parent, "f16"), safetensorsBytes(t, emb("F16"), weights), wordPieceJSON(t, testVocab, func(tok map[string]any) {
			tok["pre_tokenizer"] = map[string]any{"type": "Whitespace"}
		})),
		"mapping": writeModelDir(t, filepath.Join(parent, "mapping"), safetensorsBytes(t,
			st{"embeddings", "F32", []int{2, 3}, []float64{1, 0, 0, 0, 1, 0}}, st{"mapping", "I64", []int{len(testVocab)}, mapping}), wordPieceJSON(t, testVocab, nil)),
		"WordLevel": writeModelDir(t, filepath.Join(parent, "wordlevel"), safetensorsBytes(t, st{"embeddings", "BF16", []int{3, 2}, []float64{0, 0, 1, 0, 0, 1}}), wordLevel),
	}
}

// TestConvertedTableEmbedsAsTheModel: the table converted from a model
// gives each text the model's vector, within int8's precision, and the
// zero vector where the model does; read back from where it was saved, it
// is the same table.
func TestConvertedTableEmbedsAsTheModel(t *testing.T) {
	texts := []string{"The Database, Postgres!", "Café bills", "databases\tbilling", "invoice databasex", "the data",
		"PostgreS, databases", "", "unknown words", "!!! ,,,", "[UNK]", strings.Repeat("database", 300)}
	for name, dir := range convertCases(t) {
		t.Run(name, func(t *testing.T) {
			m, err := LoadModel2Vec(dir)
			if err != nil {
				t.Fatal(err)
			}
			models := t.TempDir()
			converted, err := LoadConverted(dir, models)
			if err != nil {
				t.Fatal(err)
			}
			saved, err := LoadConverted(dir, models)
			if err != nil {
				t.Fatal(err)
			}
			if converted.ID() != saved.ID() || !strings.HasPrefix(converted.ID(), "model2vec:"+filepath.Base(dir)+"@") || converted.Dim() != m.Dim() {
				t.Errorf("converted %q (dimension %d), read back %q; the model is %q of %d", converted.ID(), converted.Dim(), saved.ID(), m.ID(), m.Dim())
			}
			if got := entries(t, filepath.Join(models, TablesDir)); len(got) != 1 {
				t.Errorf("saved: %q, want one table", got)
			}
			for _, text := range texts {
				want, got, again := embedOne(t, m, text), embedOne(t, converted, text), embedOne(t, saved, text)
				if !slices.Equal(got, again) {
					t.Errorf("%q: converted %v, read back %v", text, got, again)
				}
				if zero := dot(want, want) == 0; zero != (dot(got, got) == 0) || !zero && dot(want, got) < 0.999 {
					t.Errorf("%q: the table gives %v, the model %v", text, got, want)
				}
			}
		})
	}
}

// sameSizeGarbage overwrites path with as many bytes of garbage, and gives
// it back its modification time.
func sameSizeGarbage(t *testing.T, path string) {
	t.Helper()
	fi, err := os.Stat(path)
	if err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(path, bytes.Repeat([]byte{'x'}, int(fi.Size())), 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Chtimes(path, fi.ModTime(), fi.ModTime()); err != nil {
		t.Fatal(err)
	}
}

// TestConvertedTableIsReadWhileTheModelStays: once converted, the model's
// files are not read again (their parsers would refuse garbage) until one
// of them changes; the table of the directory's files before is removed.
func TestConvertedTableIsReadWhileTheModelStays(t *testing.T) {
	dir := convertCases(t)["F16 weighted"]
	models := t.TempDir()
	first, err := LoadConverted(dir, models)
	if err != nil {
		t.Fatal(err)
	}
	good := map[string][]byte{}
	for _, name := range []string{Model2VecWeights, Model2VecTokenizer} {
		if good[name], err = os.ReadFile(filepath.Join(dir, name)); err != nil {
			t.Fatal(err)
		}
		sameSizeGarbage(t, filepath.Join(dir, name))
	}
	again, err := LoadConverted(dir, models)
	if err != nil || again.ID() != first.ID() {
		t.Fatalf("the model's files unchanged in size and time: %v, %v; want the table of %s", again, err, first.ID())
	}

	later := time.Now().Add(time.Hour)
	if err := os.Chtimes(filepath.Join(dir, Model2VecTokenizer), later, later); err != nil {
		t.Fatal(err)
	}
	if _, err := LoadConverted(dir, models); err == nil || !strings.Contains(err.Error(), Model2VecTokenizer) {
		t.Fatalf("tokenizer.json changed: %v, want it read again, and refused", err)
	}

	other := slices.Clone(testRows)
	other[5] = []float64{1, 0.25, 0.0078125}
	writeModelDir(t, dir, safetensorsBytes(t, st{"embeddings", "F32", []int{len(testVocab), 3}, flat(other)}), good[Model2VecTokenizer])
	changed, err := LoadConverted(dir, models)
	if err != nil || changed.ID() == first.ID() {
		t.Fatalf("another model in the directory: %v, %v; the one before was %s", changed, err, first.ID())
	}
	if got := entries(t, filepath.Join(models, TablesDir)); len(got) != 1 {
		t.Errorf("saved: %q, want the table of the directory's files alone", got)
	}
}

// TestConvertedTableDamagedIsConvertedAgain: a saved table that does not
// read whole is no error: the model is converted again, and saved.
func TestConvertedTableDamagedIsConvertedAgain(t *testing.T) {
	dir := convertCases(t)["F32"]
	models := t.TempDir()
	first, err := LoadConverted(dir, models)
	if err != nil {
		t.Fatal(err)
	}
	path := convertedPath(dir, models)
	saved, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	damaged := slices.Clone(saved)
	damaged[len(damaged)/2] ^= 0x10
	if err := os.WriteFile(path, damaged, 0o644); err != nil {
		t.Fatal(err)
	}
	again, err := LoadConverted(dir, models)
	if err != nil || again.ID() != first.ID() {
		t.Fatalf("a damaged table: %v, %v; want %s again", again, err, first.ID())
	}
	if now, err := os.ReadFile(path); err != nil || !bytes.Equal(now, saved) {
		t.Errorf("the table saved again: %v, equal %v", err, bytes.Equal(now, saved))
	}
	// Without a models directory, the model is converted to the same
	// table, and nothing saved.
	if alone, err := LoadConverted(dir, ""); err != nil || alone.ID() != first.ID() {
		t.Errorf("converted without a models directory: %v, %v", alone, err)
	}
}

// TestFetchSavesTheConvertedTable: a model fetched is converted then, so
// that search reads the table, not the model's files.
func TestFetchSavesTheConvertedTable(t *testing.T) {
	_, hub := newHub(t)
	t.Setenv("HF_ENDPOINT", hub)
	dest := filepath.Join(t.TempDir(), "models")
	got, err := Fetch(context.Background(), "owner/tiny", dest, FetchOptions{})
	if err != nil {
		t.Fatal(err)
	}
	if names := entries(t, filepath.Join(dest, TablesDir)); len(names) != 1 {
		t.Fatalf("tables saved: %q, want one", names)
	}
	for _, name := range []string{Model2VecWeights, Model2VecTokenizer} {
		sameSizeGarbage(t, filepath.Join(got.Dir, name))
	}
	m, err := Open(context.Background(), Settings{Model: "owner/tiny", ModelsDir: dest})
	if err != nil || !strings.HasPrefix(m.ID(), "model2vec:tiny@") {
		t.Fatalf("search opened %v, %v; want the table fetch saved", m, err)
	}
}

// BenchmarkLoadConverted30MB reads the table converted from the model of
// BenchmarkLoadModel2Vec30MB, as every process that searches does.
func BenchmarkLoadConverted30MB(b *testing.B) {
	dir, _ := model30MB(b)
	models := b.TempDir()
	if _, err := LoadConverted(dir, models); err != nil {
		b.Fatal(err)
	}
	fi, err := os.Stat(convertedPath(dir, models))
	if err != nil {
		b.Fatal(err)
	}
	for b.Loop() {
		if _, err := LoadConverted(dir, models); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(fi.Size())/1e6, "MB")
}
