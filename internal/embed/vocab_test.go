package embed

import (
	"errors"
	"fmt"
	"testing"
)

// Every token is found at its row, and what is no token (a prefix, an
// extension, another case) is not, across a vocabulary whose index is
// crowded enough that probes run into each other.
func TestVocabFindsEachTokenAtItsRow(t *testing.T) {
	var tokens []string
	for i := range 5000 {
		tokens = append(tokens, fmt.Sprintf("w%d", i))
	}
	v, _, err := newVocab(vocabText(tokens), len(tokens))
	if err != nil {
		t.Fatal(err)
	}
	for i, tok := range tokens {
		if r, ok := v.row(tok); !ok || int(r) != i || v.token(i) != tok {
			t.Fatalf("token %q: row %d, %v; token(%d) = %q", tok, r, ok, i, v.token(i))
		}
	}
	for _, no := range []string{"w", "w5000", "W1", "w10x", ""} {
		if r, ok := v.row(no); ok {
			t.Errorf("%q found at row %d", no, r)
		}
	}
	if _, dup, err := newVocab(vocabText([]string{"a", "b", "a"}), 3); !errors.Is(err, errDuplicateToken) || dup != 2 {
		t.Errorf("a token twice: row %d, %v; want row 2, errDuplicateToken", dup, err)
	}
}
