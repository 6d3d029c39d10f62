package staterepo

import (
	"context"
	"errors"
	"fmt"
	"io/fs"
	"os"
	"path/filepath"
	"regexp"
	"slices"
	"strings"
	"sync"
	"syscall"

	"github.com/go-git/go-billy/v5/osfs"
	"github.com/go-git/go-git/v5/plumbing"
	"github.com/go-git/go-git/v5/plumbing/cache"
	"github.com/go-git/go-git/v5/plumbing/storer"
	"github.com/go-git/go-git/v5/storage/filesystem"

	"github.com/planq-dev/planq/planqerr"
	"github.com/planq-dev/planq/project"
)

// zeroOID is git's "must not exist" old value for update-ref.
const zeroOID = "0000000000000000000000000000000000000000"

// Repo is an opened bare state repository.
type Repo struct {
	Path string
	st   *filesystem.Storage // go-git's object and ref storage, without its transports
	git  Git
	identityState
}

// Exists reports whether a bare repository is at path.
func Exists(path string) bool {
	_, err := os.Stat(filepath.Join(path, "HEAD"))
	return err == nil
}

// Open opens the bare state repository at path.
func Open(path string) (*Repo, error) {
	if !Exists(path) {
		return nil, planqerr.New(planqerr.NotInitialized, path, "state repository does not exist").
			WithHint("run 'planq init' (or 'planq state init') in the code repository")
	}
	exts, err := UnsupportedExtensions(path)
	if err != nil {
		return nil, fmt.Errorf("failed to open state repository %s: %w", path, err)
	}
	if len(exts) > 0 {
		return nil, planqerr.New(planqerr.Corrupt, path, "repository uses a git extension planq cannot read: extensions.%s", exts[0]).
			WithHint("neither extensions.worktreeConfig nor extensions.relativeWorktrees is planq's doing; 'planq doctor --fix' unsets them")
	}
	st := filesystem.NewStorage(osfs.New(path, osfs.WithBoundOS()), cache.NewObjectLRUDefault())
	return &Repo{Path: path, st: st, git: Git{Dir: path}}, nil
}

// Init creates a bare state repository at path whose global branch holds
// files, and then each of then (see CreateGlobal), unless one is there
// already. It reports whether it created anything. Two processes racing
// here end with one repository and one global branch.
func Init(ctx context.Context, path string, files map[string][]byte, then ...InitialCommit) (bool, error) {
	return InitWith(ctx, path, func(r *Repo) error { return r.CreateGlobal(ctx, files, then...) })
}

// InitWith creates a bare state repository at path and lets fill give it
// its global branch before anyone can see it, unless a repository with a
// global branch is there already. It reports whether it created one. A fill
// that fails leaves nothing behind.
func InitWith(ctx context.Context, path string, fill func(*Repo) error) (bool, error) {
	if Exists(path) {
		r, err := Open(path)
		if err != nil {
			return false, err
		}
		if _, err := r.Tip(project.GlobalBranch); err == nil {
			return false, nil
		}
		switch err := fill(r); {
		case planqerr.Is(err, planqerr.Exists):
			return false, nil // another planq filled it first
		case err != nil:
			return false, err
		}
		return true, nil
	}
	return createBare(ctx, path, fill)
}

// createBare makes the bare repository beside its final place, fills it, and
// renames it in, so no one ever sees it half-made and racing inits cannot
// collide: the first rename wins and the others discard their copy.
func createBare(ctx context.Context, path string, fill func(*Repo) error) (bool, error) {
	if err := os.MkdirAll(filepath.Dir(path), 0o755); err != nil {
		return false, cannotWrite(filepath.Dir(path), err)
	}
	tmp, err := os.MkdirTemp(filepath.Dir(path), "."+filepath.Base(path)+".init-")
	if err != nil {
		return false, cannotWrite(filepath.Dir(path), err)
	}
	defer os.RemoveAll(tmp) // a no-op once renamed
	g := Git{Dir: tmp}
	if _, err := g.Run(ctx, "init", "--quiet", "--bare", "."); err != nil {
		return false, fmt.Errorf("failed to create state repository: %w", err)
	}
	settings := [][2]string{
		{"symbolic-ref", "HEAD " + project.BranchRef(project.GlobalBranch)},
		// The user's global hooks are for code, not for planq's state.
		{"config", "core.hooksPath /dev/null"},
		// Agents commit often; a signing prompt would hang them.
		{"config", "commit.gpgSign false"},
		{"config", "tag.gpgSign false"},
		// Old objects stay for two weeks: an agent may still need them.
		{"config", "gc.pruneExpire 2.weeks.ago"},
		{"config", "core.logAllRefUpdates always"},
		// Agents add one file at a time to worktrees of many thousand files:
		// a split index rewrites only what changed, not the whole index.
		{"config", "core.splitIndex true"},
		// Path-compressed index entries: record paths share long prefixes.
		{"config", "index.version 4"},
	}
	for _, s := range settings {
		args := append([]string{s[0]}, strings.Fields(s[1])...)
		if _, err := g.Run(ctx, args...); err != nil {
			return false, fmt.Errorf("failed to configure state repository: %w", err)
		}
	}
	r, err := Open(tmp)
	if err != nil {
		return false, err
	}
	if err := fill(r); err != nil {
		return false, err
	}
	if err := os.Rename(tmp, path); err != nil {
		if Exists(path) {
			return false, nil // another planq got there first; theirs is as good
		}
		return false, fmt.Errorf("failed to create state repository: %w", err)
	}
	return true, nil
}

// cannotWrite explains a directory planq must write in and cannot: most
// often PLANQ_HOME, read-only or not a directory.
func cannotWrite(dir string, err error) error {
	if errors.Is(err, fs.ErrPermission) || errors.Is(err, syscall.ENOTDIR) || errors.Is(err, syscall.EROFS) {
		return planqerr.New(planqerr.Failure, dir, "planq cannot write here (%v), and it keeps the state repositories here", errors.Unwrap(err)).
			WithHint("make it a directory you can write to, or point PLANQ_HOME at one: export PLANQ_HOME=$HOME/.planq")
	}
	return fmt.Errorf("failed to create %s: %w", dir, err)
}

// InitialCommit is a commit a new global gets on top of its first, adding
// Files.
type InitialCommit struct {
	Message string
	Files   map[string][]byte
}

// CreateGlobal gives a new repository its global branch: a first commit
// holding files, then a commit for each of then. It fails with
// planqerr.Exists when another process made global first. Each commit
// depends on what it holds alone: two machines that create the same global
// apart make the same commits, and their globals share history.
func (r *Repo) CreateGlobal(ctx context.Context, files map[string][]byte, then ...InitialCommit) error {
	commit, err := r.initialCommit(plumbing.ZeroHash, "planq: initialise state repository\n", files)
	if err != nil {
		return err
	}
	for _, c := range then {
		if commit, err = r.initialCommit(commit, c.Message, c.Files); err != nil {
			return err
		}
	}
	return r.CreateRef(ctx, project.BranchRef(project.GlobalBranch), commit, "planq: init")
}

// initialCommit adds files to parent's tree (none: an empty one) in a
// commit signed and dated as every machine signs it.
func (r *Repo) initialCommit(parent plumbing.Hash, message string, files map[string][]byte) (plumbing.Hash, error) {
	base := plumbing.ZeroHash
	var parents []plumbing.Hash
	if !parent.IsZero() {
		tree, err := r.TreeOf(parent)
		if err != nil {
			return plumbing.ZeroHash, err
		}
		base, parents = tree, []plumbing.Hash{parent}
	}
	blobs := make(map[string]plumbing.Hash, len(files))
	for p, data := range files {
		h, err := r.WriteBlob(data)
		if err != nil {
			return plumbing.ZeroHash, err
		}
		blobs[p] = h
	}
	tree, err := r.EditTree(base, blobs)
	if err != nil {
		return plumbing.ZeroHash, err
	}
	return r.writeCommit(tree, parents, message, rootSignature)
}

// Tip returns the commit a branch points at.
func (r *Repo) Tip(branch string) (plumbing.Hash, error) {
	ref, err := storer.ResolveReference(r.st, plumbing.ReferenceName(project.BranchRef(branch)))
	if errors.Is(err, plumbing.ErrReferenceNotFound) {
		return plumbing.ZeroHash, planqerr.New(planqerr.NotFound, "branch "+branch, "does not exist")
	}
	if err != nil {
		return plumbing.ZeroHash, fmt.Errorf("failed to read branch %s: %w", branch, err)
	}
	return ref.Hash(), nil
}

// Branches lists the local branches whose names start with prefix, with tips.
func (r *Repo) Branches(prefix string) (map[string]plumbing.Hash, error) {
	out := map[string]plumbing.Hash{}
	err := r.eachRef(func(ref string, h plumbing.Hash) {
		if name, ok := project.BranchOfRef(ref); ok && strings.HasPrefix(name, prefix) {
			out[name] = h
		}
	})
	if err != nil {
		return nil, fmt.Errorf("failed to list branches: %w", err)
	}
	return out, nil
}

// Refs lists references under prefix (for example "refs/tags/checkpoint/").
func (r *Repo) Refs(prefix string) (map[string]plumbing.Hash, error) {
	out := map[string]plumbing.Hash{}
	err := r.eachRef(func(ref string, h plumbing.Hash) {
		if strings.HasPrefix(ref, prefix) {
			out[ref] = h
		}
	})
	if err != nil {
		return nil, fmt.Errorf("failed to list references: %w", err)
	}
	return out, nil
}

// eachRef calls fn for every ref that names an object. It reads the refs
// as git keeps them rather than through go-git, which reads every file under
// refs/, git's lock files included, and fails on the empty one a concurrent
// update-ref has just created. Loose refs are read before packed-refs: git
// pack-refs writes packed-refs before it deletes the loose files, so a ref
// being packed is seen one way or the other.
func (r *Repo) eachRef(fn func(name string, h plumbing.Hash)) error {
	w := &looseRefs{repo: r.Path, seen: map[string]bool{}, fn: fn}
	if err := filepath.WalkDir(filepath.Join(r.Path, "refs"), w.visit); err != nil {
		return err
	}
	packed, err := os.ReadFile(filepath.Join(r.Path, "packed-refs"))
	if err != nil && !isNotExist(err) {
		return err
	}
	for _, line := range strings.Split(string(packed), "\n") {
		hash, name, ok := strings.Cut(strings.TrimSpace(line), " ")
		if !ok || strings.HasPrefix(line, "#") || strings.HasPrefix(line, "^") || w.seen[name] {
			continue
		}
		if h, ok := parseHash(hash); ok {
			fn(name, h)
		}
	}
	return nil
}

// looseRefs walks the loose refs of the repository at repo, calling fn
// for each that names an object, and noting it seen.
type looseRefs struct {
	repo string
	seen map[string]bool
	fn   func(name string, h plumbing.Hash)
}

// visit reads the ref file at p, if it is one.
func (w *looseRefs) visit(p string, d fs.DirEntry, err error) error {
	if err != nil {
		if isNotExist(err) {
			return nil // a ref directory deleted while we walked
		}
		return err
	}
	if d.IsDir() || strings.HasSuffix(p, ".lock") {
		return nil
	}
	data, err := os.ReadFile(p)
	if isNotExist(err) {
		return nil // deleted, or packed, meanwhile
	}
	if err != nil {
		return err
	}
	rel, err := filepath.Rel(w.repo, p)
	if err != nil {
		return err
	}
	name := filepath.ToSlash(rel)
	if h, ok := parseHash(strings.TrimSpace(string(data))); ok {
		w.seen[name] = true
		w.fn(name, h)
	}
	return nil
}

// parseHash reads a full hex object ID.
func parseHash(s string) (plumbing.Hash, bool) {
	if len(s) != 40 {
		return plumbing.ZeroHash, false
	}
	for _, c := range s {
		if (c < '0' || c > '9') && (c < 'a' || c > 'f') {
			return plumbing.ZeroHash, false
		}
	}
	return plumbing.NewHash(s), true
}

// CreateRef creates ref at commit; it fails with planqerr.Exists if the ref
// is there already, whoever made it.
func (r *Repo) CreateRef(ctx context.Context, ref string, commit Hash, reason string) error {
	_, err := r.git.Run(ctx, "update-ref", "-m", reason, ref, commit.String(), zeroOID)
	if err != nil {
		name := plumbing.ReferenceName(ref)
		if _, lookErr := r.st.Reference(name); lookErr == nil {
			return planqerr.New(planqerr.Exists, name.Short(), "already exists")
		}
		return fmt.Errorf("failed to create %s: %w", name.Short(), err)
	}
	return nil
}

// DeleteRef deletes ref if it still points at old.
func (r *Repo) DeleteRef(ctx context.Context, ref string, old Hash) error {
	if _, err := r.git.Run(ctx, "update-ref", "-d", ref, old.String()); err != nil {
		return fmt.Errorf("failed to delete %s: %w", ref, err)
	}
	return nil
}

// ErrRefMoved means a ref was not where the caller expected: someone else
// updated it first. Re-read and try again.
var ErrRefMoved = errors.New("ref moved")

// refMoved reports whether git refused a ref update because the ref was not
// at the expected old value, or another writer held its lock.
func refMoved(err error) bool {
	return stderrContains(err, "but expected") || stderrContains(err, "cannot lock ref") || stderrContains(err, "is at ")
}

func updateRef(ctx context.Context, g Git, ref string, commit, old plumbing.Hash, reason string) error {
	_, err := g.Run(ctx, "update-ref", "-m", reason, ref, commit.String(), old.String())
	if err == nil {
		return nil
	}
	if locked := lockedBy(err); locked != nil {
		return locked
	}
	if refMoved(err) {
		return fmt.Errorf("failed to update %s: %w", ref, ErrRefMoved)
	}
	return fmt.Errorf("failed to update %s: %w", ref, err)
}

// lockedBy is the RefLockedError that err is, when git found a ref's lock
// file; nil otherwise.
func lockedBy(err error) *RefLockedError {
	var ge *GitError
	if errors.As(err, &ge) {
		if m := lockFileRE().FindStringSubmatch(ge.Stderr); m != nil {
			return &RefLockedError{Lock: m[1]}
		}
	}
	return nil
}

var lockFileRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`Unable to create '([^']+\.lock)': File exists`) })

// RefLockedError is a ref update that found git's lock file for the ref:
// another git process is updating it, or one died and left the lock. It is
// a lost race (errors.Is ErrRefMoved), retried like one until it lasts.
type RefLockedError struct {
	Lock string
}

func (e *RefLockedError) Error() string {
	return "a branch is locked by " + e.Lock + ": a git process is updating it, or one died and left the lock"
}

func (e *RefLockedError) Unwrap() error { return ErrRefMoved }

// isNotExist is errors.Is(err, fs.ErrNotExist), named for readability.
func isNotExist(err error) bool { return errors.Is(err, fs.ErrNotExist) }

// unsupportedExtensions are repository extensions go-git refuses to open.
var unsupportedExtensions = []string{"worktreeconfig", "relativeworktrees"}

// UnsupportedExtensions lists the extensions set in the repository at path
// that go-git cannot open, read from its config file directly.
func UnsupportedExtensions(path string) ([]string, error) {
	data, err := os.ReadFile(filepath.Join(path, "config"))
	if err != nil {
		return nil, fmt.Errorf("failed to read config of %s: %w", path, err)
	}
	var found []string
	inExt := false
	for _, line := range strings.Split(string(data), "\n") {
		line = strings.ToLower(strings.TrimSpace(line))
		if strings.HasPrefix(line, "[") {
			inExt = strings.HasPrefix(line, "[extensions")
			continue
		}
		key, _, _ := strings.Cut(line, "=")
		if key = strings.TrimSpace(key); inExt && slices.Contains(unsupportedExtensions, key) {
			found = append(found, key)
		}
	}
	return found, nil
}

// UnsetExtension removes extensions.<name> from the repository at path.
func UnsetExtension(ctx context.Context, path, name string) error {
	if _, err := (Git{Dir: path}).Run(ctx, "config", "--unset-all", "extensions."+name); err != nil {
		return fmt.Errorf("failed to unset extensions.%s: %w", name, err)
	}
	return nil
}

// CreateBranch creates branch at a new commit on top of from's tip that adds
// files, without any worktree. It fails with planqerr.Exists when the branch
// exists, whoever created it.
func (r *Repo) CreateBranch(ctx context.Context, branch, from string, files map[string][]byte, message string) (Hash, error) {
	base, err := r.Tip(from)
	if err != nil {
		return ZeroHash, err
	}
	parent, err := r.Commit(base)
	if err != nil {
		return ZeroHash, err
	}
	blobs := make(map[string]plumbing.Hash, len(files))
	for p, data := range files {
		if blobs[p], err = r.WriteBlob(data); err != nil {
			return ZeroHash, err
		}
	}
	tree, err := r.EditTree(parent.Tree, blobs)
	if err != nil {
		return ZeroHash, err
	}
	commit, err := r.WriteCommit(tree, []plumbing.Hash{base}, message)
	if err != nil {
		return ZeroHash, err
	}
	if err := r.CreateRef(ctx, project.BranchRef(branch), commit, "planq: "+subject(message)); err != nil {
		return ZeroHash, err
	}
	return commit, nil
}

// DeleteBranch deletes branch if it still points at old.
func (r *Repo) DeleteBranch(ctx context.Context, branch string, old Hash) error {
	return r.DeleteRef(ctx, project.BranchRef(branch), old)
}
