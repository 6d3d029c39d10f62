// Package testmodel makes embedding models for tests whose meaning is
// written down: each group of words shares one vector, and the groups are
// orthogonal, so that a test says which texts mean alike.
//
// Role: test support. It lives under internal/testkit, which only _test.go
// files may import (a depguard rule in .golangci.yml).
package testmodel

import (
	"strings"

	"github.com/planq-dev/planq/internal/embed"
)

// Synonyms is a table in which the words of each group (space-separated)
// share one vector and the groups are orthogonal: two texts whose known
// words fall in the same groups, in the same proportions, embed alike.
func Synonyms(groups ...string) (*embed.Table, error) {
	var words []string
	var weights []float32
	var vecs [][]float32
	for g, group := range groups {
		for _, w := range strings.Fields(group) {
			v := make([]float32, len(groups))
			v[g] = 1
			words, weights, vecs = append(words, w), append(weights, 1), append(vecs, v)
		}
	}
	return embed.NewTable(embed.Info{Name: "synonyms"}, words, weights, vecs)
}
