package embed

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"strings"
	"unicode"

	"github.com/planq-dev/planq/internal/atomicfile"
	"github.com/planq-dev/planq/planqerr"
)

// A model2vec model is read once, converted to a table of planq's format
// and saved under the models directory; every later process reads the
// table, in milliseconds, where reading the model's safetensors and
// tokenizer.json again would take a large part of a second.

// TablesDir is where, under the models directory, the tables converted
// from model2vec models are kept: a dot directory, so that no hub name
// meets it.
const TablesDir = ".tables"

// conversion names how a table is converted from a model: a planq that
// converts otherwise changes it, and converts every model again.
const conversion = "model2vec int8 v1"

// LoadConverted returns the model2vec model in dir as a table of planq's
// format. The table converted from it before is read from models'
// TablesDir while the model's files have the size and modification time
// they had; otherwise the model is read (LoadModel2Vec, whose errors it
// returns) and converted, and the table saved there for the processes
// after. Without models, the model is converted and nothing saved.
func LoadConverted(dir, models string) (*Table, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("failed to load the model in %s: %w", dir, err)
	}
	path := convertedPath(abs, models)
	if path != "" {
		if t, err := readConverted(path); err == nil {
			return t, nil
		}
	}
	m, err := LoadModel2Vec(abs)
	if err != nil {
		return nil, err
	}
	t, err := m.convert(abs, abs)
	if err != nil {
		return nil, err
	}
	// Unsaved, the table costs the next process the conversion again, and
	// is the same table: no failure.
	_ = saveConverted(path, t)
	return t, nil
}

// convert is m, the model read from dir, as the table of the model that
// will be in final.
func (m *Model2Vec) convert(dir, final string) (*Table, error) {
	t, err := m.table(tableName(final))
	if err != nil {
		return nil, planqerr.New(planqerr.Invalid, filepath.Join(dir, Model2VecWeights), "%w", err)
	}
	return t, nil
}

// convertedPath is where the table converted from the model in dir is
// kept while its files stay as they are: a name for the directory, then
// one for its files' sizes and modification times. "" when there is no
// models directory, or a file is missing (LoadModel2Vec says which).
func convertedPath(dir, models string) string {
	abs, err := filepath.Abs(dir)
	if models == "" || err != nil {
		return ""
	}
	key := sha256.New()
	fmt.Fprintf(key, "%s\n", conversion)
	for _, name := range []string{Model2VecWeights, Model2VecTokenizer} {
		fi, err := os.Stat(filepath.Join(abs, name))
		if err != nil {
			return ""
		}
		fmt.Fprintf(key, "%s %d %d\n", name, fi.Size(), fi.ModTime().UnixNano())
	}
	return filepath.Join(models, TablesDir, dirKey(abs)+"-"+hex.EncodeToString(key.Sum(nil))[:16]+".pqemb")
}

// dirKey names the model directory abs among the converted tables.
func dirKey(abs string) string {
	sum := sha256.Sum256([]byte(abs))
	return hex.EncodeToString(sum[:8])
}

// readConverted reads a converted table, checked whole.
func readConverted(path string) (*Table, error) {
	data, err := readBounded(path, maxTableLen)
	if err != nil {
		return nil, err
	}
	t, err := parseTable(data, true)
	if err != nil {
		return nil, err
	}
	if t.wp == nil {
		return nil, errors.New("not a table converted from a model2vec model")
	}
	return t, nil
}

// saveConverted writes t at path ("": nowhere) whole or not at all, and
// removes the tables converted from the same directory's earlier files.
func saveConverted(path string, t *Table) error {
	if path == "" {
		return nil
	}
	var buf bytes.Buffer
	if err := WriteTable(&buf, t); err != nil {
		return err
	}
	dir := filepath.Dir(path)
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return fmt.Errorf("failed to make %s: %w", dir, err)
	}
	if err := atomicfile.WriteFile(path, buf.Bytes(), 0o644); err != nil {
		return fmt.Errorf("failed to save the converted model: %w", err)
	}
	entries, err := os.ReadDir(dir)
	if err != nil {
		return fmt.Errorf("failed to read %s: %w", dir, err)
	}
	own, _, _ := strings.Cut(filepath.Base(path), "-")
	for _, e := range entries {
		if name := e.Name(); strings.HasPrefix(name, own+"-") && name != filepath.Base(path) {
			_ = os.Remove(filepath.Join(dir, name))
		}
	}
	return nil
}

// tableName is the name of the table converted from the model in abs:
// "model2vec:" and the directory's name, as a Model2Vec's ID begins.
func tableName(abs string) string {
	name := strings.Map(func(r rune) rune {
		if r == '@' || unicode.IsControl(r) {
			return '_'
		}
		return r
	}, filepath.Base(abs))
	if len(name) > 150 {
		name = name[:150]
	}
	return "model2vec:" + strings.ToValidUTF8(name, "_")
}

// table is m as a table of planq's format: the tokenizer's vocabulary, and
// each token's vector times its weight in int8, as every table's vectors
// are. The unknown token's vector is zero: m never adds it.
func (m *Model2Vec) table(name string) (*Table, error) {
	n := m.tok.voc.len()
	wp := *m.tok
	wp.id, wp.unk = nil, -1
	t := &Table{
		info:    Info{Name: name, Notes: "converted from a model2vec model"},
		dim:     m.dim,
		voc:     m.tok.voc,
		weights: make([]uint16, n),
		scales:  make([]float32, n),
		vecs:    make([]byte, n*m.dim),
		wp:      &wp,
	}
	for r := range n {
		t.weights[r] = math.MaxUint16
		if int32(r) == m.tok.unk {
			continue
		}
		w, v := m.vector(m.tok.id[r])
		t.setRow(r, w, v)
		// A scale past float32's range over 127 would not read back.
		if s := t.scales[r]; s > math.MaxFloat32/127 {
			return nil, fmt.Errorf("token %q: its weight times its vector is past float32's range", t.voc.token(r))
		}
	}
	return t, t.seal()
}
