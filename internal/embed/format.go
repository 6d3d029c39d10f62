package embed

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

// The file format of a Table, "planq embeddings v1", little-endian:
//
//	magic      "PQEMB1\n"
//	header     uint32 length, then that many bytes of JSON (fileHeader)
//	vocabulary per token: uint8 length, then the token's bytes
//	weights    per token: uint16, the weight in 1/65535ths
//	scales     per token: float32, the value of one int8 step of its vector
//	vectors    per token: dim int8 values
//	checksum   SHA-256 of everything before it
//
// Tokens, weights, scales and vectors are in one order, the row order.
const magic = "PQEMB1\n"

// The quantisations this version reads and writes, named in the header so
// that another one is refused, not misread.
const (
	vectorsInt8 = "int8, float32 scale per row"
	weightsU16  = "uint16 / 65535"
)

const (
	maxHeaderLen = 1 << 20   // a header is a few hundred bytes
	maxTableLen  = 512 << 20 // planq's own table is at most 10 MB
)

// fileHeader is the JSON header of a table's file.
type fileHeader struct {
	Dim     int    `json:"dim"`
	Vocab   int    `json:"vocab"`
	Vectors string `json:"vectors"`
	Weights string `json:"weights"`
	Info
	// Tokenizer, in a table converted from a model2vec model, cuts text as
	// that model does; none: as Tokens does.
	Tokenizer *tokenizerSpec `json:"tokenizer,omitempty"`
}

// WriteTable writes t to w in the "planq embeddings v1" format.
func WriteTable(w io.Writer, t *Table) error {
	bw := bufio.NewWriterSize(w, 64<<10)
	h := sha256.New()
	if err := t.writePayload(io.MultiWriter(bw, h)); err != nil {
		return fmt.Errorf("failed to write embeddings %q: %w", t.info.Name, err)
	}
	if _, err := bw.Write(h.Sum(nil)); err != nil {
		return fmt.Errorf("failed to write embeddings %q: %w", t.info.Name, err)
	}
	if err := bw.Flush(); err != nil {
		return fmt.Errorf("failed to write embeddings %q: %w", t.info.Name, err)
	}
	return nil
}

// writePayload writes everything the checksum covers.
func (t *Table) writePayload(w io.Writer) error {
	fh := fileHeader{Dim: t.dim, Vocab: t.voc.len(), Vectors: vectorsInt8, Weights: weightsU16, Info: t.info}
	if t.wp != nil {
		fh.Tokenizer = &t.wp.spec
	}
	hdr, err := json.Marshal(fh)
	if err != nil {
		return err
	}
	n := t.voc.len()
	buf := make([]byte, 0, 64<<10)
	buf = append(buf, magic...)
	buf = binary.LittleEndian.AppendUint32(buf, uint32(len(hdr)))
	buf = append(buf, hdr...)
	flush := func(force bool) error {
		if !force && len(buf) < 60<<10 {
			return nil
		}
		_, err := w.Write(buf)
		buf = buf[:0]
		return err
	}
	for i := range n {
		tok := t.voc.token(i)
		buf = append(buf, byte(len(tok)))
		buf = append(buf, tok...)
		if err := flush(false); err != nil {
			return err
		}
	}
	for i := range n {
		buf = binary.LittleEndian.AppendUint16(buf, t.weights[i])
		if err := flush(false); err != nil {
			return err
		}
	}
	for i := range n {
		buf = binary.LittleEndian.AppendUint32(buf, math.Float32bits(t.scales[i]))
		if err := flush(false); err != nil {
			return err
		}
	}
	if err := flush(true); err != nil {
		return err
	}
	_, err = w.Write(t.vecs)
	return err
}

// ReadTable reads a table in the "planq embeddings v1" format and checks
// it whole: its checksum, and that its sizes are the ones its header says.
// A damaged, truncated or foreign file is an error, never a panic, and
// nothing is allocated beyond what the file's own length justifies.
func ReadTable(r io.Reader) (*Table, error) {
	data, err := io.ReadAll(io.LimitReader(r, maxTableLen+1))
	if err != nil {
		return nil, fmt.Errorf("failed to read embeddings: %w", err)
	}
	if len(data) > maxTableLen {
		return nil, fmt.Errorf("embeddings file larger than %d MiB: not a table planq writes", maxTableLen>>20)
	}
	return parseTable(data, true)
}

// errTruncated is what a file that ends too early says.
var errTruncated = errors.New("embeddings file truncated")

// parseTable decodes a whole file, and checks its checksum if verify. The
// table keeps data's vectors: the caller gives data up.
func parseTable(data []byte, verify bool) (*Table, error) {
	if err := checkMagic(data); err != nil {
		return nil, err
	}
	h, p, err := readHeader(data)
	if err != nil {
		return nil, err
	}
	n, d := h.Vocab, h.Dim
	vocab, p, err := readVocab(data, p, n, h.Name)
	if err != nil {
		return nil, err
	}
	if err := checkRest(h, len(data)-p); err != nil {
		return nil, err
	}
	sum := data[len(data)-sha256.Size:]
	if verify {
		if got := sha256.Sum256(data[:len(data)-sha256.Size]); !bytes.Equal(got[:], sum) {
			return nil, fmt.Errorf("embeddings %q: checksum mismatch: the file is damaged", h.Name)
		}
	}

	t := &Table{
		info:    h.Info,
		id:      tableID(h.Name, sum),
		dim:     d,
		weights: make([]uint16, n),
		scales:  make([]float32, n),
	}
	voc, dup, err := newVocab(vocab, n)
	if err != nil {
		return nil, fmt.Errorf("embeddings %q: token %q occurs twice: damaged", h.Name, voc0(vocab, dup))
	}
	t.voc = voc
	if p, err = t.readRows(data, p, h.Name); err != nil {
		return nil, err
	}
	t.vecs = data[p : p+n*d : p+n*d]
	t.prepare()
	if t.wp, err = h.Tokenizer.over(t.voc); err != nil {
		return nil, fmt.Errorf("embeddings %q: %w", h.Name, err)
	}
	return t, nil
}

func checkMagic(data []byte) error {
	switch {
	case bytes.HasPrefix(data, []byte(magic)):
		return nil
	case len(data) < len(magic) && bytes.HasPrefix([]byte(magic), data):
		return errTruncated
	case bytes.HasPrefix(data, []byte(magic[:5])):
		return fmt.Errorf("planq embeddings of version %q: this planq reads version 1 (a newer planq wrote it?)", data[5:min(len(data), 6)])
	default:
		return errors.New("not a planq embeddings file (no PQEMB1 magic)")
	}
}

// readHeader also says where the vocabulary starts.
func readHeader(data []byte) (fileHeader, int, error) {
	var h fileHeader
	p := len(magic)
	if len(data)-p < 4 {
		return h, 0, errTruncated
	}
	hl := int(binary.LittleEndian.Uint32(data[p:]))
	p += 4
	if hl > maxHeaderLen {
		return h, 0, fmt.Errorf("embeddings header of %d bytes: damaged (at most %d)", hl, maxHeaderLen)
	}
	if len(data)-p < hl {
		return h, 0, errTruncated
	}
	if err := json.Unmarshal(data[p:p+hl], &h); err != nil {
		return h, 0, fmt.Errorf("embeddings header: %w", err)
	}
	p += hl
	if err := checkInfo(h.Info); err != nil {
		return h, 0, err
	}
	if h.Vectors != vectorsInt8 || h.Weights != weightsU16 {
		return h, 0, fmt.Errorf("embeddings %q: vectors %q and weights %q: this planq reads vectors %q and weights %q", h.Name, h.Vectors, h.Weights, vectorsInt8, weightsU16)
	}
	if h.Dim < 1 || h.Dim > MaxDim {
		return h, 0, fmt.Errorf("embeddings %q: dimension %d, want 1 to %d", h.Name, h.Dim, MaxDim)
	}
	// Each token takes at least its length byte, one byte, its weight, its
	// scale and its vector: a vocabulary larger than the file can hold is
	// refused before anything is allocated for it.
	perToken := 1 + 1 + 2 + 4 + h.Dim
	if h.Vocab < 1 {
		return h, 0, fmt.Errorf("embeddings %q: %d tokens", h.Name, h.Vocab)
	}
	if h.Vocab > (len(data)-p)/perToken {
		return h, 0, fmt.Errorf("%w: the header says %d tokens of dimension %d, at least %d bytes, and %d follow it", errTruncated, h.Vocab, h.Dim, h.Vocab*perToken+sha256.Size, len(data)-p)
	}
	return h, p, nil
}

// readVocab reads the n tokens from p on as one string, and where they end.
func readVocab(data []byte, p, n int, name string) (string, int, error) {
	start := p
	for range n {
		if p >= len(data) {
			return "", 0, errTruncated
		}
		l := int(data[p])
		if l == 0 {
			return "", 0, fmt.Errorf("embeddings %q: an empty token at byte %d: damaged", name, p)
		}
		p += 1 + l
	}
	if p > len(data) {
		return "", 0, errTruncated
	}
	return string(data[start:p]), p, nil
}

// checkRest checks the bytes after the vocabulary against h's sizes.
func checkRest(h fileHeader, rest int) error {
	n, d := h.Vocab, h.Dim
	want := n*(2+4+d) + sha256.Size
	if rest == want {
		return nil
	}
	msg := "truncated"
	if rest > want {
		msg = "longer than it should be"
	}
	err := fmt.Errorf("embeddings %q: %d tokens of dimension %d need %d bytes after the vocabulary, the file holds %d: %s", h.Name, n, d, want, rest, msg)
	if vec := rest - sha256.Size - 6*n; vec > 0 && vec%n == 0 {
		err = fmt.Errorf("%w, or its vectors are of dimension %d, not the %d its header says", err, vec/n, d)
	}
	if rest < want {
		err = fmt.Errorf("%w (%w)", err, errTruncated)
	}
	return err
}

func (t *Table) readRows(data []byte, p int, name string) (int, error) {
	for i := range t.weights {
		t.weights[i] = binary.LittleEndian.Uint16(data[p:])
		p += 2
	}
	for i := range t.scales {
		s := math.Float32frombits(binary.LittleEndian.Uint32(data[p:]))
		// A scale past float32's range over 127 multiplies a row back to
		// infinities, and every text using the token to the zero vector.
		if !(s >= 0) || s > math.MaxFloat32/127 {
			return 0, fmt.Errorf("embeddings %q: token %q (row %d) has scale %v: damaged", name, t.voc.token(i), i, s)
		}
		t.scales[i] = s
		p += 4
	}
	return p, nil
}

// voc0 is the token at row i of a vocabulary laid out as the file lays it
// out, for a message about a vocabulary that did not index.
func voc0(text string, i int) string {
	q := 0
	for range i {
		q += 1 + int(text[q])
	}
	return text[q+1 : q+1+int(text[q])]
}
