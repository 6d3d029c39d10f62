package workspace

import (
	"context"
	"slices"
	"strings"

	"github.com/planq-dev/planq/planqerr"
	"github.com/planq-dev/planq/project"
	"github.com/planq-dev/planq/staterepo"
)

// The code repository a state repository belongs to, recorded in the state
// repository's git config: the code's root commits, which every clone
// shares, and the code repository's git directory on this machine, for a
// repository that had no commit yet.
const (
	ownerRootsKey = "planq.coderoots"
	ownerDirKey   = "planq.codedir"
)

// codeOwner identifies a code repository.
type codeOwner struct {
	roots []string
	dir   string
}

func ownerOf(ctx context.Context, p *project.Project) (codeOwner, error) {
	roots, err := staterepo.OpenCode(p.Root).RootCommits(ctx)
	return codeOwner{roots: roots, dir: p.CommonGitDir}, err
}

func recordedOwner(ctx context.Context, repo *staterepo.Repo) (codeOwner, error) {
	roots, err := repo.ConfigValue(ctx, ownerRootsKey)
	if err != nil {
		return codeOwner{}, err
	}
	dir, err := repo.ConfigValue(ctx, ownerDirKey)
	return codeOwner{roots: strings.Fields(roots), dir: dir}, err
}

// same reports whether two identities are one project: clones share a root
// commit; before the first commit only the same repository is the same.
func (o codeOwner) same(other codeOwner) bool {
	if len(o.roots) > 0 && len(other.roots) > 0 {
		for _, r := range o.roots {
			if slices.Contains(other.roots, r) {
				return true
			}
		}
		return false
	}
	return o.dir == other.dir
}

func (o codeOwner) unknown() bool { return len(o.roots) == 0 && o.dir == "" }

// claimState makes sure the project's state repository, if it exists,
// belongs to this code repository, and records that it does. Two unrelated
// repositories whose directories share a name would otherwise share one
// memory without a word.
func claimState(ctx context.Context, p *project.Project, current codeOwner, checkOnly bool) error {
	if !staterepo.Exists(p.StateRepo()) {
		return nil
	}
	repo, err := staterepo.Open(p.StateRepo())
	if err != nil {
		return err
	}
	recorded, err := recordedOwner(ctx, repo)
	if err != nil {
		return err
	}
	if !recorded.unknown() && !recorded.same(current) {
		where := strings.TrimSuffix(recorded.dir, "/.git")
		if where == "" {
			where = "another code repository"
		}
		return planqerr.New(planqerr.Exists, "project "+quote(p.Config.Project), "its state repository %s belongs to another code repository (%s)", p.StateRepo(), where).
			WithHint("give this repository a project of its own: planq init --project NAME")
	}
	if checkOnly {
		return nil
	}
	// Record what is known now; a repository that gets its first commit
	// later is recognised by its roots from then on.
	if len(current.roots) > 0 && strings.Join(recorded.roots, " ") != strings.Join(current.roots, " ") {
		if err := repo.SetConfigValue(ctx, ownerRootsKey, strings.Join(current.roots, " ")); err != nil {
			return err
		}
	}
	if recorded.dir == "" {
		return repo.SetConfigValue(ctx, ownerDirKey, current.dir)
	}
	return nil
}

func quote(s string) string { return `"` + s + `"` }
