package search

import (
	"fmt"
	"math"
	"strings"
)

// Vectors are the vectors of one part's documents, as the read model keeps
// them beside the part's index: document doc's vector is Scales[doc] times
// the Dim int8 values at Data[doc*Dim:]. Each was of unit length before it
// was quantised (Quantise); a document with no word the model knows has
// the zero vector, scale 0, and the vector channel never finds it.
type Vectors struct {
	Dim    int
	Scales []float32
	// Data holds the int8 values as bytes, document after document.
	Data []byte
}

// Check holds v to docs documents of dimension dim.
func (v *Vectors) Check(docs, dim int) error {
	if v.Dim != dim || len(v.Scales) != docs || len(v.Data) != docs*dim {
		return fmt.Errorf("vectors of %d documents of dimension %d, in %d bytes, for %d documents of dimension %d",
			len(v.Scales), v.Dim, len(v.Data), docs, dim)
	}
	return nil
}

// Quantise appends v as int8 values to dst, the largest magnitude mapped
// to 127, and returns the scale that multiplies them back to a vector of
// unit length. The scale is not that of the largest magnitude (its value
// over 127): rounding each part leaves the vector a little longer or
// shorter than v, up to a third of a percent, and a cosine with a longer
// one comes out above 1; scaled to unit length, the stored vector gives
// every cosine within [-1, 1], and v of any length is stored as its
// direction. A zero vector (or one with a NaN or an infinity) is all zeros
// at scale 0.
func Quantise(dst []byte, v []float32) ([]byte, float32) {
	var maxAbs float64
	for _, x := range v {
		f := float64(x)
		if math.IsNaN(f) || math.IsInf(f, 0) {
			maxAbs = 0
			break
		}
		maxAbs = max(maxAbs, math.Abs(f))
	}
	if maxAbs == 0 {
		return append(dst, make([]byte, len(v))...), 0
	}
	step := maxAbs / 127
	var ss float64
	for _, x := range v {
		q := max(-127, min(127, math.Round(float64(x)/step)))
		ss += q * q
		dst = append(dst, byte(int8(q)))
	}
	return dst, float32(1 / math.Sqrt(ss))
}

// Text is what the vector channel embeds of a document: what it says, its
// title (subject, decision, name) and body, as its words are indexed, and
// none of the fields planq fills in (domain, files), which filters read.
func (d Doc) Text() string {
	return strings.TrimSpace(d.text[fieldStrong] + "\n" + d.text[fieldBody])
}

// Channel names a ranker whose rankings fuse: the words (BM25F over the
// index) or the meaning (cosine similarity of embeddings).
type Channel uint8

// The channels.
const (
	Lexical Channel = iota
	Vector
)

func (c Channel) String() string {
	if c == Vector {
		return "vector"
	}
	return "lexical"
}

// minCosine is the similarity below which the vector channel finds
// nothing: every text has some cosine with every other, and a record
// shown for a question it shares no meaning with is noise, counted in
// Total and fused above nothing better. Static embeddings of unrelated
// texts stay mostly below it.
const minCosine = 0.45

// oversample is how many times the limit a vector ranking that is fused
// holds: candidates enough that a record ranked moderately by both
// channels, or by several phrasings, reaches the first places.
const oversample = 4

// rankVector ranks the kept documents by the cosine similarity of their
// vectors to q, a unit vector, and returns the best depth of them (all for
// 0) at or above minCosine, best first; each is marked in matched.
func (s *searcher) rankVector(q []float32, depth int) []Hit {
	return s.best(depth, func(yield func(Hit)) {
		for i, p := range s.parts {
			v := p.Vectors
			if v == nil || v.Dim != len(q) {
				continue
			}
			d := v.Dim
			for doc, scale := range v.Scales {
				if scale == 0 {
					continue
				}
				// Both vectors are of unit length; float32's sums still
				// round a vector's cosine with itself a few units of the
				// last place past 1, and a cosine shown is at most 1.
				cos := min(scale*dot(q, v.Data[doc*d:doc*d+d]), 1)
				if cos < minCosine || !s.keep(i, doc) {
					continue
				}
				if !s.matched[i][doc] {
					s.matched[i][doc] = true
					s.total++
				}
				yield(Hit{Part: i, Doc: doc, Score: float64(cos)})
			}
		}
	})
}

// dot is the dot product of q and the int8 values of row, as long as q.
func dot(q []float32, row []byte) float32 {
	row = row[:len(q)]
	var s0, s1, s2, s3 float32
	j := 0
	for ; j+4 <= len(q); j += 4 {
		s0 += q[j] * float32(int8(row[j]))
		s1 += q[j+1] * float32(int8(row[j+1]))
		s2 += q[j+2] * float32(int8(row[j+2]))
		s3 += q[j+3] * float32(int8(row[j+3]))
	}
	for ; j < len(q); j++ {
		s0 += q[j] * float32(int8(row[j]))
	}
	return (s0 + s1) + (s2 + s3)
}

// unit reports whether q is a vector the vector channel can rank by: of
// length dim, finite, and not zero (a text with no word the model knows).
func unit(q []float32, dim int) bool {
	if len(q) != dim || dim == 0 {
		return false
	}
	var ss float64
	for _, x := range q {
		ss += float64(x) * float64(x)
	}
	return ss > 0 && !math.IsNaN(ss) && !math.IsInf(ss, 0)
}
