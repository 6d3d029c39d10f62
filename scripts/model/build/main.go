// Command build turns fastText's word vectors into planq's default search
// model: it keeps the most frequent useful tokens, reduces their vectors
// to fewer dimensions by principal component analysis, gives each token a
// frequency weight (a/(a+p(w)), as smooth inverse frequency weighting
// does: words every text uses count little), quantises the vectors to int8
// with a scale per row, and writes the table.
//
//	go run ./scripts/model/build -vec model.vec -counts counts.tsv -out embed/model/default.pqemb
package main

import (
	"bufio"
	"flag"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/planq-dev/planq/scripts/model/sources"
	"github.com/planq-dev/planq/scripts/model/table"
)

type options struct {
	vec, counts, out string
	vocab, dim       int
	a                float64
	training         string
}

func main() {
	var o options
	flag.StringVar(&o.vec, "vec", "model.vec", "fastText's word vectors (text .vec)")
	flag.StringVar(&o.counts, "counts", "counts.tsv", "token counts that prep wrote")
	flag.StringVar(&o.out, "out", "default.pqemb", "table to write")
	flag.IntVar(&o.vocab, "vocab", 60000, "tokens to keep, most frequent first")
	flag.IntVar(&o.dim, "dim", 96, "dimension to reduce the vectors to")
	flag.Float64Var(&o.a, "a", 1e-3, "smooth inverse frequency constant: a token's weight is a/(a+p(token))")
	flag.StringVar(&o.training, "training", "", "how the vectors were trained, recorded in the header")
	flag.Parse()
	if err := run(o); err != nil {
		fmt.Fprintln(os.Stderr, "build:", err)
		os.Exit(1)
	}
}

func run(o options) error {
	counts, total, err := readCounts(o.counts)
	if err != nil {
		return err
	}
	toks, vecs, d0, err := readVec(o.vec, o.vocab)
	if err != nil {
		return err
	}
	if o.dim > d0 {
		return fmt.Errorf("cannot reduce %d dimensions to %d", d0, o.dim)
	}
	n := len(toks)
	dirs, mean := pca(vecs, n, d0, o.dim)
	t := &table.Table{
		Header:  header(o),
		Tokens:  toks,
		Weights: make([]float32, n),
		Scales:  make([]float32, n),
		Vectors: make([]int8, n*o.dim),
	}
	t.Header.Dim = o.dim
	var kept, all float64
	y := make([]float64, o.dim)
	for i := range n {
		x := vecs[i*d0 : (i+1)*d0]
		var norm float64
		for k, dir := range dirs {
			var s float64
			for j, v := range x {
				s += (v - mean[j]) * dir[j]
			}
			y[k] = s
			norm += s * s
		}
		for j, v := range x {
			all += (v - mean[j]) * (v - mean[j])
		}
		kept += norm
		t.Scales[i] = quantise(y, math.Sqrt(norm), t.Vectors[i*o.dim:(i+1)*o.dim])
		p := float64(counts[toks[i]]) / float64(total)
		t.Weights[i] = float32(o.a / (o.a + p))
	}
	f, err := os.Create(o.out)
	if err != nil {
		return fmt.Errorf("failed to create %s: %w", o.out, err)
	}
	if err := table.Write(f, t); err != nil {
		f.Close()
		return err
	}
	if err := f.Close(); err != nil {
		return fmt.Errorf("failed to write %s: %w", o.out, err)
	}
	st, err := os.Stat(o.out)
	if err != nil {
		return fmt.Errorf("failed to write %s: %w", o.out, err)
	}
	fmt.Fprintf(os.Stderr, "build: %d tokens, %d -> %d dimensions (%.1f%% of the variance kept), %d bytes\n",
		n, d0, o.dim, 100*kept/all, st.Size())
	return nil
}

// quantise writes y, scaled to unit length, as int8 values in q and
// returns the scale that turns them back (q[i]*scale ≈ y[i]/|y|).
func quantise(y []float64, norm float64, q []int8) float32 {
	if norm == 0 {
		return 0
	}
	var big float64
	for _, v := range y {
		big = max(big, math.Abs(v/norm))
	}
	scale := big / 127
	for i, v := range y {
		q[i] = int8(math.Round(v / norm / scale))
	}
	return float32(scale)
}

func header(o options) table.Header {
	h := table.Header{
		Name:     "planq-default",
		Training: o.training,
		Licence: "Word vectors learnt from the texts listed, under their licences as Debian's copyright " +
			"files state them; the table holds statistics of their words, none of their text.",
	}
	for _, s := range sources.Texts {
		h.Sources = append(h.Sources, table.Source{Package: s.Package, Version: s.Version, Licence: s.Licence})
	}
	return h
}

// readCounts reads prep's token counts and their total.
func readCounts(path string) (map[string]int, int, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, 0, fmt.Errorf("failed to open the token counts: %w", err)
	}
	defer f.Close()
	counts := map[string]int{}
	total := 0
	sc := bufio.NewScanner(f)
	for sc.Scan() {
		tok, n, ok := strings.Cut(sc.Text(), "\t")
		c, err := strconv.Atoi(n)
		if !ok || err != nil {
			return nil, 0, fmt.Errorf("%s: bad line %q", path, sc.Text())
		}
		counts[tok] = c
		total += c
	}
	if err := sc.Err(); err != nil {
		return nil, 0, fmt.Errorf("failed to read the token counts: %w", err)
	}
	if total == 0 {
		return nil, 0, fmt.Errorf("%s: no tokens", path)
	}
	return counts, total, nil
}

// readVec reads fastText's text vectors (a "count dimension" line, then
// "token v1 ... vd" per token, most frequent first) and keeps the first
// limit useful tokens.
func readVec(path string, limit int) (toks []string, vecs []float64, dim int, err error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, nil, 0, fmt.Errorf("failed to open the word vectors: %w", err)
	}
	defer f.Close()
	sc := bufio.NewScanner(f)
	sc.Buffer(make([]byte, 1<<20), 1<<20)
	if !sc.Scan() {
		return nil, nil, 0, fmt.Errorf("%s: empty", path)
	}
	head := strings.Fields(sc.Text())
	if len(head) != 2 {
		return nil, nil, 0, fmt.Errorf("%s: bad first line %q", path, sc.Text())
	}
	if dim, err = strconv.Atoi(head[1]); err != nil || dim <= 0 {
		return nil, nil, 0, fmt.Errorf("%s: bad dimension %q", path, head[1])
	}
	for sc.Scan() && len(toks) < limit {
		fields := strings.Fields(sc.Text())
		if len(fields) != dim+1 {
			return nil, nil, 0, fmt.Errorf("%s: line for %q has %d values, want %d", path, fields[0], len(fields)-1, dim)
		}
		if !useful(fields[0]) {
			continue
		}
		for _, s := range fields[1:] {
			v, err := strconv.ParseFloat(s, 64)
			if err != nil {
				return nil, nil, 0, fmt.Errorf("%s: %q: %w", path, fields[0], err)
			}
			vecs = append(vecs, v)
		}
		toks = append(toks, fields[0])
	}
	if err := sc.Err(); err != nil {
		return nil, nil, 0, fmt.Errorf("failed to read the word vectors: %w", err)
	}
	return toks, vecs, dim, nil
}

// useful drops what a question never means: fastText's end-of-line token,
// numbers of more than four digits (a port, a status or an error code has
// four at most), and hexadecimal strings that are hashes or addresses.
func useful(tok string) bool {
	if tok == "</s>" || len(tok) > 40 {
		return false
	}
	digits, hex := 0, true
	for _, r := range tok {
		switch {
		case r >= '0' && r <= '9':
			digits++
		case r >= 'a' && r <= 'f':
		default:
			hex = false
		}
	}
	if digits == len(tok) {
		return digits <= 4
	}
	return !(hex && digits > 0 && len(tok) >= 7)
}
