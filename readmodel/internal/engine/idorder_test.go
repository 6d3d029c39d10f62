package engine

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/internal/testkit/testrecords"
	"github.com/planq-dev/planq/project"
)

// List's counts, merged from each directory's ID order, are the current
// records of every branch counted from the records themselves: each once
// though several branches hold it, new versions and tombstones counting
// only what they leave current. Random histories; then again from the
// kept orders, and over damaged ones.
func TestListCountsAreTheCurrentRecords(t *testing.T) {
	for seed := range uint64(6) {
		t.Run(fmt.Sprint(seed), func(t *testing.T) {
			rng := rand.New(rand.NewPCG(seed, 7))
			at := time.Date(2026, 2, 1, 0, 0, 0, 0, time.UTC)
			var recs []*changelog.Record
			for i := range 80 + rng.IntN(80) {
				var r, old *changelog.Record
				var err error
				if len(recs) > 0 {
					old = recs[rng.IntN(len(recs))]
				}
				switch k := rng.IntN(4); {
				case k == 0:
					r, err = changelog.NewLog(changelog.LogInput{Text: fmt.Sprintf("log %d", i)})
				case k == 1:
					r, err = changelog.NewDecision(changelog.DecisionInput{Decision: fmt.Sprintf("decision %d", i), Rationale: "r"})
				case old != nil && !old.Tombstone && rng.IntN(3) == 0: // a tombstone or a new version of an earlier one
					if rng.IntN(2) == 0 {
						r, err = changelog.NewTombstone(old, "wrong")
					} else {
						cp := *old
						cp.Supersedes, cp.Body, cp.Tombstone = old.ID, old.Body+" again", false
						r = &cp
					}
				default:
					r, err = changelog.NewLearning(changelog.LearningInput{Text: fmt.Sprintf("learning %d", i), Type: changelog.TypePattern, Domain: []string{"ci", "db"}[i%2]})
				}
				if err != nil {
					t.Fatal(err)
				}
				r.Agent, r.Timestamp = fmt.Sprintf("a%d", rng.IntN(3)), at.Add(time.Duration(i)*time.Hour)
				r.ID = changelog.NewID(r.Agent, r.Kind, r.Body, r.Timestamp)
				recs = append(recs, r)
			}
			// Global holds some; each agent branch holds global and some more,
			// so that many records are on several branches.
			var inGlobal []*changelog.Record
			branches := map[string][]*changelog.Record{}
			for _, r := range recs {
				switch rng.IntN(3) {
				case 0:
					inGlobal = append(inGlobal, r)
				case 1:
					branches["agent-x"] = append(branches["agent-x"], r)
				default:
					branches["agent-x"] = append(branches["agent-x"], r)
					branches["agent-y"] = append(branches["agent-y"], r)
				}
			}
			repo := testrecords.RepoWith(t, testrecords.Rendered(t, inGlobal))
			for b, rs := range branches {
				files := map[string][]byte{}
				for p, data := range testrecords.Rendered(t, rs) {
					if filepath.Dir(p) != "." { // records only: the skeleton is global's
						files[p] = data
					}
				}
				if _, err := repo.CreateBranch(context.Background(), b, project.GlobalBranch, files, "more"); err != nil {
					t.Fatal(err)
				}
			}
			want := map[string]map[string]int{}
			for _, r := range changelog.Current(recs) {
				if want[r.Agent] == nil {
					want[r.Agent] = map[string]int{}
				}
				want[r.Agent][string(r.Kind)]++
			}
			cacheDir := t.TempDir()
			counts := func(rd testReader) map[string]map[string]int {
				t.Helper()
				tips, err := rd.Tips()
				if err != nil {
					t.Fatal(err)
				}
				segs, _, err := rd.Segments(tips, nil)
				if err != nil {
					t.Fatal(err)
				}
				got := map[string]map[string]int{}
				for agent, c := range rd.CurrentByAgent(segs) {
					for k, n := range c {
						if n > 0 {
							if got[agent] == nil {
								got[agent] = map[string]int{}
							}
							got[agent][string(changelog.Kinds[k])] = n
						}
					}
				}
				return got
			}
			if got := counts(open(repo, cacheDir)); !reflect.DeepEqual(got, want) {
				t.Fatalf("counts\n got  %v\n want %v", got, want)
			}
			if got := counts(open(repo, cacheDir)); !reflect.DeepEqual(got, want) {
				t.Fatalf("counts from the kept orders\n got  %v\n want %v", got, want)
			}
			files, _ := filepath.Glob(filepath.Join(cacheDir, "views", "byid", "*", "*.view"))
			for _, f := range files {
				data, err := os.ReadFile(f)
				if err != nil {
					t.Fatal(err)
				}
				if len(data) > 4+idEntrySize+8 {
					data[4+22] ^= 0x01 // the first entry's kind: only the checksum tells
				}
				if err := os.WriteFile(f, data, 0o644); err != nil {
					t.Fatal(err)
				}
			}
			if got := counts(open(repo, cacheDir)); !reflect.DeepEqual(got, want) {
				t.Fatalf("counts over damaged orders\n got  %v\n want %v", got, want)
			}
		})
	}
}
