package eval_test

import (
	"context"
	"path/filepath"
	"testing"

	"github.com/planq-dev/planq/internal/knowledge"
	"github.com/planq-dev/planq/internal/testkit/testgit"
	"github.com/planq-dev/planq/prime"
	"github.com/planq-dev/planq/project"
	"github.com/planq-dev/planq/readmodel"
	"github.com/planq-dev/planq/search/eval"
	"github.com/planq-dev/planq/search/eval/readside"
)

// The tests that measure through the read model, as agents get it, take
// its plugs from package readside, which imports eval: they are of
// package eval_test.

// recall5Floor is the share of the questions that share a word with their
// answer whose answer today's search puts in its first five results on the
// test slice: 28 of 48 with BM25F over stemmed, split terms and b at 0.5,
// since the 39 records of the spread questions (spread.json) joined the
// corpus and took filler's place with words of the same tools (29 of 48
// before them; 31 of 48 before the records of the questions that share no word joined
// the corpus and took filler's place; 29 of 48 at b 0.75; 16 of 48 with the
// substring count before BM25F). It is a floor to raise as ranking
// improves, never to lower: a ranker that finds fewer answers than today's
// fails here. The questions that share no word with their answer have no
// floor yet: words alone find none of them.
const recall5Floor = 28.0 / 48

// agentRecall5Floor is the same floor for questions asked as an agent asks
// them, in three phrasings: 47 of the 48 that share a word on the test
// slice. agentNoWordRecall5Floor is the floor of the 32 that share none,
// whose added phrasings do share words: 26 of them.
const (
	agentRecall5Floor       = 47.0 / 48
	agentNoWordRecall5Floor = 26.0 / 32
)

func TestTodaysSearchKeepsItsRecall(t *testing.T) {
	testgit.Isolate(t)
	ctx := context.Background()
	set := eval.SliceCorpus(t)
	path := filepath.Join(t.TempDir(), "state.git")
	repo, err := eval.Load(ctx, path, set)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := eval.Load(ctx, path, set); err == nil {
		t.Error("Load into an existing repository succeeded; it must refuse")
	}
	rd := readmodel.Open(repo, t.TempDir())

	// Search reads what the loader wrote, all of it, on every branch.
	all, err := rd.All()
	if err != nil {
		t.Fatal(err)
	}
	if len(all.Problems) > 0 {
		t.Fatalf("the loaded corpus has bad records: %v", all.ProblemLines())
	}
	if len(all.Records) != len(set.Entries) {
		t.Fatalf("the repository holds %d records, the corpus %d", len(all.Records), len(set.Entries))
	}
	superseded := 0
	for _, q := range set.Questions {
		superseded += len(q.Superseded)
	}
	if got, want := len(all.Current()), len(set.Entries)-superseded; got != want {
		t.Errorf("%d current records, want %d (every record but the superseded ones)", got, want)
	}
	branches, err := repo.Branches("")
	if err != nil {
		t.Fatal(err)
	}
	for _, b := range []string{project.GlobalBranch, project.AgentBranch(eval.AgentBackend), project.AgentBranch(eval.AgentInfra)} {
		if _, ok := branches[b]; !ok {
			t.Errorf("no branch %s in the loaded repository", b)
		}
	}

	report, err := eval.Measure(ctx, set, readside.Search(rd, false).One())
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("today's search on %d records: recall@1 %.3f, recall@5 %.3f, recall@10 %.3f, MRR %.3f",
		len(set.Entries), report.Recall1, report.Recall5, report.Recall10, report.MRR)
	t.Logf("recall@5 of the %d questions that share a word with their answer %.3f, of the %d that share none %.3f",
		report.SharingAWord.Questions, report.SharingAWord.Recall5, report.SharingNoWord.Questions, report.SharingNoWord.Recall5)
	if report.SharingAWord.Recall5 < recall5Floor-1e-9 {
		for _, r := range report.Ranks {
			t.Logf("rank %2d  %s: %s", r.Rank, r.Question.Key, r.Question.Text)
		}
		t.Errorf("recall@5 of the questions that share a word is %.3f, below the floor of %.3f", report.SharingAWord.Recall5, recall5Floor)
	}
	agent, err := eval.MeasureAgent(ctx, set, readside.Search(rd, false))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("asked in three phrasings: recall@1 %.3f, recall@5 %.3f, recall@10 %.3f, MRR %.3f; recall@5 sharing a word %.3f, sharing none %.3f",
		agent.Recall1, agent.Recall5, agent.Recall10, agent.MRR, agent.SharingAWord.Recall5, agent.SharingNoWord.Recall5)
	if agent.SharingAWord.Recall5 < agentRecall5Floor-1e-9 {
		t.Errorf("recall@5 in three phrasings of the questions that share a word is %.3f, below the floor of %.3f", agent.SharingAWord.Recall5, agentRecall5Floor)
	}
	if agent.SharingNoWord.Recall5 < agentNoWordRecall5Floor-1e-9 {
		t.Errorf("recall@5 in three phrasings of the questions that share no word is %.3f, below the floor of %.3f", agent.SharingNoWord.Recall5, agentNoWordRecall5Floor)
	}
	// Prime, with each question as the agent's focus, shows the answer at
	// least as often as search's first five hold it.
	primed, err := eval.Measure(ctx, set, readside.PrimeSearch(rd, 5))
	if err != nil {
		t.Fatal(err)
	}
	t.Logf("prime with the question as focus holds the answer for %.3f", primed.Recall5)
	if primed.Recall5 < report.Recall5-1e-9 {
		t.Errorf("prime's relevant records hold the answer for %.3f of the questions, search's first five for %.3f", primed.Recall5, report.Recall5)
	}
	for _, q := range set.Questions {
		if len(eval.Phrasings(q)) != 3 {
			t.Errorf("question %s has no agent phrasings", q.Key)
		}
	}
}

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
	set := eval.SliceCorpus(t)
	if len(set.Spread) < 10 {
		t.Fatalf("%d spread questions, want at least 10", len(set.Spread))
	}
	repo, err := eval.Load(ctx, filepath.Join(t.TempDir(), "state.git"), set)
	if err != nil {
		t.Fatal(err)
	}
	rd := readmodel.Open(repo, t.TempDir())
	today, err := eval.MeasureSpread(ctx, set, readside.PrimeSearch(rd, prime.MaxRelevant), nil)
	if err != nil {
		t.Fatal(err)
	}
	if _, err := knowledge.Update(ctx, readside.Store(repo, rd), knowledge.Options{}); err != nil {
		t.Fatal(err)
	}
	kb, err := eval.MeasureSpread(ctx, set, nil, readside.PrimeArticles(rd, repo))
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
