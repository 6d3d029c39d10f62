package knowledge

import (
	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/staterepo"
)

// WithIndex is tree with knowledge/_index.md regenerated from the articles
// it holds: a merge (pull) calls it on the merged tree, so the index is
// never merged, whatever either side had. A tree without articles or index
// is returned as it is; articles that do not parse are left out, as Update
// leaves them out.
func WithIndex(repo *staterepo.Repo, tree staterepo.Hash, topics []string) (staterepo.Hash, error) {
	opts := Options{Topics: topics}
	order, err := opts.topics()
	if err != nil {
		order = DefaultTopics // the update after the merge reports it
	}
	files, err := repo.WalkTree(tree, []string{dir})
	if err != nil {
		return staterepo.ZeroHash, err
	}
	articles := map[string]*changelog.Article{}
	had := false
	for _, f := range files {
		if f.Path == IndexPath {
			had = true
			continue
		}
		_, slug, ok := changelog.SplitArticlePath(f.Path)
		if !ok || articles[slug] != nil {
			continue
		}
		data, err := repo.ReadBlob(f.Blob)
		if err != nil {
			return staterepo.ZeroHash, err
		}
		if a, err := changelog.ParseArticle(f.Path, data); err == nil {
			articles[slug] = a
		}
	}
	if len(articles) == 0 && !had {
		return tree, nil
	}
	blob, err := repo.WriteBlob(renderIndex(articles, order, ""))
	if err != nil {
		return staterepo.ZeroHash, err
	}
	return repo.EditTree(tree, map[string]staterepo.Hash{IndexPath: blob})
}
