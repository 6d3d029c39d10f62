// Package readside plugs planq's read model into the search evaluation
// (package eval): the searches and the session start it measures, as
// agents get them. The harness stays below the read side; its test and
// scripts/searcheval, the only callers, take these plugs from here, so
// that both measure the same thing.
package readside

import (
	"context"
	"strings"

	"github.com/planq-dev/planq/agent"
	"github.com/planq-dev/planq/internal/knowledge"
	"github.com/planq-dev/planq/prime"
	"github.com/planq-dev/planq/project"
	"github.com/planq-dev/planq/readmodel"
	"github.com/planq-dev/planq/search/eval"
	"github.com/planq-dev/planq/staterepo"
)

// Search is the read model's search, which answers agents: the ranking
// measured; by meaning alone when vectorOnly. A model that was wanted and
// failed fails the search: a measure of a model that fails is no measure.
func Search(rd *readmodel.Reader, vectorOnly bool) eval.MultiSearcher {
	return func(ctx context.Context, phrasings []string, limit int) ([]string, error) {
		res, err := rd.SearchContext(ctx, readmodel.Query{Phrasings: phrasings, Limit: limit, VectorOnly: vectorOnly})
		if err == nil && res.Vector.Warn != nil {
			err = res.Vector.Warn
		}
		return hitIDs(res.Hits), err
	}
}

// PrimeSearch is what prime shows as relevant to a task whose focus is
// the question: the read model's Relevant, at most shown records.
func PrimeSearch(rd *readmodel.Reader, shown int) eval.Searcher {
	return func(ctx context.Context, question string, _ int) ([]string, error) {
		hits, err := rd.RelevantContext(ctx, []string{question}, shown)
		return hitIDs(hits), err
	}
}

// Store is a store over the evaluation's repository, for the knowledge
// base's update: it reads and writes global through repo and rd alone.
func Store(repo *staterepo.Repo, rd *readmodel.Reader) *agent.Store {
	return &agent.Store{Handle: readmodel.NewHandle(&project.Project{}, repo, rd), Repo: repo}
}

// PrimeArticles is what a session start shows of the knowledge base when
// its focus is the question, gathered as session's prime gathers it (the
// articles, the best of them for the task, the task's records) and built
// by prime within its default budget: each article it shows whole or
// lists in its index, with the records it cites.
func PrimeArticles(rd *readmodel.Reader, repo *staterepo.Repo) eval.ArticlePrimer {
	return func(ctx context.Context, question string) ([]eval.PrimeArticle, error) {
		tip, err := repo.Tip(project.GlobalBranch)
		if err != nil {
			return nil, err
		}
		files, err := rd.ArticleFiles(tip)
		if err != nil {
			return nil, err
		}
		sources := map[string][]string{}
		for _, f := range files {
			sources[f.Article.Path()] = f.Article.Sources
		}
		articles, _, err := rd.Articles()
		if err != nil {
			return nil, err
		}
		task := []string{question}
		in := &prime.Input{Summary: &prime.Summary{Project: "eval", Agent: "eval", Focus: question},
			Knowledge: prime.Knowledge{Topics: knowledge.DefaultTopics, Articles: articles}}
		if in.Relevant, err = rd.RelevantContext(ctx, task, prime.MaxRelevant); err != nil {
			return nil, err
		}
		if in.Knowledge.Relevant, err = rd.ArticlesForTask(ctx, task, in.Relevant, prime.MaxArticleHits); err != nil {
			return nil, err
		}
		doc, err := prime.Build(in, prime.Options{})
		if err != nil {
			return nil, err
		}
		var out []eval.PrimeArticle
		for _, it := range doc.Items {
			if it.Dropped {
				continue
			}
			if it.Article != "" {
				out = append(out, eval.PrimeArticle{Sources: sources[it.Article], Body: true})
				continue
			}
			if _, path, ok := strings.Cut(it.Text, " — planq get "); ok && strings.HasPrefix(path, "knowledge/") {
				out = append(out, eval.PrimeArticle{Sources: sources[path]})
			}
		}
		return out, nil
	}
}

func hitIDs(hits []readmodel.Hit) []string {
	ids := make([]string, len(hits))
	for i, h := range hits {
		ids[i] = h.ID
	}
	return ids
}
