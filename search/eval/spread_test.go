package eval

import (
	"context"
	"path/filepath"
	"strings"
	"testing"

	"github.com/planq-dev/planq/agent"
	"github.com/planq-dev/planq/internal/testkit/testgit"
	"github.com/planq-dev/planq/knowledge"
	"github.com/planq-dev/planq/prime"
	"github.com/planq-dev/planq/project"
	"github.com/planq-dev/planq/readmodel"
	"github.com/planq-dev/planq/staterepo"
)

// spreadBodyFloor is the share of the spread questions whose gathering
// article prime shows whole, on the test slice, with the focus set to the
// question: 5 of 10 (4 of 10 before the articles prime shows were ranked
// by the task's records too and the best one's text outlasted the index
// lines of the others). Today's prime shows a record of the subject for 6
// of 10; the trials question misses by one: its records rank below the
// billing domain's, whose article comes first, and the second article's
// text does not fit the budget. A floor to raise, never to lower.
const spreadBodyFloor = 5.0 / 10

// TestKnowledgeBaseGathersSpreadAnswers: for a question whose answer is
// spread over several records of one subject, the article that gathers
// them reaches a session start whose focus is the question, by its index
// line at least, as often as today's prime, without a knowledge base,
// shows any one of those records among the task's records; its text does
// at least spreadBodyFloor of the time.
func TestKnowledgeBaseGathersSpreadAnswers(t *testing.T) {
	testgit.Isolate(t)
	ctx := context.Background()
	set := corpus(t, sliceRecords, sliceSeed)
	if len(set.Spread) < 10 {
		t.Fatalf("%d spread questions, want at least 10", len(set.Spread))
	}
	repo, err := Load(ctx, filepath.Join(t.TempDir(), "state.git"), set)
	if err != nil {
		t.Fatal(err)
	}
	rd := readmodel.Open(repo, t.TempDir())
	today, err := MeasureSpread(ctx, set, primeSearch(rd, prime.MaxRelevant), nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := knowledge.Update(ctx, evalStore(repo, rd), knowledge.Options{}); err != nil {
		t.Fatal(err)
	}
	kb, err := MeasureSpread(ctx, set, nil, primeArticles(rd, repo))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("%d spread questions: today's prime shows a record of the subject for %.3f; with the knowledge base, the article's text for %.3f, its text or index line for %.3f",
		today.Questions, today.Record, kb.Body, kb.Listed)
	if kb.Listed < today.Record-1e-9 || kb.Body < spreadBodyFloor-1e-9 {
		for i, r := range kb.Ranks {
			t.Logf("record %-5v body %-5v listed %-5v %s: %s", today.Ranks[i].Record, r.Body, r.Listed, r.Question.Key, r.Question.Text)
		}
		t.Errorf("the gathering article reaches prime for %.3f of the spread questions (its text for %.3f, floor %.3f), a record of theirs today for %.3f",
			kb.Listed, kb.Body, spreadBodyFloor, today.Record)
	}
	if kb.Listed < kb.Body {
		t.Errorf("listed %.3f below body %.3f: an article shown whole counts as listed", kb.Listed, kb.Body)
	}
}

func TestMeasureSpreadNeedsEveryRecordCited(t *testing.T) {
	ctx := context.Background()
	set := corpus(t, testData(t).MinRecords(), sliceSeed)
	byText := map[string]SpreadQuestion{}
	for _, q := range set.Spread {
		byText[q.Text] = q
	}
	for _, tc := range []struct {
		name               string
		shown              func(q SpreadQuestion) []PrimeArticle
		wantBody, wantList float64
	}{
		{"all cited, body", func(q SpreadQuestion) []PrimeArticle { return []PrimeArticle{{Sources: q.RecordIDs, Body: true}} }, 1, 1},
		{"all cited, line", func(q SpreadQuestion) []PrimeArticle { return []PrimeArticle{{Sources: q.RecordIDs}} }, 0, 1},
		{"one missing", func(q SpreadQuestion) []PrimeArticle {
			return []PrimeArticle{{Sources: q.RecordIDs[1:], Body: true}}
		}, 0, 0},
	} {
		t.Run(tc.name, func(t *testing.T) {
			rep, err := MeasureSpread(ctx, set, func(_ context.Context, q string, _ int) ([]string, error) {
				return byText[q].RecordIDs[2:3], nil
			}, func(_ context.Context, q string) ([]PrimeArticle, error) { return tc.shown(byText[q]), nil })
			if err != nil {
				t.Fatal(err)
			}
			if rep.Record != 1 || rep.Body != tc.wantBody || rep.Listed != tc.wantList {
				t.Errorf("record %.2f body %.2f listed %.2f, want 1, %.2f, %.2f", rep.Record, rep.Body, rep.Listed, tc.wantBody, tc.wantList)
			}
		})
	}
}

// evalStore is a store over the evaluation's repository, for the knowledge
// base's update: it reads and writes global through repo and rd alone.
func evalStore(repo *staterepo.Repo, rd *readmodel.Reader) *agent.Store {
	return &agent.Store{Handle: &readmodel.Handle{Project: &project.Project{}, Repo: repo, Records: rd}}
}

// primeArticles is what a session start shows of the knowledge base when
// its focus is the question, gathered as session's prime gathers it (the
// articles, the best of them for the task, the task's records) and built
// by prime within its default budget: each article it shows whole or
// lists in its index, with the records it cites.
func primeArticles(rd *readmodel.Reader, repo *staterepo.Repo) ArticlePrimer {
	return func(ctx context.Context, question string) ([]PrimeArticle, error) {
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
		var out []PrimeArticle
		for _, it := range doc.Items {
			if it.Dropped {
				continue
			}
			if it.Article != "" {
				out = append(out, PrimeArticle{Sources: sources[it.Article], Body: true})
				continue
			}
			if _, path, ok := strings.Cut(it.Text, " — planq get "); ok && strings.HasPrefix(path, "knowledge/") {
				out = append(out, PrimeArticle{Sources: sources[path]})
			}
		}
		return out, nil
	}
}
