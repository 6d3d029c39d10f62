package embed

import (
	"errors"
	"hash/maphash"
	"math/bits"
)

// vocab is a table's tokens and the index from a token to its row. The
// tokens stay as the file holds them, each after its length byte, in one
// string; the index is open addressing over a power-of-two array of rows,
// hashed by maphash. Built at load, it costs a millisecond and a few
// hundred KB for a vocabulary of 50,000, where a Go map of as many strings
// costs ten times both: what the first search of a process pays.
type vocab struct {
	text  string   // each token after its length byte, token after token
	start []uint32 // row -> where its token starts in text
	slots []int32  // row+1 at the slot a token hashes to (or after it); 0 empty
	seed  maphash.Seed
}

// errDuplicateToken is newVocab's error when a token occurs twice.
var errDuplicateToken = errors.New("a token occurs twice")

// newVocab indexes n tokens laid out in text as the file format lays them
// out: a length byte (1 to 255), then the token. It returns the row of a
// token that occurs twice with errDuplicateToken.
func newVocab(text string, n int) (*vocab, int, error) {
	v := &vocab{text: text, start: make([]uint32, n), seed: maphash.MakeSeed()}
	size := 1 << bits.Len(uint(2*n)) // a load factor under a half
	v.slots = make([]int32, size)
	mask := uint64(size - 1)
	for i, q := 0, 0; i < n; i++ {
		l := int(text[q])
		v.start[i] = uint32(q + 1)
		tok := text[q+1 : q+1+l]
		q += 1 + l
		for s := maphash.String(v.seed, tok) & mask; ; s = (s + 1) & mask {
			r := v.slots[s]
			if r == 0 {
				v.slots[s] = int32(i + 1)
				break
			}
			if v.token(int(r-1)) == tok {
				return nil, i, errDuplicateToken
			}
		}
	}
	return v, 0, nil
}

// vocabText lays tokens out as the file format does; each is 1 to 255 bytes.
func vocabText(tokens []string) string {
	size := 0
	for _, t := range tokens {
		size += 1 + len(t)
	}
	b := make([]byte, 0, size)
	for _, t := range tokens {
		b = append(b, byte(len(t)))
		b = append(b, t...)
	}
	return string(b)
}

func (v *vocab) len() int { return len(v.start) }

// token is row i's token.
func (v *vocab) token(i int) string {
	s := v.start[i]
	return v.text[s : s+uint32(v.text[s-1])]
}

// row is tok's row, or false when the table does not know it.
func (v *vocab) row(tok string) (int32, bool) {
	mask := uint64(len(v.slots) - 1)
	for s := maphash.String(v.seed, tok) & mask; ; s = (s + 1) & mask {
		r := v.slots[s]
		if r == 0 {
			return 0, false
		}
		if v.token(int(r-1)) == tok {
			return r - 1, true
		}
	}
}
