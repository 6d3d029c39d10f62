package knowledge

import (
	"context"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/project"
	"github.com/planq-dev/planq/readmodel"
	"github.com/planq-dev/planq/staterepo"
)

// TrailerKey is the trailer planq's commits of the knowledge base carry
// ("Planq-Knowledge: update"): a version of an article that a commit
// without it wrote is a person's.
const TrailerKey = readmodel.KnowledgeTrailer

// Paths of the knowledge base on global.
var (
	dir        = changelog.KindArticle.Dir()
	IndexPath  = readmodel.KnowledgeIndexPath
	deletedDir = dir + "/.deleted/"
)

// DeletedPath is the file that remembers that the article slug of topic
// was deleted.
func DeletedPath(topic, slug string) string { return readmodel.KnowledgeDeletedPath(topic, slug) }

// Problem is a file of the knowledge base planq could not read, or an
// article it could not write, and why.
type Problem = readmodel.ArticleProblem

// The knowledge base as the read model reads it: the writers change what
// it holds.
type (
	state = readmodel.KnowledgeBase
	held  = readmodel.HeldArticle
)

// readState is readmodel.ReadKnowledgeBase.
var readState = readmodel.ReadKnowledgeBase

// deletedNote is what a deletion's file says: the same on every machine,
// so that two deletions of one article merge into one.
func deletedNote(topic, slug string) []byte {
	return []byte(changelog.ArticlePath(topic, slug) + " was deleted; planq does not make it again.\n")
}

// forSlug checks slug and reads global's knowledge base for a command on
// one article (delete, resolve, edit).
func forSlug(ctx context.Context, repo *staterepo.Repo, slug string) (*state, error) {
	if err := changelog.ValidateSlug("slug", slug); err != nil {
		return nil, err
	}
	return readGlobal(ctx, repo)
}

// readGlobal is the knowledge base at global's tip.
func readGlobal(ctx context.Context, repo *staterepo.Repo) (*state, error) {
	tip, err := repo.Tip(project.GlobalBranch)
	if err != nil {
		return nil, err
	}
	return readState(ctx, repo, tip, nil, false)
}
