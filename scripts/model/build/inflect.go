package main

import (
	"bufio"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"slices"
	"strings"

	"github.com/planq-dev/planq/internal/embed"
	"github.com/planq-dev/planq/scripts/model/wordnet"
)

// inflections returns, for the inflected forms of WordNet's one-token
// lemmas, the lemma each comes from: the plurals of nouns, the -s, -ed
// and -ing forms of verbs, by English's regular rules and by WordNet's
// lists of exceptions (the exc files: "stopped stop", "mice mouse"),
// which alone give adjectives' forms ("bigger big"). planq does not stem
// what it looks up, so "alerts" is a token of its own, which the texts may
// never use. A form that is itself a lemma ("building", "glasses") or
// that comes from two lemmas is left out: it has meanings of its own.
func inflections(dir string) (map[string]string, error) {
	lemmas := map[string]byte{} // lemma -> part of speech, the first met
	var order []string
	for _, pos := range []string{"noun", "verb", "adj", "adv"} {
		path := filepath.Join(dir, "data."+pos)
		f, err := os.Open(path)
		if err != nil {
			return nil, fmt.Errorf("failed to open WordNet: %w", err)
		}
		synsets, err := wordnet.Read(f)
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
		for _, s := range synsets {
			p := s.POS
			if p == 's' {
				p = 'a'
			}
			for _, w := range s.Words {
				if ts := embed.Tokens(w.Lemma); len(ts) != 1 || ts[0] != w.Lemma {
					continue
				}
				if _, ok := lemmas[w.Lemma+string(p)]; !ok {
					lemmas[w.Lemma+string(p)] = p
					order = append(order, w.Lemma+string(p))
				}
			}
		}
	}
	isLemma := map[string]bool{}
	for _, k := range order {
		isLemma[k[:len(k)-1]] = true
	}
	irregular := map[string][]string{} // lemma+pos -> forms
	for _, pos := range []string{"noun", "verb", "adj"} {
		path := filepath.Join(dir, pos+".exc")
		f, err := os.Open(path)
		if err != nil {
			return nil, fmt.Errorf("failed to open WordNet: %w", err)
		}
		err = readExceptions(f, func(form, base string) {
			k := base + string(pos[0])
			irregular[k] = append(irregular[k], form)
		})
		f.Close()
		if err != nil {
			return nil, fmt.Errorf("%s: %w", path, err)
		}
	}
	out := map[string]string{}
	twice := map[string]bool{}
	add := func(form, base string) {
		if form == base || isLemma[form] || twice[form] {
			return
		}
		if ts := embed.Tokens(form); len(ts) != 1 || ts[0] != form {
			return
		}
		if b, ok := out[form]; ok && b != base {
			delete(out, form)
			twice[form] = true
			return
		}
		out[form] = base
	}
	for _, k := range order {
		base, pos := k[:len(k)-1], k[len(k)-1]
		exc := irregular[k]
		for _, f := range exc {
			add(f, base)
		}
		for _, f := range regularForms(base, pos, exc) {
			add(f, base)
		}
	}
	return out, nil
}

// regularForms returns a lemma's inflected forms by the regular rules:
// a noun's plural; a verb's -s, -ed and -ing forms, the -ing form only
// when the exceptions (exc) give none ("stop": stopping), the -ed form
// only when they give no other ("build": built; "run": ran).
func regularForms(lemma string, pos byte, exc []string) []string {
	switch pos {
	case 'n':
		return []string{plural(lemma)}
	case 'v':
		s := plural(lemma)
		forms := []string{s}
		if !slices.ContainsFunc(exc, func(f string) bool { return f != s && !strings.HasSuffix(f, "ing") }) {
			forms = append(forms, past(lemma))
		}
		if !slices.ContainsFunc(exc, func(f string) bool { return strings.HasSuffix(f, "ing") }) {
			forms = append(forms, gerund(lemma))
		}
		return forms
	}
	return nil
}

func consonantY(w string) bool {
	return len(w) >= 2 && w[len(w)-1] == 'y' && !strings.ContainsRune("aeiou", rune(w[len(w)-2]))
}

func plural(w string) string {
	switch {
	case strings.HasSuffix(w, "s") || strings.HasSuffix(w, "x") || strings.HasSuffix(w, "z") ||
		strings.HasSuffix(w, "ch") || strings.HasSuffix(w, "sh"):
		return w + "es"
	case consonantY(w):
		return w[:len(w)-1] + "ies"
	}
	return w + "s"
}

func past(w string) string {
	switch {
	case strings.HasSuffix(w, "e"):
		return w + "d"
	case consonantY(w):
		return w[:len(w)-1] + "ied"
	}
	return w + "ed"
}

func gerund(w string) string {
	switch {
	case strings.HasSuffix(w, "ie"):
		return w[:len(w)-2] + "ying"
	case strings.HasSuffix(w, "e") && !strings.HasSuffix(w, "ee") && !strings.HasSuffix(w, "oe") &&
		!strings.HasSuffix(w, "ye") && len(w) > 2:
		return w[:len(w)-1] + "ing"
	}
	return w + "ing"
}

// readExceptions reads a WordNet exception list ("form base [base...]" a
// line) and calls pair for each form and base.
func readExceptions(r io.Reader, pair func(form, base string)) error {
	sc := bufio.NewScanner(r)
	n := 0
	for sc.Scan() {
		n++
		f := strings.Fields(sc.Text())
		if len(f) == 0 {
			continue
		}
		if len(f) < 2 {
			return fmt.Errorf("line %d: no base form: %q", n, sc.Text())
		}
		for _, b := range f[1:] {
			pair(f[0], b)
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("failed to read a WordNet exception list: %w", err)
	}
	return nil
}

// linkForms relates, in graph, each of toks that is an inflected form to
// its lemma when the lemma is one of toks too.
func linkForms(graph map[string][]string, toks []string, forms map[string]string) {
	have := make(map[string]bool, len(toks))
	for _, t := range toks {
		have[t] = true
	}
	for _, t := range toks {
		if b, ok := forms[t]; ok && have[b] {
			graph[t] = append(graph[t], b)
			graph[b] = append(graph[b], t)
		}
	}
}

// addForms appends up to limit inflected forms that toks lack, each with
// its lemma's vector and weight, taking lemmas in the order of toks (most
// frequent first) and each lemma's forms in byte order.
func addForms(toks []string, weights []float32, vecs [][]float32, forms map[string]string, limit int) ([]string, []float32, [][]float32, int) {
	byLemma := map[string][]string{}
	have := make(map[string]bool, len(toks))
	for _, t := range toks {
		have[t] = true
	}
	for f, b := range forms {
		if !have[f] {
			byLemma[b] = append(byLemma[b], f)
		}
	}
	added := 0
	n := len(toks)
	for i := 0; i < n && added < limit; i++ {
		fs := byLemma[toks[i]]
		slices.Sort(fs)
		for _, f := range fs {
			if added == limit {
				break
			}
			toks = append(toks, f)
			weights = append(weights, weights[i])
			vecs = append(vecs, vecs[i])
			added++
		}
	}
	return toks, weights, vecs, added
}
