// Command build turns fastText's word vectors into planq's default search
// model: it keeps the most frequent useful tokens, reduces their vectors
// to fewer dimensions by principal component analysis, gives each token a
// frequency weight (a/(a+p(w)), as smooth inverse frequency weighting
// does: words every text uses count little), quantises the vectors to int8
// with a scale per row, and writes the table.
//
//	go run ./scripts/model/build -vec model.vec -counts counts.tsv -out internal/embed/model/default.pqemb
package main

import (
	"bufio"
	"flag"
	"fmt"
	"math"
	"os"
	"strconv"
	"strings"

	"github.com/planq-dev/planq/internal/embed"
	"github.com/planq-dev/planq/scripts/model/sources"
)

type options struct {
	vec, counts, out string
	vocab, dim       int
	a                float64
	training         string
	wordnet          string  // WordNet's directory; empty: no retrofitting
	relations        string  // pointer symbols whose words are pulled together, besides synonyms
	iters            int     // retrofitting's rounds
	senses           int     // retrofitting: meanings of a word that count, most frequent first (0: all)
	alpha            float64 // how strongly a retrofitted row keeps its own vector
	inflectLinks     bool    // retrofitting: relate each inflected form to its lemma
	inflect          int     // inflected forms of kept lemmas to add, with the lemma's vector
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
	flag.StringVar(&o.wordnet, "wordnet", "", "WordNet's data directory: pull the vectors of the words it relates together (retrofitting)")
	flag.StringVar(&o.relations, "relations", "&,+", "WordNet pointer symbols whose words are pulled together, besides synonyms (& similar, + derived, @ hypernym, ~ hyponym)")
	flag.IntVar(&o.iters, "retrofit", 10, "rounds of retrofitting")
	flag.IntVar(&o.senses, "senses", 2, "retrofitting: relate words only through their this many most frequent meanings (0: all)")
	flag.Float64Var(&o.alpha, "alpha", 1, "retrofitting: weight of a word's own vector against its neighbours' mean")
	flag.BoolVar(&o.inflectLinks, "inflect-links", true, "retrofitting: relate each inflected form to its lemma (customers: customer)")
	flag.IntVar(&o.inflect, "inflect", 0, "add up to this many inflected forms that the texts lack, with their lemma's vector, most frequent lemmas first")
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
	var forms map[string]string // inflected form -> lemma
	if o.wordnet != "" {
		graph, err := lexicon(o.wordnet, symbolSet(o.relations), o.senses)
		if err != nil {
			return err
		}
		if o.inflectLinks || o.inflect > 0 {
			if forms, err = inflections(o.wordnet); err != nil {
				return err
			}
		}
		if o.inflectLinks {
			linkForms(graph, toks, forms)
		}
		normalise(vecs, n, d0)
		moved := retrofit(vecs, n, d0, toks, graph, o.alpha, o.iters)
		fmt.Fprintf(os.Stderr, "build: retrofitted %d of %d tokens to WordNet's %d words\n", moved, n, len(graph))
	}
	dirs, mean := pca(vecs, n, d0, o.dim)
	weights := make([]float32, n)
	reduced := make([][]float32, n)
	var kept, all float64
	for i := range n {
		x := vecs[i*d0 : (i+1)*d0]
		y := make([]float64, o.dim)
		for k, dir := range dirs {
			for j, v := range x {
				y[k] += (v - mean[j]) * dir[j]
			}
		}
		for j, v := range x {
			all += (v - mean[j]) * (v - mean[j])
		}
		for _, v := range y {
			kept += v * v
		}
		reduced[i] = unit(y)
		p := float64(counts[toks[i]]) / float64(total)
		weights[i] = float32(o.a / (o.a + p))
	}
	if o.inflect > 0 {
		var added int
		toks, weights, reduced, added = addForms(toks, weights, reduced, forms, o.inflect)
		fmt.Fprintf(os.Stderr, "build: added %d inflected forms with their lemma's vector\n", added)
	}
	t, err := embed.NewTable(info(o), toks, weights, reduced)
	if err != nil {
		return err
	}
	f, err := os.Create(o.out)
	if err != nil {
		return fmt.Errorf("failed to create %s: %w", o.out, err)
	}
	if err := embed.WriteTable(f, t); err != nil {
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

// unit returns y scaled to unit length, as float32: every token's vector
// has the same length, so that its weight alone says how much it counts
// in a text's vector.
func unit(y []float64) []float32 {
	var norm float64
	for _, v := range y {
		norm += v * v
	}
	out := make([]float32, len(y))
	if norm == 0 {
		return out
	}
	norm = math.Sqrt(norm)
	for i, v := range y {
		out[i] = float32(v / norm)
	}
	return out
}

func info(o options) embed.Info {
	in := embed.Info{
		Name: "planq-default",
		Licence: "word vectors learnt from the texts listed, each under its licence as its Debian " +
			"copyright file states it; the table holds statistics of their words, none of their text",
		Notes: o.training,
	}
	for _, s := range sources.Texts {
		in.Sources = append(in.Sources, fmt.Sprintf("Debian %s %s (%s)", s.Package, s.Version, s.Licence))
	}
	return in
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

// useful drops what a question never means and what the tokenizer never
// makes: fastText's end-of-line token,
// numbers of more than four digits (a port, a status or an error code has
// four at most), and hexadecimal strings that are hashes or addresses.
func useful(tok string) bool {
	if ts := embed.Tokens(tok); len(ts) == 0 || ts[0] != tok {
		return false // "</s>", or a token prep did not write
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
	return !hex || digits == 0 || len(tok) < 7
}
