package knowledge

import (
	"bytes"
	"context"

	"github.com/planq-dev/planq/agent"
	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/planqerr"
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
	if h := st.articles[slug]; h != nil {
		return Opened{Slug: slug, Path: h.path, Data: h.data, Blob: h.blob}, nil
	}
	if p := st.broken[slug]; p != "" {
		blob, err := repo.BlobAt(st.tree, p)
		if err != nil {
			return Opened{}, err
		}
		data, err := repo.ReadBlob(blob)
		if err != nil {
			return Opened{}, err
		}
		o := Opened{Slug: slug, Path: p, Data: data, Blob: blob}
		for _, pr := range st.problems {
			if pr.Path == p {
				o.Problem = pr.Problem
			}
		}
		return o, nil
	}
	if st.deleted[slug] {
		return Opened{}, planqerr.New(planqerr.NotFound, "article "+slug, "was deleted; planq does not make it again")
	}
	return Opened{}, planqerr.New(planqerr.NotFound, "article "+slug, "is not on global").
		WithHint("'planq kb list' shows the articles and their slugs")
}

// Edit commits a person's new text of the article they opened to global,
// as theirs: its commit carries no Planq-Knowledge trailer, so Update
// never rewrites the article again, and only lists new sources at its
// end. Text that is the same as it was commits nothing (Action
// unchanged). The text must parse strictly, be of a project topic (a new
// one moves the file) and cite only sources that exist; an article
// planq wrote alone (curated_by auto) becomes mixed, and its updated
// time now, unless the person set it. A change on global since Open is
// refused, never overwritten.
func Edit(ctx context.Context, store *agent.Store, was Opened, data []byte, name string, opts Options) (WriteResult, error) {
	subject := "article " + was.Slug
	res := WriteResult{Slug: was.Slug, Path: was.Path, Action: "unchanged"}
	if bytes.Equal(data, was.Data) {
		return res, nil
	}
	a, err := parseGiven(subject, name, was.Slug, data)
	if err != nil {
		return res, err
	}
	_, d, err := derive(ctx, store, opts)
	if err != nil {
		return res, err
	}
	if blob, err := store.Repo.BlobAt(d.st.tree, was.Path); err != nil || blob != was.Blob {
		return res, planqerr.New(planqerr.Busy, subject, "changed on global since you opened it; nothing was written").
			WithHint("open it again with 'planq kb edit %s' and make your change there", was.Slug)
	}
	if err := d.checkTopic(subject, a); err != nil {
		return res, err
	}
	h := d.st.articles[was.Slug]
	if err := d.checkSourcesExist(subject, a, h); err != nil {
		return res, err
	}
	if err := checkConflict(subject, a); err != nil {
		return res, err
	}
	touch := h == nil || a.Updated.Equal(h.a.Updated)
	if h != nil && h.path == a.Path() {
		same, err := changelog.RenderArticle(a)
		if err != nil {
			return res, err
		}
		if bytes.Equal(same, h.data) {
			res.CuratedBy, res.Updated = h.a.CuratedBy, h.a.Updated
			return res, nil // only the layout changed
		}
	}
	if a.CuratedBy == changelog.CuratedAuto {
		a.CuratedBy = changelog.CuratedMixed
	}
	return commitArticle(ctx, store, d, h, a, touch, "kb edit "+was.Slug+"\n")
}
