// Package table writes and reads the static embedding table of planq's
// default search model in the "planq embeddings v1" format,
// little-endian:
//
//	magic      "PQEMB1\n"
//	header     uint32 length, then that many bytes of JSON
//	vocabulary per token: uint8 length, then the token's bytes
//	weights    per token: uint16, the weight in 1/65535ths
//	scales     per token: float32, the value of one int8 step of its vector
//	vectors    per token: dim int8 values
//	checksum   SHA-256 of everything before it
//
// It stands in for embed.Tokens, embed.NewTable, embed.WriteTable and embed.ReadTable
// until package embed has them, and writes the same bytes; then build and
// neighbours call those, and this package goes.
package table

import (
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
)

const (
	magic       = "PQEMB1\n"
	vectorsInt8 = "int8, float32 scale per row"
	weightsU16  = "uint16 / 65535"
)

// Info describes a table: its name and where its text came from.
type Info struct {
	Name    string   `json:"name"`
	Sources []string `json:"sources,omitempty"`
	Licence string   `json:"licence,omitempty"`
	Notes   string   `json:"notes,omitempty"`
}

type fileHeader struct {
	Dim     int    `json:"dim"`
	Vocab   int    `json:"vocab"`
	Vectors string `json:"vectors"`
	Weights string `json:"weights"`
	Info
}

// Table is a vocabulary with a weight and an int8 vector (times a scale)
// per token.
type Table struct {
	Info    Info
	Dim     int
	Tokens  []string
	Weights []uint16  // in 1/65535ths
	Scales  []float32 // the value of one int8 step of the row
	Vectors []int8    // len(Tokens)*Dim, row after row
}

// New quantises weights in [0, 1] to 16 bits and each vector to int8 with
// a scale per row (its largest component is ±127).
func New(info Info, tokens []string, weights []float32, vectors [][]float32) (*Table, error) {
	n := len(tokens)
	if n == 0 || len(weights) != n || len(vectors) != n {
		return nil, fmt.Errorf("table %q: %d tokens, %d weights, %d vectors: one of each per token", info.Name, n, len(weights), len(vectors))
	}
	d := len(vectors[0])
	t := &Table{Info: info, Dim: d, Tokens: tokens, Weights: make([]uint16, n), Scales: make([]float32, n), Vectors: make([]int8, n*d)}
	for i, tok := range tokens {
		if len(tok) == 0 || len(tok) > math.MaxUint8 {
			return nil, fmt.Errorf("table %q: token %q: want 1 to 255 bytes", info.Name, tok)
		}
		w := weights[i]
		if !(w >= 0 && w <= 1) {
			return nil, fmt.Errorf("table %q: token %q has weight %v, want 0 to 1", info.Name, tok, w)
		}
		t.Weights[i] = uint16(math.Round(float64(w) * math.MaxUint16))
		v := vectors[i]
		if len(v) != d {
			return nil, fmt.Errorf("table %q: token %q has a vector of dimension %d, the first %d", info.Name, tok, len(v), d)
		}
		var maxAbs float64
		for _, x := range v {
			maxAbs = max(maxAbs, math.Abs(float64(x)))
		}
		if maxAbs == 0 {
			continue
		}
		scale := maxAbs / 127
		t.Scales[i] = float32(scale)
		for j, x := range v {
			t.Vectors[i*d+j] = int8(max(-127, min(127, math.Round(float64(x)/scale))))
		}
	}
	return t, nil
}

// Write writes t.
func Write(w io.Writer, t *Table) error {
	hdr, err := json.Marshal(fileHeader{Dim: t.Dim, Vocab: len(t.Tokens), Vectors: vectorsInt8, Weights: weightsU16, Info: t.Info})
	if err != nil {
		return fmt.Errorf("failed to write table header: %w", err)
	}
	var b bytes.Buffer
	b.WriteString(magic)
	b.Write(binary.LittleEndian.AppendUint32(nil, uint32(len(hdr))))
	b.Write(hdr)
	for _, tok := range t.Tokens {
		b.WriteByte(byte(len(tok)))
		b.WriteString(tok)
	}
	for _, wt := range t.Weights {
		b.Write(binary.LittleEndian.AppendUint16(nil, wt))
	}
	for _, s := range t.Scales {
		b.Write(binary.LittleEndian.AppendUint32(nil, math.Float32bits(s)))
	}
	for _, v := range t.Vectors {
		b.WriteByte(byte(v))
	}
	sum := sha256.Sum256(b.Bytes())
	b.Write(sum[:])
	if _, err := w.Write(b.Bytes()); err != nil {
		return fmt.Errorf("failed to write table: %w", err)
	}
	return nil
}

// Read reads a table Write wrote, checking its checksum and sizes.
func Read(r io.Reader) (*Table, error) {
	all, err := io.ReadAll(r)
	if err != nil {
		return nil, fmt.Errorf("failed to read table: %w", err)
	}
	if len(all) < len(magic)+4+sha256.Size || string(all[:len(magic)]) != magic {
		return nil, errors.New("failed to read table: not a planq embeddings v1 file")
	}
	payload, sum := all[:len(all)-sha256.Size], all[len(all)-sha256.Size:]
	if got := sha256.Sum256(payload); !bytes.Equal(got[:], sum) {
		return nil, errors.New("failed to read table: checksum mismatch (truncated or damaged)")
	}
	p := payload[len(magic):]
	hl := int(binary.LittleEndian.Uint32(p))
	p = p[4:]
	if hl > len(p) {
		return nil, errors.New("failed to read table: header longer than the file")
	}
	var h fileHeader
	if err := json.Unmarshal(p[:hl], &h); err != nil {
		return nil, fmt.Errorf("failed to read table header: %w", err)
	}
	p = p[hl:]
	if h.Vectors != vectorsInt8 || h.Weights != weightsU16 {
		return nil, fmt.Errorf("failed to read table: vectors %q, weights %q", h.Vectors, h.Weights)
	}
	n, d := h.Vocab, h.Dim
	if n <= 0 || d <= 0 || n > len(p) || d > len(p) {
		return nil, fmt.Errorf("failed to read table: header says %d tokens of dimension %d", n, d)
	}
	t := &Table{Info: h.Info, Dim: d, Tokens: make([]string, n)}
	for i := range n {
		if len(p) < 1 || len(p) < 1+int(p[0]) {
			return nil, fmt.Errorf("failed to read table: token %d past the end", i)
		}
		t.Tokens[i] = string(p[1 : 1+p[0]])
		p = p[1+p[0]:]
	}
	if len(p) != 2*n+4*n+n*d {
		return nil, fmt.Errorf("failed to read table: %d bytes of rows, want %d", len(p), 6*n+n*d)
	}
	t.Weights = make([]uint16, n)
	t.Scales = make([]float32, n)
	t.Vectors = make([]int8, n*d)
	for i := range n {
		t.Weights[i] = binary.LittleEndian.Uint16(p[2*i:])
		t.Scales[i] = math.Float32frombits(binary.LittleEndian.Uint32(p[2*n+4*i:]))
	}
	for i, b := range p[6*n:] {
		t.Vectors[i] = int8(b)
	}
	return t, nil
}
