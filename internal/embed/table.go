package embed

import (
	"context"
	"crypto/sha256"
	"encoding/hex"
	"fmt"
	"math"
	"unicode"
)

// MaxDim bounds a vector's dimension: static embeddings have tens to a few
// hundred; a header that says more is damaged.
const MaxDim = 4096

// Info describes a table: its name (the first half of its ID) and, for a
// table planq ships or a team shares, where its text came from and under
// which licences.
type Info struct {
	Name    string   `json:"name"`
	Sources []string `json:"sources,omitempty"`
	Licence string   `json:"licence,omitempty"`
	Notes   string   `json:"notes,omitempty"`
}

// Table is a static embedding model in planq's own format: a vocabulary of
// tokens (as Tokens cuts them), one weight per token, and one vector per
// token stored as int8 with a scale per row. A text's vector is the mean of
// its known tokens' vectors, each multiplied by its weight, normalised to
// unit length. A Table is immutable and safe for concurrent use.
type Table struct {
	info    Info
	id      string
	dim     int
	voc     *vocab    // row <-> token
	weights []uint16  // row -> weight, in 1/65535ths
	scales  []float32 // row -> the value of one int8 step
	vecs    []byte    // rows*dim int8 values, row after row
	mul     []float32 // row -> weight*scale, what pooling multiplies by
	// wp cuts text as the model2vec model the table was converted from
	// does (LoadConverted); nil: as Tokens does.
	wp *tokenizer
}

var _ Model = (*Table)(nil)

// NewTable builds a table from a vocabulary, one weight per token in [0, 1]
// (a frequency weight: low for frequent tokens) and one vector per token,
// all of one dimension. Each token must be one that Tokens makes (Tokens(t)
// starts with t), so that run-time text can meet it. Vectors are quantised
// to int8 with a scale per row, weights to 16 bits: the table behaves as it
// will after WriteTable and ReadTable.
func NewTable(info Info, tokens []string, weights []float32, vectors [][]float32) (*Table, error) {
	if err := checkInfo(info); err != nil {
		return nil, err
	}
	n := len(tokens)
	if n == 0 {
		return nil, fmt.Errorf("embeddings %q: no tokens", info.Name)
	}
	if len(weights) != n || len(vectors) != n {
		return nil, fmt.Errorf("embeddings %q: %d tokens, %d weights, %d vectors: one of each per token", info.Name, n, len(weights), len(vectors))
	}
	dim := len(vectors[0])
	if dim < 1 || dim > MaxDim {
		return nil, fmt.Errorf("embeddings %q: dimension %d, want 1 to %d", info.Name, dim, MaxDim)
	}
	for _, tok := range tokens {
		if ts := Tokens(tok); len(ts) == 0 || ts[0] != tok {
			return nil, fmt.Errorf("embeddings %q: token %q is not one that Tokens makes: train on Tokens' output", info.Name, tok)
		}
	}
	voc, dup, err := newVocab(vocabText(tokens), n)
	if err != nil {
		return nil, fmt.Errorf("embeddings %q: token %q twice", info.Name, tokens[dup])
	}
	t := &Table{
		info:    info,
		dim:     dim,
		voc:     voc,
		weights: make([]uint16, n),
		scales:  make([]float32, n),
		vecs:    make([]byte, n*dim),
	}
	for i, tok := range tokens {
		if err := t.setToken(i, tok, weights[i], vectors[i]); err != nil {
			return nil, err
		}
	}
	return t, t.seal()
}

func (t *Table) setToken(i int, tok string, w float32, v []float32) error {
	if !(w >= 0 && w <= 1) { // also refuses NaN
		return fmt.Errorf("embeddings %q: token %q has weight %v, want 0 to 1", t.info.Name, tok, w)
	}
	t.weights[i] = uint16(math.Round(float64(w) * math.MaxUint16))
	if len(v) != t.dim {
		return fmt.Errorf("embeddings %q: token %q has a vector of dimension %d, the first %d", t.info.Name, tok, len(v), t.dim)
	}
	for _, x := range v {
		if math.IsNaN(float64(x)) || math.IsInf(float64(x), 0) {
			return fmt.Errorf("embeddings %q: token %q (row %d) has a vector with %v", t.info.Name, tok, i, x)
		}
	}
	t.setRow(i, 1, v)
	return nil
}

// setRow stores w times v as row i's vector, in int8 with the row's scale.
func (t *Table) setRow(i int, w float32, v []float32) {
	var maxAbs float64
	for _, x := range v {
		maxAbs = max(maxAbs, math.Abs(float64(w)*float64(x)))
	}
	if maxAbs == 0 {
		return
	}
	scale := maxAbs / 127
	t.scales[i] = float32(scale)
	row := t.vecs[i*t.dim : (i+1)*t.dim]
	for j, x := range v {
		q := math.Round(float64(w) * float64(x) / scale)
		row[j] = byte(int8(max(-127, min(127, q))))
	}
}

// seal makes a table built in memory what it is once written and read:
// what pooling multiplies by, and the ID of its file.
func (t *Table) seal() error {
	t.prepare()
	h := sha256.New()
	if err := t.writePayload(h); err != nil {
		return err
	}
	t.id = tableID(t.info.Name, h.Sum(nil))
	return nil
}

// checkInfo refuses a name that cannot stand in an ID or a header.
func checkInfo(info Info) error {
	if info.Name == "" || len(info.Name) > 200 {
		return fmt.Errorf("embeddings: name %q: want 1 to 200 bytes", info.Name)
	}
	for _, r := range info.Name {
		if unicode.IsControl(r) || r == '@' {
			return fmt.Errorf("embeddings: name %q: no control character or @", info.Name)
		}
	}
	return nil
}

// tableID is "name@" and the first 12 hex digits of the file's SHA-256.
func tableID(name string, sum []byte) string {
	return name + "@" + hex.EncodeToString(sum)[:12]
}

// prepare computes what pooling multiplies each row by.
func (t *Table) prepare() {
	t.mul = make([]float32, t.voc.len())
	for i := range t.mul {
		t.mul[i] = float32(t.weights[i]) / math.MaxUint16 * t.scales[i]
	}
}

// ID is the table's name and the first 12 hex digits of its file's SHA-256.
func (t *Table) ID() string { return t.id }

// Dim is the dimension of the table's vectors.
func (t *Table) Dim() int { return t.dim }

// Len is the number of tokens the table knows.
func (t *Table) Len() int { return t.voc.len() }

// Token is row i's token (0 <= i < Len), for tools that walk the whole
// vocabulary, such as the model's nearest-neighbour check.
func (t *Table) Token(i int) string { return t.voc.token(i) }

// Info is what the table says of itself.
func (t *Table) Info() Info { return t.info }

// Lookup returns a token's vector (as stored, before any weight) and its
// weight, or ok false for a token the table does not know.
func (t *Table) Lookup(token string) (vec []float32, weight float32, ok bool) {
	r, ok := t.voc.row(token)
	if !ok {
		return nil, 0, false
	}
	vec = make([]float32, t.dim)
	s := t.scales[r]
	for j, q := range t.vecs[int(r)*t.dim : (int(r)+1)*t.dim] {
		vec[j] = float32(int8(q)) * s
	}
	return vec, float32(t.weights[r]) / math.MaxUint16, true
}

// Embed returns the unit-length vector of each text: the weighted mean of
// its tokens' vectors, or the zero vector when the table knows none of
// them.
func (t *Table) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	buf := make([]float32, len(texts)*t.dim)
	var (
		rows  []int32
		toks  []string
		piece []byte
	)
	for i, text := range texts {
		if i%64 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		if t.wp != nil {
			rows, toks, piece = t.wp.rows(rows[:0], text, toks, piece)
		} else {
			rows, toks = t.rows(rows[:0], text, toks)
		}
		v := buf[i*t.dim : (i+1)*t.dim : (i+1)*t.dim]
		t.pool(v, rows)
		out[i] = v
	}
	return out, nil
}

// rows appends the rows of the tokens of text (as Tokens cuts it) the
// table knows to dst.
func (t *Table) rows(dst []int32, text string, toks []string) ([]int32, []string) {
	toks = appendTokens(toks[:0], text)
	for _, tok := range toks {
		if r, ok := t.voc.row(tok); ok {
			dst = append(dst, r)
		}
	}
	return dst, toks
}

// pool adds the weighted vectors of rows into v, then normalises v.
func (t *Table) pool(v []float32, rows []int32) {
	d := t.dim
	for _, r := range rows {
		m := t.mul[r]
		if m == 0 {
			continue
		}
		row := t.vecs[int(r)*d : int(r)*d+d]
		row = row[:len(v)]
		for j, q := range row {
			v[j] += m * float32(int8(q))
		}
	}
	normalise(v)
}

// normalise scales v to unit length; the zero vector stays zero.
func normalise(v []float32) {
	var ss float64
	for _, x := range v {
		ss += float64(x) * float64(x)
	}
	if ss == 0 || math.IsNaN(ss) || math.IsInf(ss, 0) {
		clear(v)
		return
	}
	// Divided in float64: for a vector of subnormal parts 1/norm is past
	// float32's range, and a float32 factor would make it infinite.
	norm := math.Sqrt(ss)
	for j := range v {
		v[j] = float32(float64(v[j]) / norm)
	}
}
