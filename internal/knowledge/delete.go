package knowledge

import (
	"context"

	"github.com/planq-dev/planq/agent"
	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/planqerr"
)

// DeleteResult is what Delete did.
type DeleteResult struct {
	// Path is the article deleted, Remembered the file that remembers it.
	Path       string `json:"path"`
	Remembered string `json:"remembered"`
	Commit     string `json:"commit"`
}

// Delete deletes the article slug from global and remembers it, in one
// commit with the index regenerated: Update never makes it again, on this
// machine or, once pushed, on any other. A file at the article's path that
// is no article is deleted as well.
func Delete(ctx context.Context, store *agent.Store, slug string, opts Options) (DeleteResult, error) {
	var res DeleteResult
	topics, err := opts.topics()
	if err != nil {
		return res, err
	}
	repo := store.Repo
	st, err := forSlug(ctx, repo, slug)
	if err != nil {
		return res, err
	}
	var p string
	if h := st.Articles[slug]; h != nil {
		p = h.Path
	} else if b := st.Broken[slug]; b != "" {
		p = b
	}
	if p == "" {
		if st.Deleted[slug] {
			return res, planqerr.New(planqerr.NotFound, "article "+slug, "was deleted already; planq does not make it again")
		}
		return res, planqerr.New(planqerr.NotFound, "article "+slug, "is not on global").
			WithHint("'planq kb list' shows the articles and their slugs")
	}
	topic, _, _ := changelog.SplitArticlePath(p)
	blob, err := repo.BlobAt(st.Tree, p)
	if err != nil {
		return res, err
	}
	change := map[string]agent.Rewrite{p: {Was: blob}}
	marker := DeletedPath(topic, slug)
	if !st.Markers[marker] {
		change[marker] = agent.Rewrite{Data: deletedNote(topic, slug)}
	}
	final := finals(st)
	delete(final, slug)
	var ignored Result
	if err := indexChange(repo, st, final, topics, "", change, &ignored); err != nil {
		return res, err
	}
	commit, err := store.CommitGlobal(ctx, agent.GlobalChange{Rewrites: change,
		Message: "kb delete " + slug + "\n\n" + TrailerKey + ": delete\n"})
	if err != nil {
		return res, err
	}
	return DeleteResult{Path: p, Remembered: marker, Commit: commit.String()}, nil
}
