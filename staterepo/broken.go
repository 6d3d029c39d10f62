package staterepo

import (
	"bytes"
	"compress/zlib"
	"context"
	"errors"
	"fmt"
	"io"
	"io/fs"
	"os"
	"path/filepath"
	"strconv"

	"github.com/go-git/go-git/v5/plumbing"

	"github.com/planq-dev/planq/planqerr"
)

// maxLooseCheck bounds what CheckLoose inflates: it is asked about commits,
// which are small; a larger object is not read to the end.
const maxLooseCheck = 1 << 20

// LooseFile is where object h would be stored loose.
func (r *Repo) LooseFile(h Hash) string {
	hex := h.String()
	return filepath.Join(r.Path, "objects", hex[:2], hex[2:])
}

// CheckLoose reports a damaged loose object file of h: one that does not
// inflate, or holds another object than h. It returns nil when h is not
// stored loose: packed objects are checked by their pack's checksums when
// read, and finding them would open the pack index, which a warm read of
// the memory never does. A branch tip written lately is loose, and the
// damage a crash or a full disk does lands there.
func (r *Repo) CheckLoose(h Hash) error {
	file := r.LooseFile(h)
	f, err := os.Open(file)
	if errors.Is(err, fs.ErrNotExist) {
		return nil // packed, or missing: nothing to judge here
	}
	if err != nil {
		return fmt.Errorf("failed to read object %s: %w", h, err)
	}
	defer f.Close()
	damaged := func(format string, args ...any) error {
		return planqerr.New(planqerr.Corrupt, "", "object file %s is damaged: it %s", file, fmt.Sprintf(format, args...)).
			WithHint("run 'planq doctor': it names the branch whose tip it is, and --fix moves that branch back to its newest readable commit")
	}
	zr, err := zlib.NewReader(f)
	if err != nil {
		return damaged("does not inflate (%v)", err)
	}
	defer zr.Close()
	data, err := io.ReadAll(io.LimitReader(zr, maxLooseCheck))
	if err != nil {
		return damaged("does not inflate (%v)", err)
	}
	head, body, ok := bytes.Cut(data, []byte{0})
	kind, size, ok2 := bytes.Cut(head, []byte(" "))
	n, err := strconv.Atoi(string(size))
	t, terr := plumbing.ParseObjectType(string(kind))
	switch {
	case !ok || !ok2 || err != nil || terr != nil:
		return damaged("has no object header")
	case len(body) < n && len(data) < maxLooseCheck:
		return damaged("is cut short (%d of %d bytes)", len(body), n)
	case len(data) < maxLooseCheck && plumbing.ComputeHash(t, body[:n]) != h:
		return damaged("holds another object")
	}
	return nil
}

// objectError explains a failure to read object h: a damaged loose file is
// named as such, with what to do; anything else is returned as it is.
func (r *Repo) objectError(h Hash, err error) error {
	if errors.Is(err, plumbing.ErrObjectNotFound) {
		return err
	}
	if damage := r.CheckLoose(h); damage != nil {
		return damage
	}
	return err
}

// BrokenTipRef is where KeepBroken keeps an unreadable tip of branch.
func BrokenTipRef(branch, stamp string) string {
	return "refs/planq/broken/" + branch + "/" + stamp
}

// BrokenTipFile is where KeepBroken keeps the hash of an unreadable tip of
// branch when git refuses a ref to it.
func (r *Repo) BrokenTipFile(branch, stamp string) string {
	return filepath.Join(r.Path, "planq", "broken", branch, stamp)
}

// KeepBroken records bad, an unreadable tip of branch, before the branch
// is moved off it, and says where: as the ref BrokenTipRef, or, since git
// refuses to point a ref at an object it cannot parse (a damaged commit),
// as a file at BrokenTipFile holding the hash. Either way a person can get
// the object back from another copy of the repository by its hash.
func (r *Repo) KeepBroken(ctx context.Context, branch string, bad Hash, stamp string) (string, error) {
	ref := BrokenTipRef(branch, stamp)
	if err := r.CreateRef(ctx, ref, bad, "planq doctor: the unreadable tip of "+branch); err == nil {
		return ref, nil
	}
	file := r.BrokenTipFile(branch, stamp)
	if err := os.MkdirAll(filepath.Dir(file), 0o755); err != nil {
		return "", fmt.Errorf("failed to keep the unreadable tip of %s: %w", branch, err)
	}
	if err := os.WriteFile(file, []byte(bad.String()+"\n"), 0o644); err != nil {
		return "", fmt.Errorf("failed to keep the unreadable tip of %s: %w", branch, err)
	}
	return file, nil
}

// MoveDamagedAside moves the loose file of h to dest when it is damaged
// (CheckLoose), and reports whether it did. git then sees the object as
// missing rather than corrupt: gc and repack work again, and a fetch from a
// copy that has it can bring it back. The file's bytes are kept at dest.
func (r *Repo) MoveDamagedAside(h Hash, dest string) (bool, error) {
	if r.CheckLoose(h) == nil {
		return false, nil
	}
	if err := os.MkdirAll(filepath.Dir(dest), 0o755); err != nil {
		return false, fmt.Errorf("failed to move the damaged object %s aside: %w", h, err)
	}
	if err := os.Rename(r.LooseFile(h), dest); err != nil {
		return false, fmt.Errorf("failed to move the damaged object %s aside: %w", h, err)
	}
	return true, nil
}

// DamagedOf lists the objects that make commit h unreadable and are
// stored loose and damaged: h itself, or its root tree.
func (r *Repo) DamagedOf(h Hash) []Hash {
	if r.CheckLoose(h) != nil {
		return []Hash{h}
	}
	if c, err := r.readCommit(h); err == nil && r.CheckLoose(c.Tree) != nil {
		return []Hash{c.Tree}
	}
	return nil
}

// ReadableBefore finds the newest readable commit that was on branch
// before bad, its unreadable tip: bad's first parents when bad itself reads
// but its tree does not, else the newest earlier tip a reflog proves.
func (r *Repo) ReadableBefore(branch string, bad Hash) (TipCandidate, bool, error) {
	if c, err := r.readCommit(bad); err == nil {
		for i := 0; i < 1000 && len(c.Parents) > 0; i++ {
			p := c.Parents[0]
			if r.Readable(p) == nil {
				pc, _ := r.readCommit(p)
				return TipCandidate{Commit: p, Time: pc.Committer.When, From: "the first parents of " + bad.String()[:12]}, true, nil
			}
			if c, err = r.readCommit(p); err != nil {
				break
			}
		}
	}
	return r.NewestReadableTip(branch, bad)
}
