package staterepo

import (
	"context"
	"os"
	"testing"
	"time"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/planq-dev/planq/internal/testkit/testgit"
	"github.com/planq-dev/planq/planqerr"
	"github.com/planq-dev/planq/project"
)

// TestCommitAsOfFollowsFirstParents: what a branch held at a moment is the
// newest commit of its own line (first parents) by then, never a commit a
// merge brought in from the side, and nothing before the line began.
func TestCommitAsOfFollowsFirstParents(t *testing.T) {
	r := newRepo(t)
	ctx := context.Background()
	root, err := r.Tip(project.GlobalBranch)
	if err != nil {
		t.Fatal(err)
	}
	tree, err := r.TreeOf(root)
	if err != nil {
		t.Fatal(err)
	}
	commit := func(date string, parents ...string) plumbing.Hash {
		args := []string{"commit-tree", tree.String(), "-m", date}
		for _, p := range parents {
			args = append(args, "-p", p)
		}
		return plumbing.NewHash(testgit.RunEnv(t, append(os.Environ(), "GIT_COMMITTER_DATE="+date+"T10:00:00Z"), r.Path, args...))
	}
	jan := commit("2027-01-01", root.String())
	feb := commit("2027-02-01", jan.String())
	side := commit("2027-01-15", jan.String())
	mar := commit("2027-03-01", feb.String(), side.String())
	at := func(date string) time.Time {
		d, err := time.Parse(time.DateOnly, date)
		if err != nil {
			t.Fatal(err)
		}
		return d
	}
	for _, c := range []struct {
		date string
		want plumbing.Hash
		ok   bool
	}{
		{"2027-01-20", jan, true}, // not side: the merge's second parent
		{"2027-02-10", feb, true},
		{"2027-04-01", mar, true},
		{"2020-01-01", ZeroHash, false},
	} {
		got, ok, err := r.CommitAsOf(ctx, mar, at(c.date))
		if err != nil || ok != c.ok || got != c.want {
			t.Errorf("as of %s: %s, %v, %v; want %s, %v", c.date, got, ok, err, c.want, c.ok)
		}
	}

	// ResolveCommit takes an abbreviation; a name of nothing is not found.
	c, err := r.ResolveCommit(ctx, feb.String()[:10])
	if err != nil || c.Hash != feb || c.Time.UTC() != at("2027-02-01").Add(10*time.Hour) {
		t.Errorf("ResolveCommit of an abbreviation: %+v, %v", c, err)
	}
	for _, name := range []string{"deadbeef", "-h", ""} {
		if _, err := r.ResolveCommit(ctx, name); err == nil || !planqerr.Is(err, planqerr.NotFound) && !planqerr.Is(err, planqerr.Invalid) {
			t.Errorf("ResolveCommit(%q): %v, want not found or invalid", name, err)
		}
	}
}
