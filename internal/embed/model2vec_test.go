package embed

import (
	"bytes"
	"context"
	"encoding/binary"
	"encoding/json"
	"errors"
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/planq-dev/planq/planqerr"
)

// st is a tensor to write into a safetensors file.
type st struct {
	name, dtype string
	shape       []int
	values      []float64 // converted to dtype
}

func encodeTensor(t testing.TB, x st) []byte {
	t.Helper()
	var b []byte
	for _, v := range x.values {
		switch x.dtype {
		case "F32":
			b = binary.LittleEndian.AppendUint32(b, math.Float32bits(float32(v)))
		case "F16":
			b = binary.LittleEndian.AppendUint16(b, floatToHalf(t, float32(v)))
		case "BF16":
			b = binary.LittleEndian.AppendUint16(b, uint16(math.Float32bits(float32(v))>>16))
		case "F64":
			b = binary.LittleEndian.AppendUint64(b, math.Float64bits(v))
		case "I8":
			b = append(b, byte(int8(v)))
		case "I32":
			b = binary.LittleEndian.AppendUint32(b, uint32(int32(v)))
		case "I64":
			b = binary.LittleEndian.AppendUint64(b, uint64(int64(v)))
		case "U8":
			b = append(b, byte(v))
		default:
			t.Fatalf("dtype %s", x.dtype)
		}
	}
	return b
}

// floatToHalf encodes f, which the test picks exactly representable.
func floatToHalf(t testing.TB, f float32) uint16 {
	bits := math.Float32bits(f)
	sign := uint16(bits>>16) & 0x8000
	if bits&0x7fffffff == 0 {
		return sign
	}
	exp := int(bits>>23&0xff) - 127 + 15
	if exp <= 0 || exp >= 31 || bits&0x1fff != 0 {
		t.Fatalf("%v is no normal half-precision number", f)
	}
	return sign | uint16(exp)<<10 | uint16(bits>>13&0x3ff)
}

func safetensorsBytes(t testing.TB, tensors ...st) []byte {
	t.Helper()
	header := map[string]any{"__metadata__": map[string]string{"format": "pt"}}
	var body []byte
	for _, x := range tensors {
		data := encodeTensor(t, x)
		header[x.name] = map[string]any{"dtype": x.dtype, "shape": x.shape, "data_offsets": []int{len(body), len(body) + len(data)}}
		body = append(body, data...)
	}
	h, err := json.Marshal(header)
	if err != nil {
		t.Fatal(err)
	}
	for len(h)%8 != 0 {
		h = append(h, ' ') // as the format's writers pad it
	}
	out := binary.LittleEndian.AppendUint64(nil, uint64(len(h)))
	return append(append(out, h...), body...)
}

// wordPieceJSON is a BERT-style tokenizer.json over vocab, with model
// fields changed by edit.
func wordPieceJSON(t testing.TB, vocab []string, edit func(tok map[string]any)) []byte {
	t.Helper()
	v := map[string]int{}
	for i, w := range vocab {
		v[w] = i
	}
	tok := map[string]any{
		"version":    "1.0",
		"truncation": nil,
		"added_tokens": []map[string]any{
			{"id": 0, "content": "[PAD]", "special": true},
			{"id": 1, "content": "[UNK]", "special": true},
		},
		"normalizer":     map[string]any{"type": "BertNormalizer", "clean_text": true, "handle_chinese_chars": true, "strip_accents": nil, "lowercase": true},
		"pre_tokenizer":  map[string]any{"type": "BertPreTokenizer"},
		"post_processor": map[string]any{"type": "TemplateProcessing"},
		"decoder":        map[string]any{"type": "WordPiece", "prefix": "##", "cleanup": true},
		"model": map[string]any{
			"type": "WordPiece", "unk_token": "[UNK]", "continuing_subword_prefix": "##",
			"max_input_chars_per_word": 100, "vocab": v,
		},
	}
	if edit != nil {
		edit(tok)
	}
	b, err := json.Marshal(tok)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

func writeModelDir(t testing.TB, dir string, safetensors, tokenizer []byte) string {
	t.Helper()
	if err := os.MkdirAll(dir, 0o755); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, Model2VecWeights), safetensors, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.WriteFile(filepath.Join(dir, Model2VecTokenizer), tokenizer, 0o644); err != nil {
		t.Fatal(err)
	}
	return dir
}

var testVocab = []string{"[PAD]", "[UNK]", "the", "data", "##base", "post", "##gres", "bill", "##ing", "invoice", "cafe", "##s"}

// testRows are the vectors of testVocab, all exact in half precision.
var testRows = [][]float64{
	{0, 0, 0}, {0, 0, 0},
	{0, 0, 1},
	{1, 0.5, 0}, {0.75, 0, 0.25},
	{1, 0.25, 0}, {0.5, 0, 0.125},
	{0, 1, 0}, {0.125, 0.5, 0},
	{0, 1, 0.25},
	{0.5, 0.5, 0.5}, {0, 0.0625, 0},
}

var testWeights = []float64{0, 0, 0.125, 1, 0.5, 1, 0.5, 1, 0.25, 1, 1, 0.5}

func flat(rows [][]float64) []float64 {
	var out []float64
	for _, r := range rows {
		out = append(out, r...)
	}
	return out
}

// want is the pooled vector of ids under testRows and weights (nil: 1).
func want(ids []int, weights []float64) []float32 {
	v := make([]float32, 3)
	for _, id := range ids {
		w := 1.0
		if weights != nil {
			w = weights[id]
		}
		for j := range v {
			v[j] += float32(w * testRows[id][j])
		}
	}
	normalise(v)
	return v
}

func closeTo(a, b []float32, tol float64) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range a {
		if math.Abs(float64(a[i]-b[i])) > tol {
			return false
		}
	}
	return true
}

func TestLoadModel2Vec(t *testing.T) {
	texts := map[string][]int{
		"The Database, Postgres!": {2, 3, 4, 5, 6}, // punctuation is unknown, and left out
		"Café bills":              {10, 7, 11},     // accents stripped, lowercased, ##s continues
		"databases\tbilling":      {3, 4, 11, 7, 8},
		"invoice databasex":       {9}, // a word with a piece no token matches is unknown whole
	}
	for _, dtype := range []string{"F32", "F16", "BF16", "F64"} {
		for _, weighted := range []bool{false, true} {
			t.Run(fmt.Sprintf("%s weighted=%v", dtype, weighted), func(t *testing.T) {
				tensors := []st{{"embeddings", dtype, []int{len(testVocab), 3}, flat(testRows)}}
				var weights []float64
				if weighted {
					weights = testWeights
					tensors = append(tensors, st{"weights", dtype, []int{len(testVocab)}, testWeights})
				}
				dir := writeModelDir(t, filepath.Join(t.TempDir(), "potion-test"), safetensorsBytes(t, tensors...), wordPieceJSON(t, testVocab, nil))
				m, err := LoadModel2Vec(dir)
				if err != nil {
					t.Fatal(err)
				}
				if m.Dim() != 3 || !strings.HasPrefix(m.ID(), "model2vec:potion-test@") {
					t.Errorf("Dim %d ID %q", m.Dim(), m.ID())
				}
				for text, ids := range texts {
					got := embedOne(t, m, text)
					if w := want(ids, weights); !closeTo(got, w, 1e-6) {
						t.Errorf("Embed(%q) = %v, want %v (tokens %v)", text, got, w, ids)
					}
				}
				for _, text := range []string{"", "unknown words", "!!! ,,,", "[UNK]"} {
					if v := embedOne(t, m, text); dot(v, v) != 0 {
						t.Errorf("Embed(%q) = %v, want zero", text, v)
					}
				}
			})
		}
	}
}

func TestLoadModel2VecWeightsChangeTheVector(t *testing.T) {
	plain := writeModelDir(t, filepath.Join(t.TempDir(), "m"), safetensorsBytes(t, st{"embeddings", "F32", []int{len(testVocab), 3}, flat(testRows)}), wordPieceJSON(t, testVocab, nil))
	weighted := writeModelDir(t, filepath.Join(t.TempDir(), "m"), safetensorsBytes(t,
		st{"embeddings", "F32", []int{len(testVocab), 3}, flat(testRows)},
		st{"weights", "F32", []int{len(testVocab)}, testWeights}), wordPieceJSON(t, testVocab, nil))
	a, err := LoadModel2Vec(plain)
	if err != nil {
		t.Fatal(err)
	}
	b, err := LoadModel2Vec(weighted)
	if err != nil {
		t.Fatal(err)
	}
	if closeTo(embedOne(t, a, "the invoice"), embedOne(t, b, "the invoice"), 1e-3) {
		t.Error("the weights do not change the vector")
	}
	if a.ID() == b.ID() {
		t.Errorf("two models, one ID %q", a.ID())
	}
}

func TestLoadModel2VecMappingSharesRows(t *testing.T) {
	// Vocabulary quantisation: tokens share rows through "mapping".
	rows := [][]float64{{1, 0, 0}, {0, 1, 0}}
	mapping := []float64{0, 0, 1, 0, 0, 0, 0, 1, 1, 1, 0, 0}
	for _, itype := range []string{"I64", "I32"} {
		dir := writeModelDir(t, filepath.Join(t.TempDir(), "m"), safetensorsBytes(t,
			st{"embeddings", "F32", []int{2, 3}, flat(rows)},
			st{"mapping", itype, []int{len(testVocab)}, mapping}), wordPieceJSON(t, testVocab, nil))
		m, err := LoadModel2Vec(dir)
		if err != nil {
			t.Fatal(err)
		}
		if got := embedOne(t, m, "billing invoice"); !closeTo(got, []float32{0, 1, 0}, 1e-6) {
			t.Errorf("%s: Embed(billing invoice) = %v, want row 1", itype, got)
		}
		if got := embedOne(t, m, "the data"); !closeTo(got, []float32{float32(math.Sqrt(0.5)), float32(math.Sqrt(0.5)), 0}, 1e-6) {
			t.Errorf("%s: Embed(the data) = %v, want rows 1 and 0", itype, got)
		}
	}
}

func TestLoadModel2VecWordLevel(t *testing.T) {
	vocab := []string{"[UNK]", "database", "postgres"}
	tok := wordPieceJSON(t, vocab, func(tok map[string]any) {
		tok["model"] = map[string]any{"type": "WordLevel", "unk_token": "[UNK]", "vocab": map[string]int{"[UNK]": 0, "database": 1, "postgres": 2}}
		tok["added_tokens"] = []any{}
		tok["normalizer"] = map[string]any{"type": "Sequence", "normalizers": []any{map[string]any{"type": "NFD"}, map[string]any{"type": "Lowercase"}, map[string]any{"type": "StripAccents"}}}
		tok["pre_tokenizer"] = map[string]any{"type": "Whitespace"}
	})
	dir := writeModelDir(t, filepath.Join(t.TempDir(), "m"), safetensorsBytes(t, st{"embeddings", "F32", []int{3, 2}, []float64{0, 0, 1, 0, 0, 1}}), tok)
	m, err := LoadModel2Vec(dir)
	if err != nil {
		t.Fatal(err)
	}
	if got := embedOne(t, m, "PostgreS, databases"); !closeTo(got, []float32{0, 1}, 1e-6) {
		t.Errorf("Embed = %v, want postgres's row alone", got)
	}
}

func TestLoadModel2VecRefusesMismatchesAndForeignTokenizers(t *testing.T) {
	emb := st{"embeddings", "F32", []int{len(testVocab), 3}, flat(testRows)}
	good := safetensorsBytes(t, emb)
	goodTok := wordPieceJSON(t, testVocab, nil)
	for _, c := range []struct {
		name      string
		st, tok   []byte
		want      string
		kind      planqerr.Kind
		wantHint  bool
		wantInErr string // the file the error names
	}{
		{"fewer rows than tokens", safetensorsBytes(t, st{"embeddings", "F32", []int{len(testVocab) - 1, 3}, flat(testRows[1:])}), goodTok,
			"11 rows of vectors, but the tokenizer has 12 tokens", planqerr.Invalid, true, Model2VecWeights},
		{"another tokenizer", good, wordPieceJSON(t, append(slices.Clone(testVocab), "extra"), nil),
			"12 rows of vectors, but the tokenizer has 13 tokens", planqerr.Invalid, true, Model2VecWeights},
		{"Unigram", good, wordPieceJSON(t, testVocab, func(tok map[string]any) {
			tok["model"] = map[string]any{"type": "Unigram", "unk_id": 0, "vocab": [][]any{{"<unk>", 0.0}, {"▁the", -1.5}}}
		}), "a Unigram tokenizer", planqerr.Invalid, true, Model2VecTokenizer},
		{"BPE", good, wordPieceJSON(t, testVocab, func(tok map[string]any) {
			tok["model"] = map[string]any{"type": "BPE", "vocab": map[string]int{"a": 0}, "merges": []string{}}
		}), "a BPE tokenizer", planqerr.Invalid, true, Model2VecTokenizer},
		{"Metaspace", good, wordPieceJSON(t, testVocab, func(tok map[string]any) {
			tok["pre_tokenizer"] = map[string]any{"type": "Metaspace", "replacement": "▁"}
		}), `a "Metaspace" pre_tokenizer`, planqerr.Invalid, true, Model2VecTokenizer},
		{"Precompiled", good, wordPieceJSON(t, testVocab, func(tok map[string]any) {
			tok["normalizer"] = map[string]any{"type": "Precompiled", "precompiled_charsmap": "AAAA"}
		}), `a "Precompiled" normalizer`, planqerr.Invalid, true, Model2VecTokenizer},
		{"ids with a gap", good, wordPieceJSON(t, testVocab, func(tok map[string]any) {
			tok["model"].(map[string]any)["vocab"] = map[string]int{"[PAD]": 0, "[UNK]": 1, "the": 20}
		}), "not numbered from 0", planqerr.Corrupt, false, Model2VecTokenizer},
		{"tokenizer not JSON", good, []byte("{"), "not a tokenizer.json", planqerr.Corrupt, false, Model2VecTokenizer},
		{"weights of another length", safetensorsBytes(t, emb, st{"weights", "F32", []int{5}, []float64{1, 1, 1, 1, 1}}), goodTok,
			`tensor "weights" of shape [5]`, planqerr.Invalid, true, Model2VecWeights},
		{"mapping out of range", safetensorsBytes(t, emb, st{"mapping", "I64", []int{len(testVocab)}, slices.Repeat([]float64{99}, len(testVocab))}), goodTok,
			"maps to row 99", planqerr.Invalid, true, Model2VecWeights},
		{"no embeddings", safetensorsBytes(t, st{"vectors", "F32", []int{len(testVocab), 3}, flat(testRows)}), goodTok,
			`no tensor "embeddings"`, planqerr.Invalid, true, Model2VecWeights},
		{"embeddings of bytes", safetensorsBytes(t, st{"embeddings", "U8", []int{len(testVocab), 3}, flat(testRows)}), goodTok,
			`no tensor "embeddings"`, planqerr.Invalid, true, Model2VecWeights},
		{"embeddings of integers", safetensorsBytes(t, st{"embeddings", "I32", []int{len(testVocab), 3}, flat(testRows)}), goodTok,
			"not of numbers planq reads as vectors", planqerr.Invalid, true, Model2VecWeights},
		{"embeddings of one dimension", safetensorsBytes(t, st{"embeddings", "F32", []int{36}, flat(testRows)}), goodTok,
			"shape [36]", planqerr.Invalid, true, Model2VecWeights},
		{"not safetensors", []byte("PQEMB1\nxxxxxxxxxxxxxxxxxxxx"), goodTok, "safetensors", planqerr.Corrupt, false, Model2VecWeights},
	} {
		dir := writeModelDir(t, filepath.Join(t.TempDir(), "m"), c.st, c.tok)
		_, err := LoadModel2Vec(dir)
		if err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error with %q", c.name, err, c.want)
			continue
		}
		if !strings.Contains(err.Error(), filepath.Join(dir, c.wantInErr)) {
			t.Errorf("%s: %v, want it to name %s", c.name, err, c.wantInErr)
		}
		if k := planqerr.KindOf(err); k != c.kind {
			t.Errorf("%s: kind %v, want %v", c.name, k, c.kind)
		}
		var pe *planqerr.Error
		if hasHint := errors.As(err, &pe) && pe.Hint != ""; hasHint != c.wantHint {
			t.Errorf("%s: hint %v, want a hint %v", c.name, hasHint, c.wantHint)
		}
	}
}

func TestLoadModel2VecMissingFiles(t *testing.T) {
	dir := t.TempDir()
	_, err := LoadModel2Vec(dir)
	if !planqerr.Is(err, planqerr.NotFound) || !strings.Contains(err.Error(), Model2VecWeights) {
		t.Errorf("an empty directory: %v", err)
	}
	if err := os.WriteFile(filepath.Join(dir, Model2VecWeights), safetensorsBytes(t), 0o644); err != nil {
		t.Fatal(err)
	}
	_, err = LoadModel2Vec(dir)
	if !planqerr.Is(err, planqerr.NotFound) || !strings.Contains(err.Error(), Model2VecTokenizer) {
		t.Errorf("no tokenizer.json: %v", err)
	}
}

func TestParseSafetensorsRefusesEveryTruncation(t *testing.T) {
	data := safetensorsBytes(t, st{"embeddings", "F16", []int{4, 2}, []float64{1, 2, 3, 4, 5, 6, 7, 8}}, st{"weights", "F32", []int{4}, []float64{1, 1, 1, 1}})
	if _, err := parseSafetensors(data); err != nil {
		t.Fatal(err)
	}
	for n := range len(data) {
		if _, err := parseSafetensors(data[:n]); err == nil {
			t.Fatalf("a file cut at byte %d of %d read without error", n, len(data))
		}
	}
	for _, c := range []struct {
		name, header, want string
	}{
		{"offsets beyond the file", `{"e":{"dtype":"F32","shape":[2],"data_offsets":[0,800]}}`, "truncated"},
		{"offsets backwards", `{"e":{"dtype":"F32","shape":[0],"data_offsets":[8,0]}}`, "data_offsets"},
		{"one offset", `{"e":{"dtype":"F32","shape":[2],"data_offsets":[8]}}`, "begin and end"},
		{"shape and size disagree", `{"e":{"dtype":"F32","shape":[3],"data_offsets":[0,8]}}`, "12 bytes"},
		{"absurd shape", `{"e":{"dtype":"F32","shape":[1099511627776,1099511627776],"data_offsets":[0,8]}}`, "larger than the file"},
		{"negative shape", `{"e":{"dtype":"F32","shape":[-2],"data_offsets":[0,8]}}`, "larger than the file"},
		{"not JSON", `{"e":`, "safetensors header"},
	} {
		b := binary.LittleEndian.AppendUint64(nil, uint64(len(c.header)))
		b = append(append(b, c.header...), make([]byte, 8)...)
		if _, err := parseSafetensors(b); err == nil || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v, want an error with %q", c.name, err, c.want)
		}
	}
	huge := binary.LittleEndian.AppendUint64(nil, 1<<62)
	if _, err := parseSafetensors(append(huge, "{}"...)); err == nil || !strings.Contains(err.Error(), "not a safetensors file") {
		t.Errorf("an absurd header length: %v", err)
	}
}

func TestHalfToFloat(t *testing.T) {
	for _, c := range []struct {
		h    uint16
		want float32
	}{
		{0x0000, 0}, {0x3c00, 1}, {0xc000, -2}, {0x3555, 0.333251953125}, {0x7bff, 65504},
		{0x0001, 1.0 / (1 << 24)}, {0x03ff, 1023.0 / (1 << 24)}, {0x0400, 1.0 / (1 << 14)},
		{0x7c00, float32(math.Inf(1))}, {0xfc00, float32(math.Inf(-1))},
	} {
		if got := halfToFloat(c.h); got != c.want {
			t.Errorf("halfToFloat(%#04x) = %v, want %v", c.h, got, c.want)
		}
	}
	if got := halfToFloat(0x7e00); !math.IsNaN(float64(got)) {
		t.Errorf("halfToFloat(NaN) = %v", got)
	}
}

func TestNormalizersAndPreTokenizers(t *testing.T) {
	if got := stripAccents("Café Ñandú Ελληνικά Ёлка naïve"); got != "Cafe Nandu Ελληνικα Елка naive" {
		t.Errorf("stripAccents = %q", got)
	}
	if got := cleanText("a\x00b\u200bc\td\u00a0e\ufffd"); got != "abc d e" {
		t.Errorf("cleanText = %q", got)
	}
	if got := padChinese("数据库ok"); got != " 数  据  库 ok" {
		t.Errorf("padChinese = %q", got)
	}
	if got := splitBert(nil, "hello, world! it's ok"); !slices.Equal(got, []string{"hello", ",", "world", "!", "it", "'", "s", "ok"}) {
		t.Errorf("splitBert = %q", got)
	}
	if got := splitWhitespaceRegexp(nil, "don't stop_now --x"); !slices.Equal(got, []string{"don", "'", "t", "stop_now", "--", "x"}) {
		t.Errorf("splitWhitespaceRegexp = %q", got)
	}
}

func TestModel2VecHonoursContext(t *testing.T) {
	dir := writeModelDir(t, filepath.Join(t.TempDir(), "m"), safetensorsBytes(t, st{"embeddings", "F32", []int{len(testVocab), 3}, flat(testRows)}), wordPieceJSON(t, testVocab, nil))
	m, err := LoadModel2Vec(dir)
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	cancel()
	if _, err := m.Embed(ctx, []string{"the"}); err == nil {
		t.Error("Embed with a cancelled context: no error")
	}
}

// BenchmarkLoadModel2Vec30MB loads a model2vec directory of 30 MB (the
// size of minishlab/potion-base-8M): what every process that searched read
// before a model was converted once to a table (BenchmarkLoadConverted30MB).
func BenchmarkLoadModel2Vec30MB(b *testing.B) {
	dir, size := model30MB(b)
	for b.Loop() {
		if _, err := LoadModel2Vec(dir); err != nil {
			b.Fatal(err)
		}
	}
	b.ReportMetric(float64(size)/1e6, "MB")
}

// model30MB writes a model2vec directory of 30,000 tokens of dimension 256
// in float32, with weights, and its tokenizer, and returns it and the size
// of its two files.
func model30MB(b *testing.B) (string, int64) {
	const n, dim = 30_000, 256
	vocab := make([]string, n)
	for i := range vocab {
		switch {
		case i == 0:
			vocab[i] = "[PAD]"
		case i == 1:
			vocab[i] = "[UNK]"
		case i%3 == 0:
			vocab[i] = "##" + tokenName(i)
		default:
			vocab[i] = tokenName(i)
		}
	}
	values := make([]float64, n*dim)
	for i := range values {
		values[i] = float64(i%1000)/1000 - 0.5
	}
	weights := make([]float64, n)
	for i := range weights {
		weights[i] = 1 / float64(1+i%7)
	}
	dir := writeModelDir(b, filepath.Join(b.TempDir(), "m"), safetensorsBytes(b,
		st{"embeddings", "F32", []int{n, dim}, values},
		st{"weights", "F32", []int{n}, weights}), wordPieceJSON(b, vocab, nil))
	var size int64
	for _, f := range []string{Model2VecWeights, Model2VecTokenizer} {
		fi, err := os.Stat(filepath.Join(dir, f))
		if err != nil {
			b.Fatal(err)
		}
		size += fi.Size()
	}
	return dir, size
}

func TestModel2VecIDFollowsContents(t *testing.T) {
	load := func(parent string, rows [][]float64) string {
		t.Helper()
		dir := writeModelDir(t, filepath.Join(parent, "potion"), safetensorsBytes(t, st{"embeddings", "F32", []int{len(testVocab), 3}, flat(rows)}), wordPieceJSON(t, testVocab, nil))
		m, err := LoadModel2Vec(dir)
		if err != nil {
			t.Fatal(err)
		}
		return m.ID()
	}
	a, b := load(t.TempDir(), testRows), load(t.TempDir(), testRows)
	changed := slices.Clone(testRows)
	changed[5] = []float64{1, 0.25, 0.0078125}
	c := load(t.TempDir(), changed)
	if a != b {
		t.Errorf("one model in two places: IDs %q and %q", a, b)
	}
	if a == c {
		t.Errorf("a vector changed, the ID did not: %q", a)
	}
}

func TestModel2VecLongWordsCostLinearTime(t *testing.T) {
	vocab := []string{"[PAD]", "[UNK]", "ab", "##ab"}
	tok := wordPieceJSON(t, vocab, func(tok map[string]any) {
		tok["model"].(map[string]any)["max_input_chars_per_word"] = 1 << 30
	})
	dir := writeModelDir(t, filepath.Join(t.TempDir(), "m"), safetensorsBytes(t, st{"embeddings", "F32", []int{4, 2}, []float64{0, 0, 0, 0, 1, 0, 0, 1}}), tok)
	m, err := LoadModel2Vec(dir)
	if err != nil {
		t.Fatal(err)
	}
	// One word of a million bytes: a longest-match search from its end
	// would take about 10^12 steps.
	start := time.Now()
	got := embedOne(t, m, strings.Repeat("ab", 500_000))
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("a word of 1 MB took %v", d)
	}
	// "ab" once, then "##ab" 499,999 times.
	norm := math.Sqrt(1 + 499_999.0*499_999)
	if want := []float32{float32(1 / norm), float32(499_999 / norm)}; !closeTo(got, want, 1e-6) {
		t.Errorf("Embed = %v, want %v", got, want)
	}

}

func FuzzModel2Vec(f *testing.F) {
	f.Add(safetensorsBytes(f, st{"embeddings", "F16", []int{len(testVocab), 3}, flat(testRows)}, st{"weights", "F32", []int{len(testVocab)}, testWeights}),
		wordPieceJSON(f, testVocab, nil))
	f.Add(safetensorsBytes(f, st{"embeddings", "F32", []int{2, 3}, []float64{1, 0, 0, 0, 1, 0}}, st{"mapping", "I32", []int{len(testVocab)}, slices.Repeat([]float64{1}, len(testVocab))}),
		wordPieceJSON(f, testVocab, func(tok map[string]any) { tok["pre_tokenizer"] = map[string]any{"type": "Whitespace"} }))
	f.Add(safetensorsBytes(f, st{"embeddings", "BF16", []int{3, 1}, []float64{1, 2, 3}}),
		[]byte(`{"model":{"type":"WordLevel","unk_token":"x","vocab":{"x":0,"y":1,"z":2}},"normalizer":{"type":"Lowercase"}}`))
	f.Fuzz(func(t *testing.T, weights, tokenizerJSON []byte) {
		tensors, err := parseSafetensors(weights)
		if err != nil {
			return
		}
		tok, err := parseTokenizer(tokenizerJSON)
		if err != nil {
			return
		}
		m := &Model2Vec{tok: tok}
		if err := m.setTensors(tensors); err != nil {
			return
		}
		texts := []string{"The Database, Postgres! Café bills", string(tokenizerJSON)}
		for r := range tok.voc.len() {
			w := tok.voc.token(r)
			texts = append(texts, w, "x"+w+"y")
		}
		checkUnit(t, m, texts)
		// Its table, written and read back, is one table, and embeds as
		// a model does.
		tab, err := m.table("fuzz")
		if err != nil {
			return
		}
		back, err := ReadTable(bytes.NewReader(tableBytes(t, tab)))
		if err != nil && tab.Len() > 0 || err == nil && back.ID() != tab.ID() {
			t.Fatalf("the converted table read back: %v, %v; written %s", back, err, tab.ID())
		}
		checkUnit(t, tab, texts)
	})
}

// checkUnit checks that m gives each text a vector of its dimension, of
// length one or zero.
func checkUnit(t *testing.T, m Model, texts []string) {
	t.Helper()
	vs, err := m.Embed(context.Background(), texts)
	if err != nil {
		t.Fatal(err)
	}
	for i, v := range vs {
		if len(v) != m.Dim() {
			t.Fatalf("text %d: a vector of %d, the model's dimension is %d", i, len(v), m.Dim())
		}
		if n := dot(v, v); n != 0 && math.Abs(n-1) > 1e-3 {
			t.Fatalf("text %d: a vector of squared length %v", i, n)
		}
	}
}
