package memtool

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"sort"
	"strings"
	"syscall"
	"unicode/utf8"

	"github.com/planq-dev/planq/agent"
	"github.com/planq-dev/planq/internal/atomicfile"
	"github.com/planq-dev/planq/planqerr"
	"github.com/planq-dev/planq/project"
)

// Folder is a memories/ folder and how its changes are kept: the one seam
// between the protocol and the layer it writes to.
type Folder struct {
	// Root is the checkout that holds memories/; paths given to Commit are
	// relative to it.
	Root string
	// Lock serialises the folder's writers and returns the unlock.
	Lock func(ctx context.Context) (unlock func(), err error)
	// Commit commits exactly paths (slash-separated, relative to Root; a
	// missing file is a deletion) and returns the commit.
	Commit func(ctx context.Context, paths []string, message string) (string, error)
	// Check refuses what no file of the layer may hold: too large, binary,
	// a credential.
	Check func(subject string, data []byte) error
	// Trailer ends every commit message (who changed the folder).
	Trailer string
}

// ForAgent is the memories/ folder of a's state worktree: its changes are
// commits on the agent's branch, under the lock every writer for the
// agent takes, and what a file may hold is checked as a record is.
func ForAgent(a *agent.Agent, opts agent.WriteOptions) (*Folder, error) {
	wt, err := a.Worktree()
	if err != nil {
		return nil, err
	}
	repo, branch := a.Store().Repo, a.Branch
	return &Folder{
		Root: a.Dir,
		Lock: func(ctx context.Context) (func(), error) { return repo.Lock(ctx, branch) },
		Commit: func(ctx context.Context, paths []string, message string) (string, error) {
			h, err := wt.CommitFiles(ctx, paths, message)
			if err != nil {
				return "", err
			}
			return h.String(), nil
		},
		Check:   func(subject string, data []byte) error { return agent.Guard(subject, data, opts) },
		Trailer: "Planq-Agent: " + a.Name,
	}, nil
}

// dir is the memories folder on disk.
func (f *Folder) dir() string { return filepath.Join(f.Root, project.MemoriesDir) }

// full is rel (relative to the memories folder) on disk.
func (f *Folder) full(rel string) string {
	return filepath.Join(f.dir(), filepath.FromSlash(rel))
}

// tracked is rel as Commit takes it: relative to Root.
func tracked(rel string) string { return project.MemoriesDir + "/" + rel }

// spot is what is at a path under the memories folder.
type spot struct {
	rel  string
	full string
	info fs.FileInfo // nil: nothing is there
	// fileAbove is the protocol path of an ancestor that is a file, which
	// no path can go on under; "" when there is none.
	fileAbove string
}

// locate finds what is at rel, refusing a path that passes through a
// symbolic link (the folder itself included): a link could lead out of
// the folder, and git would keep the link, not the memory.
func (f *Folder) locate(p, rel string) (spot, error) {
	s := spot{rel: rel, full: f.full(rel)}
	cur := f.dir()
	names := []string{""}
	if rel != "" {
		names = append(names, strings.Split(rel, "/")...)
	}
	for i, name := range names {
		if name != "" {
			cur = filepath.Join(cur, name)
		}
		info, err := os.Lstat(cur)
		if errors.Is(err, fs.ErrNotExist) {
			return s, nil
		}
		if err != nil {
			return s, tooLong(p, fmt.Errorf("failed to read %s: %w", cur, err))
		}
		if info.Mode()&fs.ModeSymlink != 0 {
			return s, symlink(p)
		}
		last := i == len(names)-1
		if last {
			s.info = info
			return s, nil
		}
		if !info.IsDir() {
			s.fileAbove = display(strings.Join(names[1:i+1], "/"))
			return s, nil
		}
	}
	return s, nil
}

// isDir says whether the spot holds a directory; the memories folder is
// one even before its first file.
func (s spot) isDir() bool {
	return (s.info != nil && s.info.IsDir()) || (s.rel == "" && s.info == nil)
}

// isFile says whether the spot holds a regular file.
func (s spot) isFile() bool { return s.info != nil && s.info.Mode().IsRegular() }

// readText reads the file at s as text, refusing what is not.
func readText(p string, s spot) (string, error) {
	data, err := os.ReadFile(s.full)
	if err != nil {
		return "", fmt.Errorf("failed to read %s: %w", s.full, err)
	}
	if !utf8.Valid(data) || bytes.IndexByte(data, 0) >= 0 {
		return "", notText(p)
	}
	return string(data), nil
}

// filesUnder lists the files under the directory at rel (relative to the
// memories folder), hidden ones too, refusing a symbolic link anywhere in
// it: a change to a directory moves or removes every file in it.
func (f *Folder) filesUnder(p, rel string) ([]string, error) {
	var out []string
	root := f.full(rel)
	err := filepath.WalkDir(root, func(path string, d fs.DirEntry, err error) error {
		if err != nil {
			return err
		}
		if d.Type()&fs.ModeSymlink != 0 {
			return symlink(p)
		}
		if d.IsDir() {
			return nil
		}
		sub, err := filepath.Rel(f.dir(), path)
		if err != nil {
			return err
		}
		out = append(out, filepath.ToSlash(sub))
		return nil
	})
	if err != nil {
		if _, ok := AsRefusal(err); ok {
			return nil, err
		}
		return nil, fmt.Errorf("failed to list %s: %w", root, err)
	}
	sort.Strings(out)
	return out, nil
}

// snapshot keeps what files (relative to the memories folder) hold before
// a change, nil for a file that is not there, so that a change whose
// commit fails is undone.
type snapshot map[string][]byte

func (f *Folder) snapshot(rels ...string) (snapshot, error) {
	s := snapshot{}
	for _, rel := range rels {
		data, err := os.ReadFile(f.full(rel))
		switch {
		case errors.Is(err, fs.ErrNotExist) || errors.Is(err, syscall.ENAMETOOLONG): // no file can be there
			s[rel] = nil
		case err != nil:
			return nil, fmt.Errorf("failed to read %s: %w", f.full(rel), err)
		default:
			s[rel] = data
		}
	}
	return s, nil
}

// restore puts the files back as the snapshot has them. Best effort: the
// error that made the change fail is the one to report.
func (f *Folder) restore(s snapshot) {
	for rel, data := range s {
		full := f.full(rel)
		if data == nil {
			_ = os.Remove(full)
			f.pruneAbove(rel)
			continue
		}
		if err := os.MkdirAll(filepath.Dir(full), 0o755); err == nil {
			_ = atomicfile.WriteFile(full, data, 0o644)
		}
	}
}

// pruneAbove removes the directories above rel that are empty now, up to
// the memories folder: git keeps no empty directory, so neither does the
// folder, and a listing shows what a clone would have.
func (f *Folder) pruneAbove(rel string) {
	for dir := filepath.Dir(f.full(rel)); dir != f.dir() && strings.HasPrefix(dir, f.dir()); dir = filepath.Dir(dir) {
		err := os.Remove(dir)
		if errors.Is(err, syscall.ENAMETOOLONG) {
			continue // never made: a path too long for the file system ended the change there
		}
		if err != nil {
			return // not empty (or gone): what is above it is not empty either
		}
	}
}

// tooLong is err, or the protocol's answer when it is the file system
// refusing p as too long: the model can shorten the path.
func tooLong(p string, err error) error {
	if errors.Is(err, syscall.ENAMETOOLONG) {
		return pathTooLong(p)
	}
	return err
}

// commit commits the change to rels (relative to the memories folder),
// undoing it when the commit fails.
func (f *Folder) commit(ctx context.Context, before snapshot, rels []string, subject string) (string, error) {
	paths := make([]string, len(rels))
	for i, rel := range rels {
		paths[i] = tracked(rel)
	}
	msg := "memory: " + subject + "\n"
	if f.Trailer != "" {
		msg += "\n" + f.Trailer + "\n"
	}
	commit, err := f.Commit(ctx, paths, msg)
	if err != nil {
		f.restore(before)
		return "", planqerr.New(planqerr.Failure, f.dir(), "failed to commit the change (%s): %w", subject, err).
			WithHint("nothing was changed; once the cause is gone (another git process holding the index, say), run it again")
	}
	return commit, nil
}
