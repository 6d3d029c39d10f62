package eval

import (
	"context"
	"fmt"
	"maps"
	"slices"
	"strconv"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/project"
	"github.com/planq-dev/planq/staterepo"
)

// Load writes set into a new bare state repository at path: the records of
// global in one commit on top of the skeleton, and each agent branch
// created from the skeleton with its own records in one commit, as if its
// agent had not pulled yet. It fails when a repository is there already,
// since records from another run would change what is measured.
func Load(ctx context.Context, path string, set *Set) (*staterepo.Repo, error) {
	created, err := staterepo.Init(ctx, path, changelog.Skeleton())
	if err != nil {
		return nil, fmt.Errorf("failed to create state repository: %w", err)
	}
	if !created {
		return nil, fmt.Errorf("failed to load corpus: a state repository exists at %s already", path)
	}
	repo, err := staterepo.Open(path)
	if err != nil {
		return nil, fmt.Errorf("failed to open state repository: %w", err)
	}
	files := map[string]map[string][]byte{}
	for _, e := range set.Entries {
		data, err := changelog.Render(e.Record)
		if err != nil {
			return nil, fmt.Errorf("failed to render record %s: %w", e.Key, err)
		}
		if files[e.Branch] == nil {
			files[e.Branch] = map[string][]byte{}
		}
		files[e.Branch][e.Record.Path] = data
	}
	for _, branch := range slices.Sorted(maps.Keys(files)) {
		if branch == project.GlobalBranch {
			continue
		}
		if _, err := repo.CreateBranch(ctx, branch, project.GlobalBranch, files[branch], commitMessage(len(files[branch]))); err != nil {
			return nil, fmt.Errorf("failed to create branch %s: %w", branch, err)
		}
	}
	if err := writeGlobal(ctx, repo, files[project.GlobalBranch]); err != nil {
		return nil, err
	}
	return repo, nil
}

// writeGlobal commits files on top of global, as planq writes a commit on
// global: blobs, one tree edit, a commit, then a compare-and-swap of the
// ref. Nobody else writes a repository Load just made, so a lost race is an
// error rather than a retry.
func writeGlobal(ctx context.Context, repo *staterepo.Repo, files map[string][]byte) error {
	if len(files) == 0 {
		return nil
	}
	tip, err := repo.Tip(project.GlobalBranch)
	if err != nil {
		return fmt.Errorf("failed to read global: %w", err)
	}
	tree, err := repo.TreeOf(tip)
	if err != nil {
		return fmt.Errorf("failed to read global's tree: %w", err)
	}
	blobs := make(map[string]staterepo.Hash, len(files))
	for p, data := range files {
		if blobs[p], err = repo.WriteBlob(data); err != nil {
			return fmt.Errorf("failed to write %s: %w", p, err)
		}
	}
	newTree, err := repo.EditTree(tree, blobs)
	if err != nil {
		return fmt.Errorf("failed to build global's tree: %w", err)
	}
	commit, err := repo.WriteCommit(newTree, []staterepo.Hash{tip}, commitMessage(len(files)))
	if err != nil {
		return fmt.Errorf("failed to write global's commit: %w", err)
	}
	if err := repo.SwapGlobal(ctx, "searcheval: load corpus", tip, commit); err != nil {
		return fmt.Errorf("failed to move global: %w", err)
	}
	return nil
}

func commitMessage(n int) string {
	return "searcheval: " + strconv.Itoa(n) + " records\n"
}
