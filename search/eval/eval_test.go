package eval

import (
	"bytes"
	"context"
	"fmt"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync"
	"testing"
	"testing/fstest"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/project"
)

// The test slice: every hand-written record and enough filler around them
// that the answers have competition.
const (
	sliceRecords = 1000
	sliceSeed    = 1
)

func TestCorpusProperties(t *testing.T) {
	set := corpus(t, sliceRecords, sliceSeed)
	if len(set.Entries) != sliceRecords {
		t.Errorf("%d records, want %d", len(set.Entries), sliceRecords)
	}
	if d := set.Domains(); len(d) < 20 {
		t.Errorf("%d domains, want at least 20: %v", len(d), d)
	}
	ids := map[string]string{}
	kinds := map[changelog.Kind]int{}
	branches := map[string]int{}
	for _, e := range set.Entries {
		r := e.Record
		if prev, dup := ids[r.ID]; dup {
			t.Errorf("%s and %s share the ID %s", prev, e.Key, r.ID)
		}
		ids[r.ID] = e.Key
		if hexPart, _ := strings.CutPrefix(r.ID, changelog.IDPrefix); len(hexPart) != 10 || !changelog.ValidID(r.ID) {
			t.Errorf("%s: ID %q is not %s and 10 hex digits", e.Key, r.ID, changelog.IDPrefix)
		}
		checkRecord(t, testData(t), e)
		kinds[r.Kind]++
		branches[e.Branch]++
		if !r.Kind.Spec().Promoted && e.Branch == project.GlobalBranch {
			t.Errorf("%s: a %s on global; planq never promotes one", e.Key, r.Kind)
		}
		if agent, ok := project.AgentOfBranch(e.Branch); ok && agent != r.Agent {
			t.Errorf("%s: written by %s but on %s's branch", e.Key, r.Agent, agent)
		}
		if r.Timestamp.Before(corpusStart) || r.Timestamp.After(corpusStart.AddDate(0, 0, corpusDays)) {
			t.Errorf("%s: timestamp %s outside the corpus's year", e.Key, r.Timestamp)
		}
	}
	for _, k := range []changelog.Kind{changelog.KindLearning, changelog.KindDecision, changelog.KindLog, changelog.KindHandoff} {
		if kinds[k] == 0 {
			t.Errorf("no %s in the corpus", k)
		}
	}
	if len(branches) < 3 || branches[project.GlobalBranch] < len(set.Entries)/3 {
		t.Errorf("records by branch %v: want most on global and a share on two agent branches", branches)
	}
	checkQuestions(t, set)
}

// checkRecord holds a record to what planq reads back: valid, rendered and
// parsed strictly at its path to the same record.
func checkRecord(t *testing.T, d *Data, e Entry) {
	t.Helper()
	r := e.Record
	if err := changelog.Validate(r); err != nil {
		t.Errorf("%s: %v", e.Key, err)
		return
	}
	if r.Path != changelog.RecordPath(r) {
		t.Errorf("%s: path %s, want %s", e.Key, r.Path, changelog.RecordPath(r))
	}
	data, err := changelog.Render(r)
	if err != nil {
		t.Errorf("%s: %v", e.Key, err)
		return
	}
	back, err := changelog.Parse(r.Path, data)
	if err != nil {
		t.Errorf("%s: %v", e.Key, err)
		return
	}
	if back.ID != r.ID || back.Body != strings.TrimRight(r.Body, "\n") || back.Supersedes != r.Supersedes || !back.Timestamp.Equal(r.Timestamp) {
		t.Errorf("%s: reads back as %+v, want %+v", e.Key, back, r)
	}
	if v, ok := d.vocabOf(e.Domain); !ok {
		t.Errorf("%s: unknown domain %q", e.Key, e.Domain)
	} else if r.Kind == changelog.KindLearning && r.Domain != v.Name {
		t.Errorf("%s: a learning of domain %q filed under %q", e.Key, r.Domain, e.Domain)
	}
}

func checkQuestions(t *testing.T, set *Set) {
	t.Helper()
	if len(set.Questions) < 40 {
		t.Errorf("%d questions, want at least 40", len(set.Questions))
	}
	keys := map[string]bool{}
	withOld, identifiers := 0, 0
	for _, q := range set.Questions {
		if keys[q.Key] {
			t.Errorf("two questions are called %s", q.Key)
		}
		keys[q.Key] = true
		if q.Identifier {
			identifiers++
		}
		answer, ok := set.Entry(q.Answer)
		if !ok {
			t.Errorf("%s: answer %s is not in the corpus", q.Key, q.Answer)
			continue
		}
		if answer.Record.ID != q.AnswerID {
			t.Errorf("%s: answer ID %s, but record %s has %s", q.Key, q.AnswerID, q.Answer, answer.Record.ID)
		}
		if err := changelog.Validate(answer.Record); err != nil {
			t.Errorf("%s: answer %s is invalid: %v", q.Key, q.Answer, err)
		}
		if !answer.Record.Kind.Spec().Searched {
			t.Errorf("%s: answer %s is a %s, which search does not read", q.Key, q.Answer, answer.Record.Kind)
		}
		if len(q.Distractors) == 0 {
			t.Errorf("%s: no near-miss distractors", q.Key)
		}
		for _, d := range q.Distractors {
			if _, ok := set.Entry(d); !ok {
				t.Errorf("%s: distractor %s is not in the corpus", q.Key, d)
			}
		}
		if len(q.Superseded) == 0 {
			if answer.Record.Supersedes != "" {
				t.Errorf("%s: answer supersedes %s, but the question names no older version", q.Key, answer.Record.Supersedes)
			}
			continue
		}
		withOld++
		if !slices.Contains(q.Superseded, answer.Record.Supersedes) {
			t.Errorf("%s: answer supersedes %q, want one of %v", q.Key, answer.Record.Supersedes, q.Superseded)
		}
		for _, id := range q.Superseded {
			old := entryByID(set, id)
			if old == nil {
				t.Errorf("%s: older version %s is not in the corpus", q.Key, id)
				continue
			}
			if !old.Record.Timestamp.Before(answer.Record.Timestamp) {
				t.Errorf("%s: older version %s (%s) is not older than the answer (%s)", q.Key, id, old.Record.Timestamp, answer.Record.Timestamp)
			}
			if old.Record.Kind != answer.Record.Kind {
				t.Errorf("%s: older version is a %s, the answer a %s", q.Key, old.Record.Kind, answer.Record.Kind)
			}
		}
	}
	if withOld < 5 {
		t.Errorf("%d questions have an older version of their answer, want at least 5", withOld)
	}
	if identifiers == 0 || identifiers*2 > len(set.Questions) {
		t.Errorf("%d of %d questions name an identifier; want some, but most in other words", identifiers, len(set.Questions))
	}
}

func entryByID(set *Set, id string) *Entry {
	for i := range set.Entries {
		if set.Entries[i].Record.ID == id {
			return &set.Entries[i]
		}
	}
	return nil
}

func TestCorpusIsDeterministic(t *testing.T) {
	a, b := corpus(t, sliceRecords, sliceSeed), corpus(t, sliceRecords, sliceSeed)
	for i := range a.Entries {
		if !bytes.Equal(render(t, a.Entries[i]), render(t, b.Entries[i])) || a.Entries[i].Branch != b.Entries[i].Branch {
			t.Fatalf("record %d differs between two runs of the same seed:\n%s\n%s", i, render(t, a.Entries[i]), render(t, b.Entries[i]))
		}
	}
	// A larger corpus of the same seed holds the slice: the questions keep
	// their answers' IDs at every size.
	full := corpus(t, 5000, sliceSeed)
	if len(full.Entries) != 5000 || len(full.Domains()) < 20 {
		t.Errorf("5,000-record corpus: %d records, %d domains", len(full.Entries), len(full.Domains()))
	}
	for i, e := range a.Entries {
		if !bytes.Equal(render(t, e), render(t, full.Entries[i])) {
			t.Fatalf("record %s differs between the corpus of %d and of 5,000", e.Key, sliceRecords)
		}
	}
	other := corpus(t, sliceRecords, sliceSeed+1)
	if other.Questions[0].AnswerID == a.Questions[0].AnswerID {
		t.Error("another seed gives the same IDs")
	}
	if _, err := testData(t).Corpus(testData(t).MinRecords()-1, sliceSeed); err == nil {
		t.Errorf("a corpus of %d records, fewer than the hand-written ones, was made", testData(t).MinRecords()-1)
	}
}

func TestMeasureScoresRanks(t *testing.T) {
	ctx := context.Background()
	set := corpus(t, testData(t).MinRecords(), sliceSeed)
	n := len(set.Questions)
	answerOf := map[string]Question{}
	for _, q := range set.Questions {
		answerOf[q.Text] = q
	}
	// IDs of records that are in no corpus: wrong answers to everything.
	filler := func(k int) []string {
		out := make([]string, k)
		for i := range out {
			out[i] = fmt.Sprintf("%s%010x", changelog.IDPrefix, i)
		}
		return out
	}
	for _, tc := range []struct {
		name   string
		search Searcher
		want   Metrics
	}{{
		name: "answer first",
		search: func(_ context.Context, q string, limit int) ([]string, error) {
			return append([]string{answerOf[q].AnswerID}, filler(limit-1)...), nil
		},
		want: Metrics{Questions: n, Recall1: 1, Recall5: 1, Recall10: 1, MRR: 1},
	}, {
		name: "answer fifth",
		search: func(_ context.Context, q string, _ int) ([]string, error) {
			return append(filler(4), answerOf[q].AnswerID), nil
		},
		want: Metrics{Questions: n, Recall5: 1, Recall10: 1, MRR: 0.2},
	}, {
		name: "answer past the cutoff",
		search: func(_ context.Context, q string, _ int) ([]string, error) {
			return append(filler(Cutoff), answerOf[q].AnswerID), nil
		},
		want: Metrics{Questions: n},
	}, {
		name: "older version above the answer",
		search: func(_ context.Context, q string, _ int) ([]string, error) {
			qq := answerOf[q]
			return append(slices.Clone(qq.Superseded), qq.AnswerID), nil
		},
		want: func() Metrics {
			fresh := 0.0
			for _, q := range set.Questions {
				if len(q.Superseded) == 0 {
					fresh++
				}
			}
			r := fresh / float64(n)
			return Metrics{Questions: n, Recall1: r, Recall5: r, Recall10: r, MRR: r}
		}(),
	}} {
		t.Run(tc.name, func(t *testing.T) {
			report, err := Measure(ctx, set, tc.search)
			if err != nil {
				t.Fatal(err)
			}
			if !nearly(report.Metrics, tc.want) {
				t.Errorf("got %+v, want %+v", report.Metrics, tc.want)
			}
			if len(report.Ranks) != n {
				t.Errorf("%d ranks for %d questions", len(report.Ranks), n)
			}
		})
	}
	// An older version ranked above the answer marks the question stale.
	stale := 0
	report, err := Measure(ctx, set, func(_ context.Context, q string, _ int) ([]string, error) {
		qq := answerOf[q]
		return append(slices.Clone(qq.Superseded), qq.AnswerID), nil
	})
	if err != nil {
		t.Fatal(err)
	}
	for _, r := range report.Ranks {
		if r.Stale {
			stale++
			if r.Rank != 0 {
				t.Errorf("%s: stale, yet ranked %d", r.Question.Key, r.Rank)
			}
		}
	}
	if stale == 0 {
		t.Error("no question was marked stale")
	}
}

func nearly(a, b Metrics) bool {
	near := func(x, y float64) bool { return x-y < 1e-9 && y-x < 1e-9 }
	return a.Questions == b.Questions && near(a.Recall1, b.Recall1) && near(a.Recall5, b.Recall5) &&
		near(a.Recall10, b.Recall10) && near(a.MRR, b.MRR)
}

func corpus(t *testing.T, records int, seed uint64) *Set {
	t.Helper()
	set, err := testData(t).Corpus(records, seed)
	if err != nil {
		t.Fatal(err)
	}
	return set
}

func render(t *testing.T, e Entry) []byte {
	t.Helper()
	data, err := changelog.Render(e.Record)
	if err != nil {
		t.Fatal(err)
	}
	return data
}

// readData reads the evaluation's data once for every test.
var readData = sync.OnceValues(func() (*Data, error) { return ReadData(os.DirFS("../testdata/eval")) })

func testData(t *testing.T) *Data {
	t.Helper()
	d, err := readData()
	if err != nil {
		t.Fatal(err)
	}
	return d
}

func TestReadDataRefusesWhatWouldChangeTheMeasureSilently(t *testing.T) {
	files := map[string]string{}
	for _, name := range []string{"cases.json", "vocabulary.json", "phrasings.json", "filler.json", "spread.json"} {
		data, err := os.ReadFile(filepath.Join("..", "testdata", "eval", name))
		if err != nil {
			t.Fatal(err)
		}
		files[name] = string(data)
	}
	for _, tc := range []struct {
		name, file, old, new, want string
	}{
		{"a field no record has", "cases.json", `"on_agent": true`, `"on_agnet": true`, `unknown field "on_agnet"`},
		{"an unknown domain", "cases.json", `"domain": "database"`, `"domain": "databse"`, `unknown domain "databse"`},
		{"a key used twice", "cases.json", `"key": "db-migrate-dirty"`, `"key": "db-migrate-local"`, "two hand-written records are called db-migrate-local"},
		{"phrasings of no question", "phrasings.json", `"pool-size":`, `"pool-sizes":`, "phrasings for pool-sizes"},
		{"a state agent without a branch", "vocabulary.json", `"state_agent": "infra"`, `"state_agent": "ops"`, `state agent "ops"`},
		{"a missing file", "filler.json", "", "", "filler.json"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			fsys := fstest.MapFS{}
			for name, data := range files {
				if name == tc.file && tc.old == "" {
					continue
				}
				if name == tc.file {
					if !strings.Contains(data, tc.old) {
						t.Fatalf("%s holds no %s", name, tc.old)
					}
					data = strings.Replace(data, tc.old, tc.new, 1)
				}
				fsys[name] = &fstest.MapFile{Data: []byte(data)}
			}
			_, err := ReadData(fsys)
			if err == nil || !strings.Contains(err.Error(), tc.want) {
				t.Errorf("got %v, want an error saying %s", err, tc.want)
			}
		})
	}
	// A kind the corpus cannot make is refused when the record is made.
	d := *testData(t)
	d.cases = slices.Clone(d.cases)
	d.cases[0].Answer.Kind = "lerning"
	if _, err := d.Corpus(d.MinRecords(), sliceSeed); err == nil || !strings.Contains(err.Error(), `unknown kind "lerning"`) {
		t.Errorf("got %v, want an unknown kind refused", err)
	}
}
