package knowledge

import (
	"errors"
	"io/fs"
	"slices"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/staterepo"
)

// An update makes again only the articles of planq's whose sources changed:
// at 10,000 records, a thousand articles made and rendered on every promote
// cost a second. An article is made from its sources alone (and from the
// tags of the others, for its Related links), so one whose sources are the
// same, each as current as the article says, comes out byte for byte as
// it is.

// stale reports whether the article h, of draft d (with the records its
// group adds), may come out otherwise than it is: a source of it is no
// longer current (the article marks it, or is deprecated), a source was
// promoted disputed (the record it contradicts may have changed
// elsewhere), or whether its sources contradict each other is not what its
// status says (asked only when the index was written under another
// dispute rule).
func (d *draft) stale(h *held, rs *records) bool {
	var live []*changelog.Record
	for _, r := range d.sourceRecords(rs) {
		if !rs.live[r.ID] || r.Status == changelog.StatusDisputed {
			return true
		}
		live = append(live, r)
	}
	if len(live) == 0 {
		return h.Article.Status != changelog.StatusDeprecated
	}
	if rs.statusesFollowRule {
		// Its sources, each immutable, are those it was made from, under
		// today's rule: the answer is the one it holds. Asking again costs
		// every article's pairs of sources on every update.
		return h.Article.Status == changelog.StatusDeprecated
	}
	disputed := len(contradictions(d.slug, live, nil)) > 0
	return disputed != (h.Article.Status == changelog.StatusDisputed)
}

// relatedDrafts are the drafts of the articles of planq's not made again
// that share a tag with one that was made, made or deleted, before or
// after: their Related links may change.
func relatedDrafts(drafts map[string]*draft, st *state, rs *records, final map[string]*changelog.Article) map[string]*draft {
	tags := changedTags(drafts, st, final)
	more := map[string]*draft{}
	if len(tags) == 0 {
		return more
	}
	for slug, h := range st.Articles {
		if drafts[slug] != nil || final[slug] == nil || h.Personal() {
			continue
		}
		if slices.ContainsFunc(h.Article.Tags, func(t string) bool { return tags[t] }) {
			more[slug] = draftOf(h, rs)
		}
	}
	return more
}

func changedTags(drafts map[string]*draft, st *state, final map[string]*changelog.Article) map[string]bool {
	tags := map[string]bool{}
	for slug, h := range st.Articles {
		a := final[slug]
		switch {
		case a == nil: // deleted
			for _, t := range h.Article.Tags {
				tags[t] = true
			}
		case drafts[slug] != nil && !slices.Equal(a.Tags, h.Article.Tags):
			for _, t := range append(slices.Clone(a.Tags), h.Article.Tags...) {
				tags[t] = true
			}
		}
	}
	for slug := range drafts {
		if st.Articles[slug] == nil && final[slug] != nil { // new
			for _, t := range final[slug].Tags {
				tags[t] = true
			}
		}
	}
	return tags
}

// SourcesChanged reports whether what an update reads differs between two
// commits of global: the learnings and decisions articles are made from,
// or the knowledge base itself (a pull brings a teammate's edit or
// deletion of an article). It decides whether a move of global calls for
// an update: a proposal, the plan or a log entry moves global without
// changing what articles say. In doubt (a commit that does not read) it
// says yes.
func SourcesChanged(repo *staterepo.Repo, from, to staterepo.Hash) bool {
	was, err := sourcesOfCommit(repo, from)
	if err != nil {
		return true
	}
	is, err := sourcesOfCommit(repo, to)
	return err != nil || was != is
}

// sourceKinds are what an update reads: the kinds of its sources, and the
// articles themselves.
var sourceKinds = [3]changelog.Kind{changelog.KindLearning, changelog.KindDecision, changelog.KindArticle}

// sourceTrees are the trees of sourceKinds' directories in a tree of
// global, in that order; zero for a directory that is not there.
type sourceTrees [3]staterepo.Hash

func sourcesOf(repo *staterepo.Repo, tree staterepo.Hash) (sourceTrees, error) {
	var out sourceTrees
	for i, k := range sourceKinds {
		sub, err := repo.BlobAt(tree, k.Dir())
		if err != nil && !errors.Is(err, fs.ErrNotExist) {
			return out, err
		}
		out[i] = sub
	}
	return out, nil
}

func sourcesOfCommit(repo *staterepo.Repo, commit staterepo.Hash) (sourceTrees, error) {
	tree, err := repo.TreeOf(commit)
	if err != nil {
		return sourceTrees{}, err
	}
	return sourcesOf(repo, tree)
}
