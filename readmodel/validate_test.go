package readmodel

import (
	"reflect"
	"testing"

	"github.com/planq-dev/planq/changelog"
)

// Each ring of versions is found once, from its least ID, whatever leads
// into it; a chain that ends is no ring.
func TestSupersedeRings(t *testing.T) {
	byID := map[string]*changelog.Record{}
	for id, supersedes := range map[string]string{
		"pq-c": "pq-a", "pq-a": "pq-b", "pq-b": "pq-c", // a ring of three
		"pq-d": "pq-a",             // leads into it
		"pq-e": "pq-f", "pq-f": "", // a chain that ends
		"pq-g": "pq-g", // supersedes itself
		"pq-h": "pq-x", // names no record
	} {
		byID[id] = &changelog.Record{ID: id, Supersedes: supersedes}
	}
	got := supersedeRings(byID)
	want := [][]string{{"pq-a", "pq-b", "pq-c"}, {"pq-g"}}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("rings %v, want %v", got, want)
	}
}
