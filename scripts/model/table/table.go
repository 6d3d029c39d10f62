// Package table reads and writes the static embedding table of planq's
// default search model, in the "planq embeddings v1" layout: the magic
// line "PQEMB1\n", a length-prefixed JSON header, the vocabulary, a
// quantised weight per token, a scale per row, the int8 vectors, and the
// SHA-256 of all that at the end.
//
// It stands in for embed.WriteTable and embed.ReadTable until package
// embed has them; then build and neighbours call those, and this package
// goes.
package table

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"math"
)

const magic = "PQEMB1\n"

// Header describes a table; it is written as JSON.
type Header struct {
	Format       string   `json:"format"`
	Name         string   `json:"name"`
	Dim          int      `json:"dim"`
	Vocab        int      `json:"vocab"`
	Quantisation string   `json:"quantisation"`
	Weights      string   `json:"weights"`
	Sources      []Source `json:"sources,omitempty"`
	Licence      string   `json:"licence,omitempty"`
	Training     string   `json:"training,omitempty"`
}

// Source names one text the table was learnt from.
type Source struct {
	Package string `json:"package"`
	Version string `json:"version"`
	Licence string `json:"licence"`
}

// Table is a vocabulary with a weight and an int8 vector (times a scale)
// per token.
type Table struct {
	Header  Header
	Tokens  []string
	Weights []float32 // in (0, 1]; stored as a byte, w*255 rounded
	Scales  []float32 // row i's vector is Vectors[i*Dim:(i+1)*Dim] times Scales[i]
	Vectors []int8
}

// Write writes t.
func Write(w io.Writer, t *Table) error {
	n, d := len(t.Tokens), t.Header.Dim
	if len(t.Weights) != n || len(t.Scales) != n || len(t.Vectors) != n*d {
		return fmt.Errorf("failed to write table: %d tokens, %d weights, %d scales, %d vector values for dimension %d",
			n, len(t.Weights), len(t.Scales), len(t.Vectors), d)
	}
	h := t.Header
	h.Format, h.Vocab, h.Quantisation, h.Weights = "planq embeddings v1", n, "int8, one float32 scale per row", "uint8, weight*255"
	hj, err := json.Marshal(h)
	if err != nil {
		return fmt.Errorf("failed to write table header: %w", err)
	}
	var b bytes.Buffer
	b.WriteString(magic)
	b.Write(binary.LittleEndian.AppendUint32(nil, uint32(len(hj))))
	b.Write(hj)
	for _, tok := range t.Tokens {
		b.Write(binary.AppendUvarint(nil, uint64(len(tok))))
		b.WriteString(tok)
	}
	for _, wt := range t.Weights {
		b.WriteByte(byte(max(1, min(255, math.Round(float64(wt)*255)))))
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

// Read reads a table Write wrote, checking its hash first.
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
	br := bufio.NewReader(bytes.NewReader(payload[len(magic):]))
	var hl uint32
	if err := binary.Read(br, binary.LittleEndian, &hl); err != nil {
		return nil, fmt.Errorf("failed to read table header: %w", err)
	}
	hj := make([]byte, hl)
	if _, err := io.ReadFull(br, hj); err != nil {
		return nil, fmt.Errorf("failed to read table header: %w", err)
	}
	t := &Table{}
	if err := json.Unmarshal(hj, &t.Header); err != nil {
		return nil, fmt.Errorf("failed to read table header: %w", err)
	}
	n, d := t.Header.Vocab, t.Header.Dim
	if n <= 0 || d <= 0 || n*d > len(payload) {
		return nil, fmt.Errorf("failed to read table: header says %d tokens of dimension %d", n, d)
	}
	t.Tokens = make([]string, n)
	for i := range t.Tokens {
		l, err := binary.ReadUvarint(br)
		if err != nil || l > 1<<10 {
			return nil, fmt.Errorf("failed to read token %d: %v", i, err)
		}
		tok := make([]byte, l)
		if _, err := io.ReadFull(br, tok); err != nil {
			return nil, fmt.Errorf("failed to read token %d: %w", i, err)
		}
		t.Tokens[i] = string(tok)
	}
	rest := make([]byte, n+4*n+n*d)
	if _, err := io.ReadFull(br, rest); err != nil {
		return nil, fmt.Errorf("failed to read table rows: %w", err)
	}
	if _, err := br.ReadByte(); err != io.EOF {
		return nil, errors.New("failed to read table: bytes after the vectors")
	}
	t.Weights = make([]float32, n)
	for i := range n {
		t.Weights[i] = float32(rest[i]) / 255
	}
	t.Scales = make([]float32, n)
	for i := range n {
		t.Scales[i] = math.Float32frombits(binary.LittleEndian.Uint32(rest[n+4*i:]))
	}
	t.Vectors = make([]int8, n*d)
	for i, b := range rest[5*n:] {
		t.Vectors[i] = int8(b)
	}
	return t, nil
}
