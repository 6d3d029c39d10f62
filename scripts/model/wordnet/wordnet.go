// Package wordnet reads the data files of the WordNet 3.0 database
// (data.noun, data.verb, data.adj, data.adv, as Debian's wordnet-base
// installs them; their format is wndb(5WN)): each synset's words, its
// pointers to other synsets and its gloss. planq's model training writes
// the synsets as text and pulls the vectors of related words together.
package wordnet

import (
	"bufio"
	"fmt"
	"io"
	"strconv"
	"strings"
)

// Synset is one line of a data file: a set of words that share a meaning.
type Synset struct {
	Offset   int    // byte offset of the line in its file: the synset's id within its part of speech
	POS      byte   // n, v, a, s (adjective satellite) or r
	Words    []Word // in the file's order; a pointer's word numbers count from 1 over these
	Pointers []Pointer
	Gloss    string // definition and examples, as written
}

// Word is a synset's word as the lexicographer wrote it: spaces as
// underscores, case kept, an adjective's syntactic marker ("(p)") dropped.
type Word struct {
	Lemma string
	LexID int
}

// Pointer is a relation from a synset, or from one of its words, to
// another synset or one of its words.
type Pointer struct {
	Symbol string // "@" hypernym, "~" hyponym, "&" similar to, "+" derivationally related, "!" antonym, ...
	Offset int
	POS    byte // n, v, a, s or r
	Source int  // word number in this synset, from 1; 0: the whole synset
	Target int  // word number in the target synset, from 1; 0: the whole synset
}

// Semantic reports whether p relates whole synsets rather than two words.
func (p Pointer) Semantic() bool { return p.Source == 0 && p.Target == 0 }

// Key names a synset across the four data files.
type Key struct {
	POS    byte // a satellite's s is folded into a: both live in data.adj
	Offset int
}

// KeyOf returns the key of the synset at offset in the file of pos.
func KeyOf(pos byte, offset int) Key {
	if pos == 's' {
		pos = 'a'
	}
	return Key{pos, offset}
}

// Key returns s's key.
func (s Synset) Key() Key { return KeyOf(s.POS, s.Offset) }

// Read reads every synset of a data file, skipping the licence lines at
// its head (they begin with two spaces).
func Read(r io.Reader) ([]Synset, error) {
	var out []Synset
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	n := 0
	for sc.Scan() {
		n++
		line := sc.Text()
		if strings.HasPrefix(line, "  ") || strings.TrimSpace(line) == "" {
			continue
		}
		s, err := Parse(line)
		if err != nil {
			return nil, fmt.Errorf("line %d: %w", n, err)
		}
		out = append(out, s)
	}
	if err := sc.Err(); err != nil {
		return nil, fmt.Errorf("failed to read a WordNet data file: %w", err)
	}
	return out, nil
}

// Parse reads one synset line:
//
//	synset_offset lex_filenum ss_type w_cnt word lex_id [word lex_id...] p_cnt [ptr...] [frames...] | gloss
func Parse(line string) (Synset, error) {
	head, gloss, ok := strings.Cut(line, "|")
	if !ok {
		return Synset{}, fmt.Errorf("no gloss: %q", clip(line))
	}
	f := strings.Fields(head)
	next := func(what string) (string, error) {
		if len(f) == 0 {
			return "", fmt.Errorf("missing %s: %q", what, clip(line))
		}
		v := f[0]
		f = f[1:]
		return v, nil
	}
	num := func(what string, base int) (int, error) {
		v, err := next(what)
		if err != nil {
			return 0, err
		}
		n, err := strconv.ParseUint(v, base, 31)
		if err != nil {
			return 0, fmt.Errorf("bad %s %q: %q", what, v, clip(line))
		}
		return int(n), nil
	}
	var s Synset
	var err error
	if s.Offset, err = num("offset", 10); err != nil {
		return Synset{}, err
	}
	if _, err = num("lexicographer file", 10); err != nil {
		return Synset{}, err
	}
	if s.POS, err = pos(next("synset type")); err != nil {
		return Synset{}, fmt.Errorf("%w: %q", err, clip(line))
	}
	words, err := num("word count", 16)
	if err != nil {
		return Synset{}, err
	}
	if words == 0 || words > len(f)/2 {
		return Synset{}, fmt.Errorf("bad word count %d: %q", words, clip(line))
	}
	s.Words = make([]Word, words)
	for i := range s.Words {
		lemma, _ := next("word")
		if j := strings.IndexByte(lemma, '('); j > 0 && strings.HasSuffix(lemma, ")") {
			lemma = lemma[:j] // a syntactic marker: (a), (p), (ip)
		}
		id, err := num("lex_id", 16)
		if err != nil {
			return Synset{}, err
		}
		s.Words[i] = Word{Lemma: lemma, LexID: id}
	}
	ptrs, err := num("pointer count", 10)
	if err != nil {
		return Synset{}, err
	}
	if ptrs > len(f)/4 {
		return Synset{}, fmt.Errorf("bad pointer count %d: %q", ptrs, clip(line))
	}
	s.Pointers = make([]Pointer, ptrs)
	for i := range s.Pointers {
		p := &s.Pointers[i]
		p.Symbol, _ = next("pointer symbol")
		if p.Offset, err = num("pointer offset", 10); err != nil {
			return Synset{}, err
		}
		if p.POS, err = pos(next("pointer part of speech")); err != nil {
			return Synset{}, fmt.Errorf("%w: %q", err, clip(line))
		}
		st, _ := next("source/target")
		src, err1 := strconv.ParseUint(st, 16, 16)
		if len(st) != 4 || err1 != nil {
			return Synset{}, fmt.Errorf("bad source/target %q: %q", st, clip(line))
		}
		p.Source, p.Target = int(src>>8), int(src&0xff)
		if p.Source > len(s.Words) {
			return Synset{}, fmt.Errorf("pointer from word %d of %d: %q", p.Source, len(s.Words), clip(line))
		}
	}
	// What is left are a verb's sentence frames, which nothing here uses.
	s.Gloss = strings.TrimSpace(gloss)
	return s, nil
}

func pos(v string, err error) (byte, error) {
	if err != nil {
		return 0, err
	}
	if len(v) != 1 || !strings.Contains("nvasr", v) {
		return 0, fmt.Errorf("bad part of speech %q", v)
	}
	return v[0], nil
}

func clip(s string) string {
	if len(s) > 80 {
		return s[:80] + "..."
	}
	return s
}

// Sense is a word in one of its meanings: a lemma as written in a synset.
type Sense struct {
	Lemma  string
	Synset Key
}

// Pairs calls pair for every two words that WordNet relates: the words of
// one synset (synonyms) and, for each pointer whose symbol is in symbols,
// the words it joins (every word of both synsets for a semantic pointer,
// the two words named for a lexical one). Lemmas are passed as written.
// Pointers to synsets not in the list are skipped.
func Pairs(synsets []Synset, symbols map[string]bool, pair func(a, b Sense)) {
	byKey := make(map[Key]*Synset, len(synsets))
	for i := range synsets {
		byKey[synsets[i].Key()] = &synsets[i]
	}
	for _, s := range synsets {
		k := s.Key()
		for i, a := range s.Words {
			for _, b := range s.Words[i+1:] {
				pair(Sense{a.Lemma, k}, Sense{b.Lemma, k})
			}
		}
		for _, p := range s.Pointers {
			if !symbols[p.Symbol] {
				continue
			}
			t, ok := byKey[KeyOf(p.POS, p.Offset)]
			if !ok || p.Target > len(t.Words) {
				continue
			}
			tk := t.Key()
			if p.Semantic() {
				for _, a := range s.Words {
					for _, b := range t.Words {
						pair(Sense{a.Lemma, k}, Sense{b.Lemma, tk})
					}
				}
				continue
			}
			if p.Source > 0 && p.Target > 0 {
				pair(Sense{s.Words[p.Source-1].Lemma, k}, Sense{t.Words[p.Target-1].Lemma, tk})
			}
		}
	}
}

// Text returns a lemma as words: "perk_up" is "perk up".
func Text(lemma string) string { return strings.ReplaceAll(lemma, "_", " ") }

// ReadIndex reads an index file (index.noun, ...: a line per lemma, its
// synsets listed most frequent sense first) and calls sense for each
// lemma's synsets in that order, rank counting from 1. The lemma is in
// lower case, as the index writes it.
func ReadIndex(r io.Reader, sense func(lemma string, synset Key, rank int)) error {
	sc := bufio.NewScanner(r)
	sc.Buffer(make([]byte, 64<<10), 1<<20)
	n := 0
	for sc.Scan() {
		n++
		line := sc.Text()
		if strings.HasPrefix(line, "  ") || strings.TrimSpace(line) == "" {
			continue
		}
		if err := parseIndex(line, sense); err != nil {
			return fmt.Errorf("line %d: %w", n, err)
		}
	}
	if err := sc.Err(); err != nil {
		return fmt.Errorf("failed to read a WordNet index file: %w", err)
	}
	return nil
}

// parseIndex reads one index line:
//
//	lemma pos synset_cnt p_cnt [ptr_symbol...] sense_cnt tagsense_cnt synset_offset [synset_offset...]
func parseIndex(line string, sense func(lemma string, synset Key, rank int)) error {
	f := strings.Fields(line)
	if len(f) < 6 {
		return fmt.Errorf("short index line: %q", clip(line))
	}
	p, err := pos(f[1], nil)
	if err != nil {
		return fmt.Errorf("%w: %q", err, clip(line))
	}
	synsets, err1 := strconv.ParseUint(f[2], 10, 31)
	ptrs, err2 := strconv.ParseUint(f[3], 10, 31)
	if err1 != nil || err2 != nil || synsets == 0 || 4+ptrs+2+synsets != uint64(len(f)) {
		return fmt.Errorf("bad counts: %q", clip(line))
	}
	offsets := f[4+ptrs+2:]
	keys := make([]Key, len(offsets))
	for i, o := range offsets {
		v, err := strconv.ParseUint(o, 10, 31)
		if err != nil {
			return fmt.Errorf("bad synset offset %q: %q", o, clip(line))
		}
		keys[i] = KeyOf(p, int(v))
	}
	for i, k := range keys {
		sense(f[0], k, i+1)
	}
	return nil
}
