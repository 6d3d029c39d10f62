package search

// AlikeCosine is the cosine at which two records' vectors say they mean
// the same thing, whatever their words: dedupe shows such records as a
// similar group, and the knowledge base files a learning that names no
// subject with the subject it means. Close to 1: records of one domain
// share much of their meaning.
const AlikeCosine = 0.93

// Cosine is the cosine similarity of two unit vectors of one dimension, as
// a model's Embed returns them: what the vector channel ranks by, for
// callers that compare records with each other rather than with a
// question (dedupe, the knowledge base's grouping). Vectors of two
// dimensions, or a zero vector (a text with no word the model knows), have
// none: 0. It is within [-1, 1]: float32's sums round a unit vector's
// cosine with itself a few units of the last place past 1.
func Cosine(a, b []float32) float32 {
	if len(a) != len(b) {
		return 0
	}
	var s0, s1 float32
	j := 0
	for ; j+2 <= len(a); j += 2 {
		s0 += a[j] * b[j]
		s1 += a[j+1] * b[j+1]
	}
	for ; j < len(a); j++ {
		s0 += a[j] * b[j]
	}
	return max(-1, min(s0+s1, 1))
}
