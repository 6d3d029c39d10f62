package embed

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"math"
	"path/filepath"
	"slices"
	"strings"
	"testing"

	"github.com/planq-dev/planq/planqerr"
)

// Issue 36, item 12: a model with a NaN or an infinity among its vectors
// was loaded, and every text using that token got a NaN vector that
// normalising made zero: found by its meaning never, without a word. The
// loader refuses it as damaged data (exit 6), naming the file, the tensor,
// the row and its token.
func TestLoadModel2VecRefusesNotFiniteNumbers(t *testing.T) {
	const row, col = 4, 1 // "##base"
	for _, c := range []struct {
		name, dtype string
		value       float64
		want        string
	}{
		{"NaN F32", "F32", math.NaN(), "NaN"},
		{"+Inf F32", "F32", math.Inf(1), "+Inf"},
		{"-Inf BF16", "BF16", math.Inf(-1), "-Inf"},
		{"NaN F64", "F64", math.NaN(), "NaN"},
		// Finite as F64, past float32's range once read.
		{"overflowing F64", "F64", 1e300, "+Inf"},
	} {
		t.Run(c.name, func(t *testing.T) {
			rows := flat(testRows)
			rows[row*3+col] = c.value
			dir := writeModelDir(t, filepath.Join(t.TempDir(), "m"),
				safetensorsBytes(t, st{"embeddings", c.dtype, []int{len(testVocab), 3}, rows}), wordPieceJSON(t, testVocab, nil))
			m, err := LoadModel2Vec(dir)
			if err == nil {
				t.Fatalf("loaded a model with %v in its vectors; embeds %q as %v", c.value, "databases", embedOne(t, m, "databases"))
			}
			if !planqerr.Is(err, planqerr.Corrupt) {
				t.Errorf("kind %v, want Corrupt (exit 6): %v", planqerr.KindOf(err), err)
			}
			msg := err.Error()
			for _, w := range []string{filepath.Join(dir, Model2VecWeights), `tensor "embeddings"`, `row 4 (token "##base"), column 1,`, c.want} {
				if !strings.Contains(msg, w) {
					t.Errorf("%q does not say %q", msg, w)
				}
			}
		})
	}
	t.Run("F16 infinity", func(t *testing.T) {
		data := safetensorsBytes(t, st{"embeddings", "F16", []int{len(testVocab), 3}, flat(testRows)})
		// Half precision has no exact encoder for infinity in the test's
		// helper: write the bits, 0x7c00, at row 4, column 1.
		at := len(data) - 2*len(flat(testRows)) + 2*(row*3+col)
		binary.LittleEndian.PutUint16(data[at:], 0x7c00)
		dir := writeModelDir(t, filepath.Join(t.TempDir(), "m"), data, wordPieceJSON(t, testVocab, nil))
		if _, err := LoadModel2Vec(dir); err == nil || !strings.Contains(err.Error(), `row 4 (token "##base"), column 1, holds +Inf`) {
			t.Errorf("an F16 infinity: %v", err)
		}
	})
	t.Run("weights", func(t *testing.T) {
		weights := slices.Clone(testWeights)
		weights[7] = math.NaN()
		dir := writeModelDir(t, filepath.Join(t.TempDir(), "m"), safetensorsBytes(t,
			st{"embeddings", "F32", []int{len(testVocab), 3}, flat(testRows)},
			st{"weights", "F32", []int{len(testVocab)}, weights}), wordPieceJSON(t, testVocab, nil))
		_, err := LoadModel2Vec(dir)
		if err == nil || !planqerr.Is(err, planqerr.Corrupt) || !strings.Contains(err.Error(), `tensor "weights": row 7 (token "bill") holds NaN`) {
			t.Errorf("a NaN weight: %v", err)
		}
	})
	t.Run("shared rows", func(t *testing.T) {
		rows := [][]float64{{1, 0, 0}, {0, math.NaN(), 0}}
		mapping := make([]float64, len(testVocab))
		for i := range mapping {
			mapping[i] = float64(i % 2)
		}
		dir := writeModelDir(t, filepath.Join(t.TempDir(), "m"), safetensorsBytes(t,
			st{"embeddings", "F32", []int{2, 3}, flat(rows)},
			st{"mapping", "I64", []int{len(testVocab)}, mapping}), wordPieceJSON(t, testVocab, nil))
		// Rows shared by tokens are named by row alone.
		if _, err := LoadModel2Vec(dir); err == nil || !strings.Contains(err.Error(), `tensor "embeddings": row 1, column 1, holds NaN`) {
			t.Errorf("a NaN in a shared row: %v", err)
		}
	})
}

// A table refuses a NaN or an infinity in the vectors it is built from,
// naming the token and its row, and a table file whose scale makes a
// vector infinite once multiplied back.
func TestTablesRefuseNotFiniteNumbers(t *testing.T) {
	_, err := NewTable(Info{Name: "t"}, []string{"a", "b"}, []float32{1, 1}, [][]float32{{1, 0}, {0, float32(math.NaN())}})
	if err == nil || !strings.Contains(err.Error(), `token "b" (row 1) has a vector with NaN`) {
		t.Errorf("NewTable with a NaN: %v", err)
	}

	tab := smallTable(t, 0.05)
	data := tableBytes(t, tab)
	// The scales follow the weights, after the vocabulary; the first row's
	// is the first float32 after the vocabulary's length bytes and tokens
	// and one uint16 per token.
	hl := int(binary.LittleEndian.Uint32(data[len(magic):]))
	p := len(magic) + 4 + hl
	for range tab.Len() {
		p += 1 + int(data[p])
	}
	p += 2 * tab.Len()
	payload := slices.Clone(data[:len(data)-sha256.Size])
	binary.LittleEndian.PutUint32(payload[p:], math.Float32bits(math.MaxFloat32/2))
	if _, err := ReadTable(bytes.NewReader(withChecksum(payload))); err == nil || !strings.Contains(err.Error(), "damaged") || !strings.Contains(err.Error(), tab.Token(0)) {
		t.Errorf("a scale that makes the vector infinite: %v", err)
	}
}
