package memtool

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"

	"github.com/planq-dev/planq/agent"
	"github.com/planq-dev/planq/planqerr"
	"github.com/planq-dev/planq/project"
	"github.com/planq-dev/planq/staterepo"
)

// userLock is the lock the user layer's memory writers take: the layer has
// no worktree, so no agent's lock serialises them.
const userLock = "memories"

// ForUserLayer is the memories/ folder of the user layer (s is its store:
// userlayer.Layer's), which has no worktree: its memories live on its
// global branch. Global's memories/ is materialized in a temporary
// directory, the command runs there, and a change is one commit on global
// (agent.Store.CommitGlobal) rewriting the paths it changed, each with the
// blob read at that path, so that a change made meanwhile elsewhere (a
// pull) is never undone: such a commit fails and nothing is written. The
// folder is materialized again, under the lock, when global moved since it
// was read. No credential is kept in the user layer, whatever opts allow:
// it is synced to the person's own remote with every project's prime
// reading it, so --allow-secret does not apply. done removes the
// temporary directory.
func ForUserLayer(s *agent.Store) (f *Folder, done func(), err error) {
	tmp, err := os.MkdirTemp("", "planq-memories-")
	if err != nil {
		return nil, nil, fmt.Errorf("failed to create a directory for the user layer's memories: %w", err)
	}
	done = func() { _ = os.RemoveAll(tmp) }
	m := &materialized{repo: s.Repo, root: tmp}
	if err := m.load(); err != nil {
		done()
		return nil, nil, err
	}
	f = &Folder{
		Root: tmp,
		Lock: func(ctx context.Context) (func(), error) {
			unlock, err := s.Repo.Lock(ctx, userLock)
			if err != nil {
				return nil, err
			}
			if err := m.refresh(); err != nil {
				unlock()
				return nil, err
			}
			return unlock, nil
		},
		Commit: func(ctx context.Context, paths []string, message string) (string, error) {
			rewrites := map[string]agent.Rewrite{}
			for _, p := range paths {
				data, err := os.ReadFile(filepath.Join(tmp, filepath.FromSlash(p)))
				switch {
				case os.IsNotExist(err):
					data = nil
				case err != nil:
					return "", fmt.Errorf("failed to read %s: %w", p, err)
				}
				rewrites[p] = agent.Rewrite{Data: data, Was: m.blobs[p]}
			}
			h, err := s.CommitGlobal(ctx, agent.GlobalChange{Rewrites: rewrites, Message: message})
			if err != nil {
				return "", err
			}
			// The next command reads global again: a commit that lost a race
			// landed on top of what another writer changed meanwhile.
			m.tip = staterepo.ZeroHash
			return h.String(), nil
		},
		Check: func(subject string, data []byte) error {
			err := agent.Guard(subject, data, agent.WriteOptions{})
			var pe *planqerr.Error
			if errors.As(err, &pe) && pe.Kind == planqerr.Refused {
				refused := *pe
				refused.Hint = "remove the credential: the user layer keeps none (every project's session may read it, and it syncs to your own remote)"
				return &refused
			}
			return err
		},
		Trailer: "Planq-Layer: user",
	}
	return f, done, nil
}

// materialized is global's memories/ on disk: the blob of each file as it
// was read (by path relative to the checkout: memories/...) and the tip it
// was read from.
type materialized struct {
	repo  *staterepo.Repo
	root  string
	tip   staterepo.Hash
	blobs map[string]staterepo.Hash
}

// load writes global's memories/ under root, replacing what is there.
func (m *materialized) load() error {
	tip, err := m.repo.Tip(project.GlobalBranch)
	if err != nil {
		return err
	}
	dir := filepath.Join(m.root, project.MemoriesDir)
	if err := os.RemoveAll(dir); err != nil {
		return fmt.Errorf("failed to clear %s: %w", dir, err)
	}
	files, err := m.repo.Walk(tip, []string{project.MemoriesDir}, nil)
	if err != nil {
		return err
	}
	blobs := map[string]staterepo.Hash{}
	for _, f := range files {
		data, err := m.repo.ReadBlob(f.Blob)
		if err != nil {
			return err
		}
		full := filepath.Join(m.root, filepath.FromSlash(f.Path))
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err != nil {
			return fmt.Errorf("failed to create %s: %w", filepath.Dir(full), err)
		}
		if err := os.WriteFile(full, data, 0o644); err != nil {
			return fmt.Errorf("failed to write %s: %w", full, err)
		}
		blobs[f.Path] = f.Blob
	}
	m.tip, m.blobs = tip, blobs
	return nil
}

// refresh loads global's memories/ again when global moved since.
func (m *materialized) refresh() error {
	tip, err := m.repo.Tip(project.GlobalBranch)
	if err != nil {
		return err
	}
	if tip == m.tip {
		return nil
	}
	return m.load()
}
