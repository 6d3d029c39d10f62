// Command neighbours prints, for each word given, the tokens of a model
// table nearest to it by cosine, and for each pair a:b given with -pairs,
// how similar b is to a and where b ranks among a's neighbours: a quick
// look at whether the model learnt what words mean.
//
//	go run ./scripts/model/neighbours -model internal/embed/model/default.pqemb crash timeout
package main

import (
	"cmp"
	"flag"
	"fmt"
	"math"
	"os"
	"slices"
	"strings"

	"github.com/planq-dev/planq/internal/embed"
)

// defaultPairs are words a question and the record answering it might
// use for one thing; the first four are the ones the model is checked on
// by eye, the rest make the median rank a steadier figure.
const defaultPairs = "invoice:billing,flaky:intermittent,postgres:database,crash:panic," +
	"timeout:deadline,error:failure,delete:remove,slow:latency,login:authentication,config:settings," +
	"directory:folder,begin:start,kill:terminate,fast:quick,large:big,permission:access,password:credentials," +
	"query:sql,lock:mutex,install:setup,upgrade:update,deprecated:obsolete,exit:quit,server:daemon," +
	"encrypt:cipher,compress:gzip,parse:syntax,allocate:malloc,thread:concurrency,retry:again," +
	"bug:defect,cache:memoize,socket:network,user:account,leak:memory,hang:deadlock"

func main() {
	model := flag.String("model", "internal/embed/model/default.pqemb", "model table to read")
	k := flag.Int("k", 10, "neighbours to print per word")
	pairs := flag.String("pairs", defaultPairs, "comma-separated a:b pairs to score (empty: none)")
	flag.Parse()
	if err := run(*model, *k, *pairs, flag.Args()); err != nil {
		fmt.Fprintln(os.Stderr, "neighbours:", err)
		os.Exit(1)
	}
}

type model struct {
	dim  int
	row  map[string]int
	toks []string
	vecs []float32 // unit rows
}

func load(path string) (*model, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("failed to open the model: %w", err)
	}
	defer f.Close()
	t, err := embed.ReadTable(f)
	if err != nil {
		return nil, err
	}
	d := t.Dim()
	m := &model{dim: d, row: map[string]int{}, toks: make([]string, t.Len()), vecs: make([]float32, t.Len()*d)}
	for i := range t.Len() {
		tok := t.Token(i)
		m.toks[i], m.row[tok] = tok, i
		v, _, _ := t.Lookup(tok)
		var norm float64
		for _, x := range v {
			norm += float64(x) * float64(x)
		}
		for j, x := range v {
			if norm > 0 {
				m.vecs[i*d+j] = float32(float64(x) / math.Sqrt(norm))
			}
		}
	}
	return m, nil
}

func (m *model) vec(i int) []float32 { return m.vecs[i*m.dim : (i+1)*m.dim] }

func dot(a, b []float32) float64 {
	var s float64
	for i := range a {
		s += float64(a[i]) * float64(b[i])
	}
	return s
}

type scored struct {
	tok string
	cos float64
}

// nearest ranks every other token by cosine to tok's row.
func (m *model) nearest(i int) []scored {
	out := make([]scored, 0, len(m.toks)-1)
	for j, tok := range m.toks {
		if j != i {
			out = append(out, scored{tok, dot(m.vec(i), m.vec(j))})
		}
	}
	slices.SortFunc(out, func(a, b scored) int { return cmp.Or(cmp.Compare(b.cos, a.cos), strings.Compare(a.tok, b.tok)) })
	return out
}

func run(path string, k int, pairs string, words []string) error {
	m, err := load(path)
	if err != nil {
		return err
	}
	fmt.Printf("%s: %d tokens, dimension %d\n", path, len(m.toks), m.dim)
	for _, w := range words {
		w = strings.ToLower(w)
		i, ok := m.row[w]
		if !ok {
			fmt.Printf("%-14s (not in the vocabulary)\n", w)
			continue
		}
		var b strings.Builder
		for _, s := range m.nearest(i)[:min(k, len(m.toks)-1)] {
			fmt.Fprintf(&b, " %s %.2f", s.tok, s.cos)
		}
		fmt.Printf("%-14s%s\n", w, b.String())
	}
	if pairs == "" {
		return nil
	}
	var ranks []int
	var cosines float64
	for _, p := range strings.Split(pairs, ",") {
		a, b, ok := strings.Cut(p, ":")
		if !ok {
			return fmt.Errorf("pair %q is not a:b", p)
		}
		ia, oka := m.row[a]
		ib, okb := m.row[b]
		if !oka || !okb {
			fmt.Printf("%s -> %s: not both in the vocabulary (%s %v, %s %v)\n", a, b, a, oka, b, okb)
			continue
		}
		rank := slices.IndexFunc(m.nearest(ia), func(s scored) bool { return s.tok == b }) + 1
		cos := dot(m.vec(ia), m.vec(ib))
		ranks = append(ranks, rank)
		cosines += cos
		fmt.Printf("%s -> %s: cosine %.2f, rank %d of %d\n", a, b, cos, rank, len(m.toks)-1)
	}
	if len(ranks) > 0 {
		slices.Sort(ranks)
		fmt.Printf("pairs: %d in the vocabulary, median rank %d, mean cosine %.2f\n",
			len(ranks), ranks[len(ranks)/2], cosines/float64(len(ranks)))
	}
	return nil
}
