package main

import (
	"fmt"
	"math"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/planq-dev/planq/internal/embed"
	"github.com/planq-dev/planq/scripts/model/wordnet"
)

// lexicon reads WordNet's four data files under dir and returns, for each
// word that is one planq token, the other such words WordNet relates it
// to: its synonyms, and the words the pointers named in symbols join
// (see wordnet.Pairs). With maxSense > 0, two words are related only
// through meanings among the maxSense most frequent of each (WordNet's
// index files order them): "password" and "word" share a synset, but it
// is the tenth meaning of "word". Lemmas with capitals (names: "Bill",
// "Mark") and lemmas of several tokens ("perk_up", "e-mail") are left
// out. Each list is sorted, without repeats and without the word itself.
func lexicon(dir string, symbols map[string]bool, maxSense int) (map[string][]string, error) {
	var all []wordnet.Synset
	rank := map[wordnet.Sense]int{}
	for _, pos := range []string{"noun", "verb", "adj", "adv"} {
		path := filepath.Join(dir, "data."+pos)
		f, err := os.Open(path)
		if err != nil {
			return nil, fmt.Errorf("failed to open WordNet: %w", err)
		}
		s, err := wordnet.Read(f)
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		all = append(all, s...)
		if maxSense <= 0 {
			continue
		}
		path = filepath.Join(dir, "index."+pos)
		if f, err = os.Open(path); err != nil {
			return nil, fmt.Errorf("failed to open WordNet: %w", err)
		}
		err = wordnet.ReadIndex(f, func(lemma string, k wordnet.Key, r int) { rank[wordnet.Sense{Lemma: lemma, Synset: k}] = r })
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
	}
	frequent := func(s wordnet.Sense) bool {
		r := rank[s]
		return maxSense <= 0 || r > 0 && r <= maxSense
	}
	token := func(lemma string) (string, bool) {
		ts := embed.Tokens(lemma)
		return lemma, len(ts) == 1 && ts[0] == lemma
	}
	sets := map[string]map[string]bool{}
	link := func(a, b string) {
		if sets[a] == nil {
			sets[a] = map[string]bool{}
		}
		sets[a][b] = true
	}
	wordnet.Pairs(all, symbols, func(sa, sb wordnet.Sense) {
		a, oka := token(sa.Lemma)
		b, okb := token(sb.Lemma)
		if !oka || !okb || a == b || !frequent(sa) || !frequent(sb) {
			return
		}
		link(a, b)
		link(b, a)
	})
	graph := make(map[string][]string, len(sets))
	for w, set := range sets {
		graph[w] = slices.Sorted(func(yield func(string) bool) {
			for v := range set {
				if !yield(v) {
					return
				}
			}
		})
	}
	return graph, nil
}

// retrofit pulls each row of x (n unit rows of dimension d, for toks)
// toward the rows of its lexicon neighbours, as Faruqui et al.'s
// retrofitting does (NAACL 2015): iters times, in row order, a row
// becomes (alpha·original + mean of its neighbours' current rows) /
// (alpha + 1), and is scaled back to unit length. Words without
// neighbours among toks keep their rows. It returns how many rows moved.
func retrofit(x []float64, n, d int, toks []string, graph map[string][]string, alpha float64, iters int) int {
	row := make(map[string]int, n)
	for i, t := range toks[:n] {
		row[t] = i
	}
	nbrs := make([][]int, n)
	moved := 0
	for i, t := range toks[:n] {
		for _, v := range graph[t] {
			if j, ok := row[v]; ok {
				nbrs[i] = append(nbrs[i], j)
			}
		}
		if len(nbrs[i]) > 0 {
			moved++
		}
	}
	orig := slices.Clone(x[:n*d])
	sum := make([]float64, d)
	for range iters {
		for i := range n {
			if len(nbrs[i]) == 0 {
				continue
			}
			clear(sum)
			for _, j := range nbrs[i] {
				for k, v := range x[j*d : (j+1)*d] {
					sum[k] += v
				}
			}
			m := float64(len(nbrs[i]))
			var norm float64
			for k := range sum {
				sum[k] = alpha*orig[i*d+k] + sum[k]/m
				norm += sum[k] * sum[k]
			}
			if norm == 0 {
				continue
			}
			norm = math.Sqrt(norm)
			for k, v := range sum {
				x[i*d+k] = v / norm
			}
		}
	}
	return moved
}

// normalise scales each of the n rows of x (dimension d) to unit length.
func normalise(x []float64, n, d int) {
	for i := range n {
		r := x[i*d : (i+1)*d]
		var norm float64
		for _, v := range r {
			norm += v * v
		}
		if norm == 0 {
			continue
		}
		norm = math.Sqrt(norm)
		for k := range r {
			r[k] /= norm
		}
	}
}

// symbolSet parses a comma-separated list of WordNet pointer symbols.
func symbolSet(list string) map[string]bool {
	set := map[string]bool{}
	for _, s := range strings.Split(list, ",") {
		if s = strings.TrimSpace(s); s != "" {
			set[s] = true
		}
	}
	return set
}
