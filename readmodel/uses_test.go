package readmodel

import (
	"context"
	"path/filepath"
	"reflect"
	"testing"
	"time"

	"github.com/planq-dev/planq/internal/testkit/testrecords"
	"github.com/planq-dev/planq/project"
)

// TestLastUsesIsTheLatestOverGlobalAndAgents: a record's last use is the
// latest any agent's uses file holds, on global (where promote brings
// them) or on an agent branch (not promoted yet); a branch that is neither
// is not the team's, and a file that is not a uses file is not read. An
// unchanged repository answers from the cache, reading nothing from git.
func TestLastUsesIsTheLatestOverGlobalAndAgents(t *testing.T) {
	day := func(d int) time.Time { return time.Date(2026, 10, d, 9, 0, 0, 0, time.UTC) }
	const a, b, c, d = "pq-000000000a", "pq-000000000b", "pq-000000000c", "pq-000000000d"
	files := testrecords.Rendered(t, nil)
	files[project.UsesPath("x")] = FormatUses(map[string]Use{a: {Count: 2, Last: day(1)}, b: {Count: 1, Last: day(5)}})
	// A torn line and a line of nonsense cost their uses, nothing more.
	files[project.UsesPath("y")] = append(FormatUses(map[string]Use{c: {Count: 1, Last: day(2)}}), "pq-000000000d\t1\t2026-10-0"...)
	files[project.UsesDir+"/notes.md"] = []byte(d + "\t1\t2026-10-30T00:00:00Z\n")
	repo := testrecords.RepoWith(t, files)
	ctx := context.Background()
	// agent-x has used a again, later, and not promoted it yet.
	if _, err := repo.CreateBranch(ctx, project.AgentBranch("x"), project.GlobalBranch, map[string][]byte{
		project.UsesPath("x"): FormatUses(map[string]Use{a: {Count: 3, Last: day(9)}, b: {Count: 1, Last: day(5)}}),
	}, "uses"); err != nil {
		t.Fatal(err)
	}
	// A branch that is neither global nor an agent's.
	if _, err := repo.CreateBranch(ctx, "elsewhere", project.GlobalBranch, map[string][]byte{
		project.UsesPath("z"): FormatUses(map[string]Use{c: {Count: 1, Last: day(20)}}),
	}, "not the team's"); err != nil {
		t.Fatal(err)
	}

	cacheDir := filepath.Join(t.TempDir(), "cache")
	first := Open(repo, cacheDir)
	got, err := first.LastUses()
	if err != nil {
		t.Fatal(err)
	}
	want := map[string]time.Time{a: day(9), b: day(5), c: day(2)}
	if !reflect.DeepEqual(got, want) {
		t.Errorf("last uses\n got  %v\n want %v", got, want)
	}
	if err := first.Close(); err != nil {
		t.Fatal(err)
	}
	reads := 0
	again, err := counting(repo, cacheDir, &reads).LastUses()
	if err != nil || !reflect.DeepEqual(again, want) {
		t.Errorf("from the cache: %v, %v", again, err)
	}
	if reads != 0 {
		t.Errorf("an unchanged repository's uses read %d blobs from git, want 0", reads)
	}
}

// FuzzParseUses: what a uses file holds reads back the same from what
// FormatUses writes of it, whatever bytes the file had (the fold into it,
// flushUses, rewrites it from what read).
func FuzzParseUses(f *testing.F) {
	f.Add([]byte("pq-000000000a\t2\t2026-10-01T09:00:00Z\npq-000000000b\t1\t2026-10-05T09:00:00+02:00\n"))
	f.Add([]byte("pq-000000000a\t-1\t2026-10-01T09:00:00Z\npq-000000000a\t3\t2026-10-02T09:00:00Z\n"))
	f.Add([]byte("pq-000000000a\t2\t2026-10-0"))
	f.Add([]byte("pq-000000000a\t1\t0000-01-01T00:30:00+01:00\npq-000000000b\t1\t9999-12-31T23:30:00-01:00\n"))
	f.Add([]byte("nonsense\t1\t2026-10-01T09:00:00Z\n\t\t\n"))
	f.Fuzz(func(t *testing.T, data []byte) {
		uses := ParseUses(data)
		for id, u := range uses {
			if u.Count < 0 || u.Last.Location() != time.UTC {
				t.Fatalf("%s read as %+v", id, u)
			}
		}
		again := ParseUses(FormatUses(uses))
		if len(again) != len(uses) {
			t.Fatalf("%d uses read back as %d", len(uses), len(again))
		}
		for id, u := range uses {
			// RFC 3339 as written keeps whole seconds.
			if v := again[id]; v.Count != u.Count || !v.Last.Equal(u.Last.Truncate(time.Second)) {
				t.Fatalf("%s: %+v read back as %+v", id, u, v)
			}
		}
	})
}
