package eval

import (
	"context"
	"fmt"
	"slices"
)

// Searcher answers a question with record IDs, best first, at most limit.
// It is the seam a ranker plugs into.
type Searcher func(ctx context.Context, question string, limit int) ([]string, error)

// Cutoff is how many results a question gets: an agent reads no further,
// and recall@10 and MRR count nothing past it.
const Cutoff = 10

// Rank is how one question fared.
type Rank struct {
	Question Question
	// Rank is the answer's 1-based place in the results, 0 when it is not
	// among the first Cutoff or an older version of it came first.
	Rank int
	// Stale is true when an older version the answer supersedes ranked
	// above it (or came back without it).
	Stale bool
	// Results are the IDs the searcher returned.
	Results []string
}

// Metrics summarise ranks: the share of questions whose answer came first,
// in the first 5 and in the first 10, and the mean reciprocal rank.
type Metrics struct {
	Questions                  int
	Recall1, Recall5, Recall10 float64
	MRR                        float64
}

// Report is a measurement: the metrics of every question and of each
// group, and every question's rank.
type Report struct {
	Metrics
	// SharingAWord are the metrics of the questions that share an index
	// term with their answer, SharingNoWord of those that share none
	// (Question.SharesNoWord): the second group is out of reach of a
	// channel that only matches words.
	SharingAWord, SharingNoWord Metrics
	Ranks                       []Rank
}

// newReport summarises ranks, all and by group.
func newReport(ranks []Rank) Report {
	var word, none []Rank
	for _, r := range ranks {
		if r.Question.SharesNoWord() {
			none = append(none, r)
		} else {
			word = append(word, r)
		}
	}
	return Report{Metrics: Summarize(ranks), SharingAWord: Summarize(word), SharingNoWord: Summarize(none), Ranks: ranks}
}

// Measure asks search every question of set and scores the answers.
func Measure(ctx context.Context, set *Set, search Searcher) (Report, error) {
	ranks := make([]Rank, 0, len(set.Questions))
	for _, q := range set.Questions {
		ids, err := search(ctx, q.Text, Cutoff)
		if err != nil {
			return Report{}, fmt.Errorf("failed to search for question %s: %w", q.Key, err)
		}
		ranks = append(ranks, rankOf(q, ids))
	}
	return newReport(ranks), nil
}

// MultiSearcher answers several phrasings of one question in one call, as
// planq_search's queries do.
type MultiSearcher func(ctx context.Context, phrasings []string, limit int) ([]string, error)

// One is search asked a question in one phrasing.
func (search MultiSearcher) One() Searcher {
	return func(ctx context.Context, question string, limit int) ([]string, error) {
		return search(ctx, []string{question}, limit)
	}
}

// Phrasings are question q as a coding agent asks it when it follows
// planq_search's instruction: the question and two more phrasings.
func Phrasings(q Question) []string {
	return append([]string{q.Text}, q.More...)
}

// MeasureAgent asks search every question of set as an agent does, in its
// three phrasings, and scores the answers.
func MeasureAgent(ctx context.Context, set *Set, search MultiSearcher) (Report, error) {
	ranks := make([]Rank, 0, len(set.Questions))
	for _, q := range set.Questions {
		ids, err := search(ctx, Phrasings(q), Cutoff)
		if err != nil {
			return Report{}, fmt.Errorf("failed to search for question %s: %w", q.Key, err)
		}
		ranks = append(ranks, rankOf(q, ids))
	}
	return newReport(ranks), nil
}

// rankOf finds q's answer in ids: the first of the answer and its older
// versions to appear decides, since an agent acts on the first it reads.
func rankOf(q Question, ids []string) Rank {
	r := Rank{Question: q, Results: ids}
	for i, id := range ids[:min(len(ids), Cutoff)] {
		if id == q.AnswerID {
			r.Rank = i + 1
			return r
		}
		if slices.Contains(q.Superseded, id) {
			r.Stale = true
			return r
		}
	}
	return r
}

// Summarize computes the metrics of ranks: use it for a subset, such as
// the questions that name an identifier.
func Summarize(ranks []Rank) Metrics {
	m := Metrics{Questions: len(ranks)}
	if len(ranks) == 0 {
		return m
	}
	var at1, at5, at10 int
	var rr float64
	for _, r := range ranks {
		if r.Rank == 0 {
			continue
		}
		rr += 1 / float64(r.Rank)
		if r.Rank <= 1 {
			at1++
		}
		if r.Rank <= 5 {
			at5++
		}
		if r.Rank <= 10 {
			at10++
		}
	}
	n := float64(len(ranks))
	m.Recall1, m.Recall5, m.Recall10, m.MRR = float64(at1)/n, float64(at5)/n, float64(at10)/n, rr/n
	return m
}

// PrimeArticle is an article a session start shows of the knowledge base:
// the record IDs it cites, and whether its text is shown, or only its line
// in the index.
type PrimeArticle struct {
	Sources []string
	Body    bool
}

// ArticlePrimer is what a session start shows of the knowledge base when
// question is the agent's focus: every article it names, body or line.
type ArticlePrimer func(ctx context.Context, question string) ([]PrimeArticle, error)

// SpreadRank is how one spread question fared.
type SpreadRank struct {
	Question SpreadQuestion
	// Record: a record of the subject was among the records the searcher
	// returned. Body: the text of an article that gathers the subject (cites
	// every one of its records) was shown; Listed: its text or its index
	// line was.
	Record, Body, Listed bool
	// Results are the record IDs the searcher returned.
	Results []string
}

// SpreadReport is a measure of the spread questions: the share whose
// subject reached the agent as a record, as an article's text and as an
// article's text or index line.
type SpreadReport struct {
	Questions            int
	Record, Body, Listed float64
	Ranks                []SpreadRank
}

// MeasureSpread asks every spread question of set: of search, which
// records it returns (prime's relevant records, say), and of primer, which
// articles the agent is shown. Either may be nil, and is then not asked:
// today's prime has no knowledge base to ask, and the records are measured
// before one is made.
func MeasureSpread(ctx context.Context, set *Set, search Searcher, primer ArticlePrimer) (SpreadReport, error) {
	rep := SpreadReport{Questions: len(set.Spread)}
	var record, body, listed int
	for _, q := range set.Spread {
		r := SpreadRank{Question: q}
		if search != nil {
			ids, err := search(ctx, q.Text, Cutoff)
			if err != nil {
				return SpreadReport{}, fmt.Errorf("failed to search for spread question %s: %w", q.Key, err)
			}
			r.Results = ids
			r.Record = slices.ContainsFunc(ids, func(id string) bool { return slices.Contains(q.RecordIDs, id) })
		}
		if primer != nil {
			shown, err := primer(ctx, q.Text)
			if err != nil {
				return SpreadReport{}, fmt.Errorf("failed to prime for spread question %s: %w", q.Key, err)
			}
			for _, a := range shown {
				if gathers(a.Sources, q.RecordIDs) {
					r.Listed = true
					r.Body = r.Body || a.Body
				}
			}
		}
		for _, c := range []struct {
			hit bool
			n   *int
		}{{r.Record, &record}, {r.Body, &body}, {r.Listed, &listed}} {
			if c.hit {
				*c.n++
			}
		}
		rep.Ranks = append(rep.Ranks, r)
	}
	if n := float64(rep.Questions); n > 0 {
		rep.Record, rep.Body, rep.Listed = float64(record)/n, float64(body)/n, float64(listed)/n
	}
	return rep, nil
}

// gathers reports whether an article citing sources cites every record of
// a subject.
func gathers(sources, records []string) bool {
	for _, id := range records {
		if !slices.Contains(sources, id) {
			return false
		}
	}
	return len(records) > 0
}
