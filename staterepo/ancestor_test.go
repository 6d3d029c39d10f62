package staterepo

import (
	"context"
	"fmt"
	"math/rand/v2"
	"os/exec"
	"testing"

	"github.com/planq-dev/planq/project"
)

// TestIsAncestorAgreesWithGit: over random histories (merges of one to
// three parents, side lines, a second root), IsAncestor answers as git
// merge-base --is-ancestor does for every pair of commits, whether its
// walk in this process answers or git does (a budget of 2 hands most
// questions to git, one of 64 few).
func TestIsAncestorAgreesWithGit(t *testing.T) {
	ctx := context.Background()
	for seed := uint64(1); seed <= 3; seed++ {
		r := newRepo(t)
		rng := rand.New(rand.NewPCG(seed, 0))
		root, err := r.Tip(project.GlobalBranch)
		if err != nil {
			t.Fatal(err)
		}
		tree, err := r.TreeOf(root)
		if err != nil {
			t.Fatal(err)
		}
		other, err := r.WriteCommit(tree, nil, "a second root\n")
		if err != nil {
			t.Fatal(err)
		}
		commits := []Hash{root, other}
		for i := 0; i < 40; i++ {
			parents := []Hash{commits[rng.IntN(len(commits))]}
			for n := rng.IntN(3); n > 0; n-- {
				if p := commits[rng.IntN(len(commits))]; p != parents[0] {
					parents = append(parents, p)
				}
			}
			c, err := r.WriteCommit(tree, parents, fmt.Sprintf("commit %d\n", i))
			if err != nil {
				t.Fatal(err)
			}
			commits = append(commits, c)
		}
		for i := 0; i < 150; i++ {
			a, b := commits[rng.IntN(len(commits))], commits[rng.IntN(len(commits))]
			err := exec.Command("git", "-C", r.Path, "merge-base", "--is-ancestor", a.String(), b.String()).Run()
			want := err == nil
			got, gerr := r.IsAncestor(ctx, a, b)
			if gerr != nil || got != want {
				t.Fatalf("seed %d: IsAncestor(%s, %s) = %v, %v; git says %v", seed, a, b, got, gerr, want)
			}
			for _, budget := range []int{2, 64} {
				if found, sure := r.nearAncestor(a, b, budget); sure && found != want {
					t.Fatalf("seed %d: the walk of %d commits says %v for %s in %s; git says %v", seed, budget, found, a, b, want)
				}
			}
		}
	}
}
