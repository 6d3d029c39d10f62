package embed

import (
	"context"
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"hash/crc32"
	"io"
	"io/fs"
	"math"
	"os"
	"path/filepath"

	"github.com/planq-dev/planq/planqerr"
)

// The files of a model2vec model directory that planq reads.
const (
	Model2VecWeights   = "model.safetensors"
	Model2VecTokenizer = "tokenizer.json"
)

// Bounds on a model2vec directory's files, far above real models (a
// multilingual model2vec model of float32 vectors is about 500 MB).
const (
	maxModelFile     = 4 << 30
	maxTokenizerFile = 256 << 20
)

// Model2Vec is a static embedding model in model2vec's layout: the
// directory's model.safetensors holds a vector per token ("embeddings",
// vocabulary × dimension, of F32, F16, BF16, F64 or I8), optionally a
// weight per token ("weights") and a row per token ("mapping", when tokens
// share rows), and its tokenizer.json the WordPiece (or WordLevel)
// tokenizer that cuts text into those tokens. A text's vector is the mean
// of its tokens' weighted vectors, normalised, as model2vec computes it;
// tokens the tokenizer does not know are left out. A Model2Vec is safe for
// concurrent use.
type Model2Vec struct {
	id      string
	dim     int
	tok     *tokenizer
	vecs    []float32 // rows × dim
	weights []float32 // per token id; nil: all 1
	mapping []int32   // token id -> row; nil: the id is the row
}

var _ Model = (*Model2Vec)(nil)

// LoadModel2Vec reads the model2vec model in dir, in pure Go. A missing,
// damaged or foreign file, a tokenizer planq cannot reproduce, or a
// tokenizer of another vocabulary than the vectors' is an error that names
// the file.
func LoadModel2Vec(dir string) (*Model2Vec, error) {
	abs, err := filepath.Abs(dir)
	if err != nil {
		return nil, fmt.Errorf("failed to load the model in %s: %w", dir, err)
	}
	wpath, tpath := filepath.Join(abs, Model2VecWeights), filepath.Join(abs, Model2VecTokenizer)
	wdata, err := readBounded(wpath, maxModelFile)
	if err != nil {
		return nil, err
	}
	tdata, err := readBounded(tpath, maxTokenizerFile)
	if err != nil {
		return nil, err
	}

	tok, err := parseTokenizer(tdata)
	if err != nil {
		pe := planqerr.New(planqerr.Invalid, tpath, "%w", err)
		var unsupported errUnsupported
		if errors.As(err, &unsupported) {
			return nil, pe.WithHint("pick a model2vec model distilled from a BERT-style model (its tokenizer.json has a WordPiece model), or an embeddings endpoint")
		}
		pe.Kind = planqerr.Corrupt
		return nil, pe
	}
	tensors, err := parseSafetensors(wdata)
	if err != nil {
		return nil, planqerr.New(planqerr.Corrupt, wpath, "%w", err)
	}
	m := &Model2Vec{tok: tok}
	if err := m.setTensors(tensors); err != nil {
		var nf *notFiniteError
		if errors.As(err, &nf) {
			return nil, planqerr.New(planqerr.Corrupt, wpath, "%w", err).
				WithHint("its vectors are damaged: use a sound copy of the model, or search by words alone with search: {model: none} in .planq/config")
		}
		return nil, planqerr.New(planqerr.Invalid, wpath, "%w", err).
			WithHint("model.safetensors and tokenizer.json must come from one model2vec model")
	}

	m.id = "model2vec:" + filepath.Base(abs) + "@" + contentsHash(wdata, tdata)
	return m, nil
}

// contentsHash names the contents of a model's files: a SHA-256 of the
// tokenizer, of the safetensors header (names, shapes, dtypes) and of a
// CRC-32C of the tensors' bytes, 12 hex digits of it. Hashing the tensors
// with SHA-256 would cost more than all the rest of loading them; a
// checksum tells a changed model from the same one all the same.
func contentsHash(safetensors, tokenizer []byte) string {
	h := sha256.New()
	var n [8]byte
	for _, d := range [][]byte{tokenizer, safetensors} {
		binary.LittleEndian.PutUint64(n[:], uint64(len(d)))
		h.Write(n[:])
	}
	h.Write(tokenizer)
	header := safetensors[8 : 8+binary.LittleEndian.Uint64(safetensors)] // checked by parseSafetensors
	h.Write(header)
	binary.LittleEndian.PutUint32(n[:], crc32.Checksum(safetensors[8+len(header):], crc32.MakeTable(crc32.Castagnoli)))
	h.Write(n[:4])
	return hex.EncodeToString(h.Sum(nil))[:12]
}

// readBounded reads a whole file of at most limit bytes.
func readBounded(path string, limit int64) ([]byte, error) {
	f, err := os.Open(path)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, planqerr.New(planqerr.NotFound, path, "no such file").
			WithHint("a model2vec model is a directory with %s and %s", Model2VecWeights, Model2VecTokenizer)
	}
	if err != nil {
		return nil, fmt.Errorf("failed to open a model file: %w", err)
	}
	defer f.Close()
	fi, err := f.Stat()
	if err != nil {
		return nil, fmt.Errorf("failed to read %s: %w", path, err)
	}
	if fi.Size() > limit {
		return nil, planqerr.New(planqerr.Invalid, path, "%d bytes, more than the %d MiB planq reads", fi.Size(), limit>>20)
	}
	data := make([]byte, fi.Size())
	if _, err := io.ReadFull(f, data); err != nil {
		return nil, fmt.Errorf("failed to read %s: %w", path, err)
	}
	return data, nil
}

// setTensors takes the model's vectors, weights and mapping from tensors,
// and checks that they fit each other and the tokenizer.
func (m *Model2Vec) setTensors(tensors map[string]tensor) error {
	rows, err := m.setVectors(tensors)
	if err != nil {
		return err
	}
	if mt, ok := tensors["mapping"]; ok {
		if err := m.setMapping(mt, rows); err != nil {
			return err
		}
	} else if rows != m.tok.size {
		return fmt.Errorf("%d rows of vectors, but the tokenizer has %d tokens: they are not one model's", rows, m.tok.size)
	}
	wt, ok := tensors["weights"]
	if !ok {
		return nil
	}
	if len(wt.shape) != 1 || wt.shape[0] != m.tok.size {
		return fmt.Errorf(`tensor "weights" of shape %v: the tokenizer has %d tokens`, wt.shape, m.tok.size)
	}
	if m.weights, err = wt.floats(); err != nil {
		return fmt.Errorf(`tensor "weights": %w`, err)
	}
	if i := firstNotFinite(m.weights); i >= 0 {
		return &notFiniteError{tensor: "weights", row: i, column: -1, value: m.weights[i], token: m.tok.token(int32(i))}
	}
	return nil
}

func (m *Model2Vec) setVectors(tensors map[string]tensor) (int, error) {
	emb, ok := tensors["embeddings"]
	if !ok {
		emb, ok = tensors["embedding.weight"] // sentence-transformers' name for the same
	}
	if !ok {
		return 0, errors.New(`no tensor "embeddings" of a type planq reads`)
	}
	if len(emb.shape) != 2 || emb.shape[0] < 1 || emb.shape[1] < 1 || emb.shape[1] > MaxDim {
		return 0, fmt.Errorf(`tensor "embeddings" of shape %v: want rows × dimension, dimension at most %d`, emb.shape, MaxDim)
	}
	rows, dim := emb.shape[0], emb.shape[1]
	vecs, err := emb.floats()
	if err != nil {
		return 0, fmt.Errorf(`tensor "embeddings": %w`, err)
	}
	if i := firstNotFinite(vecs); i >= 0 {
		nf := &notFiniteError{tensor: "embeddings", row: i / dim, column: i % dim, value: vecs[i]}
		if _, ok := tensors["mapping"]; !ok {
			nf.token = m.tok.token(int32(nf.row))
		}
		return 0, nf
	}
	m.vecs, m.dim = vecs, dim
	return rows, nil
}

func (m *Model2Vec) setMapping(mt tensor, rows int) error {
	if len(mt.shape) != 1 || mt.shape[0] != m.tok.size {
		return fmt.Errorf(`tensor "mapping" of shape %v: the tokenizer has %d tokens`, mt.shape, m.tok.size)
	}
	ids, err := mt.ints()
	if err != nil {
		return fmt.Errorf(`tensor "mapping": %w`, err)
	}
	m.mapping = make([]int32, len(ids))
	for i, r := range ids {
		if r < 0 || r >= int64(rows) {
			return fmt.Errorf(`tensor "mapping": token %d maps to row %d of %d`, i, r, rows)
		}
		m.mapping[i] = int32(r)
	}
	return nil
}

// notFiniteError is a NaN or an infinity among a model's numbers. Loaded,
// it would make the vector of every text that uses its token NaN, which
// normalising turns to the zero vector: those texts would silently never
// be found by their meaning.
type notFiniteError struct {
	tensor string
	row    int
	column int // -1 for a tensor of one number per row
	value  float32
	token  string // "" when unknown
}

func (e *notFiniteError) Error() string {
	at := fmt.Sprintf("row %d", e.row)
	if e.token != "" {
		at += fmt.Sprintf(" (token %q)", e.token)
	}
	if e.column >= 0 {
		at += fmt.Sprintf(", column %d,", e.column)
	}
	return fmt.Sprintf("tensor %q: %s holds %v: a model's numbers are finite", e.tensor, at, e.value)
}

// token is the token of id, for a message; "" when the vocabulary has
// none (an added token).
func (t *tokenizer) token(id int32) string {
	for r, i := range t.id {
		if i == id {
			return t.voc.token(r)
		}
	}
	return ""
}

// firstNotFinite is the index of the first NaN or infinity in xs, or -1.
// A float32 that overflowed converting from F64 is an infinity too.
func firstNotFinite(xs []float32) int {
	for i, x := range xs {
		if f := float64(x); math.IsNaN(f) || math.IsInf(f, 0) {
			return i
		}
	}
	return -1
}

// ID is "model2vec:", the directory's name, "@" and 12 hex digits that
// follow its files' contents.
func (m *Model2Vec) ID() string { return m.id }

// Dim is the dimension of the model's vectors.
func (m *Model2Vec) Dim() int { return m.dim }

// Embed returns the unit-length vector of each text, or the zero vector
// for a text with no token the model knows.
func (m *Model2Vec) Embed(ctx context.Context, texts []string) ([][]float32, error) {
	out := make([][]float32, len(texts))
	buf := make([]float32, len(texts)*m.dim)
	var (
		rows  []int32
		words []string
		piece []byte
	)
	for i, text := range texts {
		if i%64 == 0 {
			if err := ctx.Err(); err != nil {
				return nil, err
			}
		}
		rows, words, piece = m.tok.rows(rows[:0], text, words, piece)
		v := buf[i*m.dim : (i+1)*m.dim : (i+1)*m.dim]
		for _, r := range rows {
			w, row := m.vector(m.tok.id[r])
			row = row[:len(v)]
			for j, x := range row {
				v[j] += w * x
			}
		}
		normalise(v)
		out[i] = v
	}
	return out, nil
}

// vector is the weight and the vector of the token of id.
func (m *Model2Vec) vector(id int32) (float32, []float32) {
	w := float32(1)
	if m.weights != nil {
		w = m.weights[id]
	}
	r := int(id)
	if m.mapping != nil {
		r = int(m.mapping[id])
	}
	return w, m.vecs[r*m.dim : (r+1)*m.dim]
}
