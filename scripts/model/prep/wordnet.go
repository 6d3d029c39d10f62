package main

import (
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/planq-dev/planq/scripts/model/wordnet"
)

// wordnetLines reads a WordNet data file and returns a line per synset:
// its words, then its gloss, so that a word is learnt beside its
// synonyms and the words that define it ("sofa couch lounge an
// upholstered seat for more than one person").
func wordnetLines(path string) ([]string, error) {
	f, err := os.Open(path)
	if err != nil {
		return nil, fmt.Errorf("failed to open %s: %w", path, err)
	}
	defer f.Close()
	lines, err := synsetLines(f)
	if err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return lines, nil
}

func synsetLines(r io.Reader) ([]string, error) {
	synsets, err := wordnet.Read(r)
	if err != nil {
		return nil, err
	}
	lines := make([]string, 0, len(synsets))
	var b strings.Builder
	for _, s := range synsets {
		b.Reset()
		for _, w := range s.Words {
			b.WriteString(wordnet.Text(w.Lemma))
			b.WriteByte(' ')
		}
		b.WriteString(s.Gloss)
		lines = append(lines, b.String())
	}
	return lines, nil
}
