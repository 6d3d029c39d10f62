package workspace

import (
	"context"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	"github.com/planq-dev/planq/agent"
	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/internal/testkit/testgit"
	"github.com/planq-dev/planq/internal/userlayer"
	"github.com/planq-dev/planq/project"
)

// userLayerWith makes the user layer under a fresh home with the learnings
// texts, each one commit, and returns home and the layer's path.
func userLayerWith(t *testing.T, texts ...string) (home, bare string) {
	t.Helper()
	testgit.Isolate(t)
	ctx := context.Background()
	home = t.TempDir()
	l, err := userlayer.Open(ctx, home)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	for _, text := range texts {
		rec, _ := changelog.NewLearning(changelog.LearningInput{Text: text, Type: "convention", Domain: "preferences"})
		if _, err := l.Write(ctx, rec, agent.WriteOptions{}); err != nil {
			t.Fatal(err)
		}
	}
	return home, project.StateRepoPath(home, project.UserLayerName)
}

// emptyTip truncates the loose object file of global's tip and returns the
// tip's hash.
func emptyTip(t *testing.T, bare string) string {
	t.Helper()
	tip := testgit.Run(t, bare, "rev-parse", project.GlobalBranch)
	f := filepath.Join(bare, "objects", tip[:2], tip[2:])
	if err := os.Chmod(f, 0o644); err != nil {
		t.Fatal(err)
	}
	if err := os.Truncate(f, 0); err != nil {
		t.Fatal(err)
	}
	return tip
}

func TestDoctorUserMovesGlobalBackFromAnUnreadableTip(t *testing.T) {
	ctx := context.Background()
	if f, made, err := DoctorUser(ctx, t.TempDir(), true); err != nil || made || len(f) != 0 {
		t.Fatalf("no layer: %+v, made %v, %v", f, made, err)
	}
	home, bare := userLayerWith(t, "Prefers short commit subjects", "Prefers tabs")
	good := testgit.Run(t, bare, "rev-parse", project.GlobalBranch+"~1")
	bad := emptyTip(t, bare)

	found, made, err := DoctorUser(ctx, home, false)
	if err != nil || !made {
		t.Fatal(made, err)
	}
	if len(found) != 1 || found[0].Check != UserCheckTips || found[0].Fixed || found[0].Manual || !strings.Contains(found[0].Problem, "is damaged") {
		t.Fatalf("findings = %+v", found)
	}
	if got := testgit.Run(t, bare, "rev-parse", project.GlobalBranch); got != bad {
		t.Fatal("a check without --fix moved global")
	}

	fixed, _, err := DoctorUser(ctx, home, true)
	if err != nil || len(fixed) != 1 || !fixed[0].Fixed {
		t.Fatalf("fix = %+v, %v", fixed, err)
	}
	if got := testgit.Run(t, bare, "rev-parse", project.GlobalBranch); got != good {
		t.Errorf("global = %s, want its newest readable commit %s", got, good)
	}
	kept, err := filepath.Glob(filepath.Join(bare, "planq", "broken", "global", "*Z"))
	if err != nil || len(kept) != 1 {
		t.Fatalf("kept tips: %v %v", kept, err)
	}
	if data, _ := os.ReadFile(kept[0]); strings.TrimSpace(string(data)) != bad {
		t.Errorf("kept %q, want the broken tip %s", data, bad)
	}
	if again, _, err := DoctorUser(ctx, home, false); err != nil || len(again) != 0 {
		t.Errorf("after the fix: %+v, %v", again, err)
	}
	l, err := userlayer.Open(ctx, home)
	if err != nil {
		t.Fatal(err)
	}
	defer l.Close()
	if recs, _, err := userlayer.List(l.Handle); err != nil || len(recs) != 1 {
		t.Errorf("the layer lists %d records, %v", len(recs), err)
	}
}

func TestDoctorUserLeavesATipWithNoKnownPredecessorToAPerson(t *testing.T) {
	home, bare := userLayerWith(t, "Prefers tabs")
	bad := emptyTip(t, bare)
	for _, log := range []string{"logs/refs/heads/global", "logs/HEAD"} {
		if err := os.Remove(filepath.Join(bare, log)); err != nil && !os.IsNotExist(err) {
			t.Fatal(err)
		}
	}
	found, _, err := DoctorUser(context.Background(), home, true)
	if err != nil || len(found) != 1 || found[0].Fixed || !found[0].Manual || !strings.Contains(found[0].Fix, "none automatic") {
		t.Fatalf("findings = %+v, %v", found, err)
	}
	if got := testgit.Run(t, bare, "rev-parse", project.GlobalBranch); got != bad {
		t.Error("global moved with no known predecessor")
	}
}

func TestDoctorUserRemovesAStaleLockAndNamesAMalformedRecord(t *testing.T) {
	home, bare := userLayerWith(t, "Prefers tabs")
	lock := filepath.Join(bare, "refs", "heads", "global.lock")
	if err := os.WriteFile(lock, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	old := time.Now().Add(-time.Hour)
	if err := os.Chtimes(lock, old, old); err != nil {
		t.Fatal(err)
	}
	found, _, err := DoctorUser(context.Background(), home, true)
	if err != nil || len(found) != 1 || found[0].Check != UserCheckLocks || !found[0].Fixed {
		t.Fatalf("findings = %+v, %v", found, err)
	}
	if _, err := os.Stat(lock); !os.IsNotExist(err) {
		t.Error("the stale lock is still there")
	}

	clone := filepath.Join(t.TempDir(), "clone")
	testgit.Run(t, home, "clone", "-q", "-b", project.GlobalBranch, bare, clone)
	if err := os.WriteFile(filepath.Join(clone, "learnings", "preferences", "pq-00000000e1.md"), []byte("---\nid: pq-00000000e1\nkind: learning\nbogus: 1\n---\nx\n"), 0o644); err != nil {
		t.Fatal(err)
	}
	testgit.Run(t, clone, "add", ".")
	testgit.Run(t, clone, "commit", "-q", "-m", "by hand")
	testgit.Run(t, clone, "push", "-q", "origin", project.GlobalBranch)
	found, _, err = DoctorUser(context.Background(), home, true)
	if err != nil || len(found) != 1 || found[0].Check != UserCheckRecords || !found[0].Manual || !strings.Contains(found[0].Problem, "pq-00000000e1") {
		t.Fatalf("findings = %+v, %v", found, err)
	}
}
