package review

import (
	"github.com/planq-dev/planq/knowledge"
	"github.com/planq-dev/planq/staterepo"
)

// disputedArticles are the knowledge base's disputed articles on global,
// each with the sides its Conflict section cites, as the page lists them
// beside the disputed records.
func disputedArticles(repo *staterepo.Repo) ([]knowledge.Dispute, error) {
	_, disputes, err := knowledge.Survey(repo)
	return disputes, err
}
