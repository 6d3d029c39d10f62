package session_test

import (
	"fmt"
	"testing"

	"github.com/planq-dev/planq/readmodel"
	"github.com/planq-dev/planq/session"
)

// ranked is a repository's ranking: its project's hits with these scores,
// best first.
func ranked(project string, scores ...float64) []session.ProjectHit {
	out := make([]session.ProjectHit, len(scores))
	for i, s := range scores {
		out[i] = session.ProjectHit{Project: project, Hit: readmodel.Hit{Path: fmt.Sprintf("%s-%d", project, i+1), Score: s}}
	}
	return out
}

func paths(hits []session.ProjectHit) []string {
	out := make([]string, len(hits))
	for i, h := range hits {
		out[i] = h.Path
	}
	return out
}

// TestFuseIsByRankAcrossRepositories: a large project whose scores run
// high does not drown a small one's best answer: every repository's first
// hit comes before any repository's second; at equal rank the higher score
// first, then the project's name; each list keeps its own order; the limit
// keeps the best.
func TestFuseIsByRankAcrossRepositories(t *testing.T) {
	for _, c := range []struct {
		name  string
		lists [][]session.ProjectHit
		limit int
		want  []string
	}{
		{"ranks interleave, scores order equal ranks", [][]session.ProjectHit{
			ranked("big", 9, 8, 7), ranked("small", 0.5, 0.4), ranked("_user", 2)},
			8, []string{"big-1", "_user-1", "small-1", "big-2", "small-2", "big-3"}},
		{"the limit keeps the best", [][]session.ProjectHit{
			ranked("big", 9, 8, 7), ranked("small", 0.5, 0.4)},
			3, []string{"big-1", "small-1", "big-2"}},
		{"equal scores: by project name", [][]session.ProjectHit{
			ranked("b", 1, 1), ranked("a", 1)},
			8, []string{"a-1", "b-1", "b-2"}},
		{"a list's own order stands even against its scores", [][]session.ProjectHit{
			ranked("x", 1, 5)},
			8, []string{"x-1", "x-2"}},
		{"nothing found", [][]session.ProjectHit{nil, nil}, 8, []string{}},
	} {
		t.Run(c.name, func(t *testing.T) {
			got := session.Fuse(c.lists, c.limit)
			if got == nil {
				t.Fatal("Fuse returned nil: JSON would print null hits")
			}
			if fmt.Sprint(paths(got)) != fmt.Sprint(c.want) {
				t.Errorf("Fuse = %v, want %v", paths(got), c.want)
			}
		})
	}
}
