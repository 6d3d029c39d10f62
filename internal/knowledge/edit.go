package knowledge

import (
	"bytes"
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/planq-dev/planq/agent"
	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/planqerr"
	"github.com/planq-dev/planq/project"
	"github.com/planq-dev/planq/staterepo"
)

// Opened is an article's file as a person opens it to edit.
type Opened struct {
	Slug string
	Path string
	Data []byte
	// Blob is the file's blob: Edit commits only over it, never over a
	// change it did not see.
	Blob staterepo.Hash
	// Problem says why planq cannot read the file, "" when it can: the
	// person's edit is how to fix it.
	Problem string
}

// Open reads the article slug on global for a person to edit, or the file
// at its path planq cannot read.
func Open(ctx context.Context, repo *staterepo.Repo, slug string) (Opened, error) {
	st, err := forSlug(ctx, repo, slug)
	if err != nil {
		return Opened{}, err
	}
	if h := st.Articles[slug]; h != nil {
		return Opened{Slug: slug, Path: h.Path, Data: h.Data, Blob: h.Blob}, nil
	}
	if p := st.Broken[slug]; p != "" {
		blob, err := repo.BlobAt(st.Tree, p)
		if err != nil {
			return Opened{}, err
		}
		data, err := repo.ReadBlob(blob)
		if err != nil {
			return Opened{}, err
		}
		o := Opened{Slug: slug, Path: p, Data: data, Blob: blob}
		for _, pr := range st.Problems {
			if pr.Path == p {
				o.Problem = pr.Problem
			}
		}
		return o, nil
	}
	if st.Deleted[slug] {
		return Opened{}, deletedError(repo.Path, st, slug)
	}
	return Opened{}, planqerr.New(planqerr.NotFound, "article "+slug, "is not on global").
		WithHint("'planq kb list' shows the articles and their slugs")
}

// OpenAt is Open of the version base of the article slug: base is the
// hex of its blob, whole or its first 7 or more digits, which may be the
// article on global or any version it had. Edit then commits a text
// edited from it only when global still holds it, and otherwise hands
// back both changes merged.
func OpenAt(ctx context.Context, repo *staterepo.Repo, slug, base string) (Opened, error) {
	cur, err := Open(ctx, repo, slug)
	if err != nil || strings.HasPrefix(cur.Blob.String(), base) {
		return cur, err
	}
	tip, err := repo.Tip(project.GlobalBranch)
	if err != nil {
		return Opened{}, err
	}
	history, err := repo.FileHistory(ctx, tip, dir, TrailerKey)
	if err != nil {
		return Opened{}, err
	}
	var found []staterepo.Hash
	for _, c := range history {
		_, s, ok := changelog.SplitArticlePath(c.Path)
		if !ok || s != slug || c.Blob.IsZero() || !strings.HasPrefix(c.Blob.String(), base) || slices.Contains(found, c.Blob) {
			continue
		}
		found = append(found, c.Blob)
	}
	subject := "article " + slug
	switch len(found) {
	case 0:
		return Opened{}, planqerr.New(planqerr.Invalid, subject, "--base %s is no version of the article", base).
			WithHint("give the blob of the version your text was edited from: 'planq kb show %s --json' prints the article's", slug)
	case 1:
	default:
		return Opened{}, planqerr.New(planqerr.Invalid, subject, "--base %s names %d versions of the article", base, len(found)).
			WithHint("give more of the blob's digits, or all 40")
	}
	data, err := repo.ReadBlob(found[0])
	if err != nil {
		return Opened{}, err
	}
	cur.Data, cur.Blob = data, found[0]
	return cur, nil
}

// deletedError says that the article slug was deleted, and how to bring
// it back: the file that remembers the deletion, the blob of its last
// text, and the write that makes it again.
func deletedError(repoPath string, st *state, slug string) error {
	err := planqerr.New(planqerr.NotFound, "article "+slug, "was deleted; planq does not make it again")
	marker, last := st.DeletedWhere(slug)
	if marker == "" {
		// Deleted with git: the next update writes the file that remembers it.
		marker = "the next 'planq kb update'"
	}
	hint := marker + " remembers the deletion"
	if !last.IsZero() {
		hint += fmt.Sprintf("; its last text is blob %s: save it with git -C %s show %s > %s.md, then 'planq kb write --force %s.md' writes it again and forgets the deletion",
			last, shellWord(repoPath), last, slug, slug)
	} else {
		hint += fmt.Sprintf("; 'planq kb write --force --slug %s FILE' writes it again and forgets the deletion", slug)
	}
	return err.WithHint("%s", hint)
}

// StaleError is Edit's refusal of a text edited from a version of the
// article that global no longer holds: nothing is written, and Merged
// holds both changes, for the person to check and send again over
// Current.
type StaleError struct {
	Err *planqerr.Error
	// Current is the article on global now ("" Path and no Blob when it
	// was deleted meanwhile: Gone).
	Current Opened
	Gone    bool
	// Merged is the person's text and global's change merged line by line
	// from the version both started from; the places where they clash,
	// Conflicts of them, are kept both, between conflict markers.
	Merged    []byte
	Conflicts int
}

func (e *StaleError) Error() string { return e.Err.Error() }
func (e *StaleError) Unwrap() error { return e.Err }

// Edit commits a person's new text of the article they opened to global,
// as theirs: its commit carries no Planq-Knowledge trailer, so Update
// never rewrites the article again, and only lists new sources at its
// end. Text that is the same as it was commits nothing (Action
// unchanged). The text must parse strictly, be of a project topic (a new
// one moves the file), cite only sources that exist, and hold no
// conflict marker; an article planq wrote alone (curated_by auto) becomes
// mixed, and its updated time now, unless the person set it. A change on
// global since the version opened is refused with a *StaleError, never
// overwritten.
func Edit(ctx context.Context, store *agent.Store, was Opened, data []byte, name string, opts Options) (WriteResult, error) {
	subject := "article " + was.Slug
	res := WriteResult{Slug: was.Slug, Path: was.Path, Action: "unchanged"}
	if bytes.Equal(data, was.Data) {
		return res, nil
	}
	if err := checkMarkers(subject, name, data); err != nil {
		return res, err
	}
	a, err := parseGiven(subject, name, was.Slug, data)
	if err != nil {
		return res, err
	}
	_, d, err := derive(ctx, store, opts)
	if err != nil {
		return res, err
	}
	if err := stale(store.Repo, d.st, was, data); err != nil {
		return res, err
	}
	if err := d.checkTopic(subject, a); err != nil {
		return res, err
	}
	h := d.st.Articles[was.Slug]
	if err := d.checkSourcesExist(subject, a, h); err != nil {
		return res, err
	}
	if err := checkConflict(subject, a); err != nil {
		return res, err
	}
	touch := h == nil || a.Updated.Equal(h.Article.Updated)
	if h != nil && h.Path == a.Path() {
		same, err := changelog.RenderArticle(a)
		if err != nil {
			return res, err
		}
		if bytes.Equal(same, h.Data) {
			res.CuratedBy, res.Updated = h.Article.CuratedBy, h.Article.Updated
			return res, nil // only the layout changed
		}
	}
	if a.CuratedBy == changelog.CuratedAuto {
		a.CuratedBy = changelog.CuratedMixed
	}
	return commitArticle(ctx, store, d, h, a, touch, "kb edit "+was.Slug+"\n")
}

// stale refuses data, edited from was, when global holds another version
// of the article now (moved to another topic or not), or none.
func stale(repo *staterepo.Repo, st *state, was Opened, data []byte) error {
	subject := "article " + was.Slug
	var cur Opened
	if h := st.Articles[was.Slug]; h != nil {
		cur = Opened{Slug: was.Slug, Path: h.Path, Data: h.Data, Blob: h.Blob}
	} else if p := st.Broken[was.Slug]; p != "" {
		blob, err := repo.BlobAt(st.Tree, p)
		if err != nil {
			return err
		}
		if cur.Data, err = repo.ReadBlob(blob); err != nil {
			return err
		}
		cur.Slug, cur.Path, cur.Blob = was.Slug, p, blob
	} else {
		return &StaleError{Gone: true, Merged: data,
			Err: planqerr.New(planqerr.Busy, subject, "was deleted on global since the version you edited; nothing was written").
				WithHint("'planq kb write --force --slug %s FILE' writes your text again", was.Slug)}
	}
	if cur.Blob == was.Blob {
		return nil
	}
	merged, n := merge3(was.Data, data, cur.Data)
	return &StaleError{Current: cur, Merged: merged, Conflicts: n,
		Err: planqerr.New(planqerr.Busy, subject, "changed on global since the version you edited; nothing was written").
			WithHint("open it again with 'planq kb edit %s' and make your change there", was.Slug)}
}

// checkMarkers refuses a text that still holds the conflict markers of a
// stale edit's merge: what both sides say is for the person to settle.
func checkMarkers(subject, name string, data []byte) error {
	opened := 0
	for i, line := range strings.Split(string(data), "\n") {
		line = strings.TrimRight(line, "\r")
		switch {
		case line == "<<<<<<<" || strings.HasPrefix(line, "<<<<<<< "):
			if opened == 0 {
				opened = i + 1
			}
		case opened > 0 && (line == ">>>>>>>" || strings.HasPrefix(line, ">>>>>>> ")):
			return planqerr.New(planqerr.Invalid, subject, "%s:%d: a conflict marker (<<<<<<<) is still in the text", name, opened).
				WithHint("keep what both sides say and take out the lines <<<<<<<, ======= and >>>>>>>")
		}
	}
	return nil
}

// shellWord is s as a shell reads it as one word: quoted when it holds
// anything but letters, digits and /._-+:@~.
func shellWord(s string) string {
	plain := func(c rune) bool {
		return c >= 'a' && c <= 'z' || c >= 'A' && c <= 'Z' || c >= '0' && c <= '9' || strings.ContainsRune("/._-+:@~", c)
	}
	for _, c := range s {
		if !plain(c) {
			return "'" + strings.ReplaceAll(s, "'", `'\''`) + "'"
		}
	}
	return s
}
