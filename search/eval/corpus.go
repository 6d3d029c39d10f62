package eval

import (
	"crypto/sha256"
	"encoding/binary"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"strconv"
	"strings"
	"time"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/project"
)

// Entry is one record of a corpus and the branch it is stored on.
type Entry struct {
	// Key is the stable name of a hand-written record ("db-migrate-local"),
	// or "filler-<n>" for the n-th generated one.
	Key string
	// Domain is what the record is about; a learning's domain field too.
	Domain string
	// Branch is global or an agent branch.
	Branch string
	Record *changelog.Record
}

// Question is what an agent asks, and the record that answers it.
type Question struct {
	// Key is the answer's key; one question per answer.
	Key  string
	Text string
	// Identifier is true when the question names an identifier, command or
	// variable the answer contains; the others say it in other words.
	Identifier bool
	// Shared are the index terms the question shares with its answer
	// (SharedTerms). A question that shares none (SharesNoWord) is found
	// from its words only by a channel that knows what they mean.
	Shared []string
	// Answer is the key of the answering record, AnswerID its ID.
	Answer   string
	AnswerID string
	// Superseded are the IDs of older versions the answer replaces: ranking
	// one above the answer is a miss.
	Superseded []string
	// Distractors are the keys of the hand-written near misses: records
	// that share words with the answer but say something else.
	Distractors []string
	// More are the two phrasings a coding agent adds to Text when it
	// searches (see Phrasings).
	More []string
}

// SpreadQuestion is a question whose answer is spread over several records
// of one subject: no one of them answers it, all of them together do, and
// an article of the knowledge base that gathers them does.
type SpreadQuestion struct {
	// Key names the question: its subject's first record's key.
	Key     string
	Text    string
	Subject string
	// Records are the keys of the subject's records, RecordIDs their IDs.
	Records   []string
	RecordIDs []string
}

// SharesNoWord reports whether q shares no index term with its answer.
func (q Question) SharesNoWord() bool { return len(q.Shared) == 0 }

// Set is a generated corpus: its records and the questions about them.
type Set struct {
	Seed      uint64
	Entries   []Entry
	Questions []Question
	// Spread are the questions whose answer several records share.
	Spread []SpreadQuestion
	byKey  map[string]int
}

// Entry returns the record named key.
func (s *Set) Entry(key string) (Entry, bool) {
	i, ok := s.byKey[key]
	if !ok {
		return Entry{}, false
	}
	return s.Entries[i], true
}

// Domains lists the distinct domains of the records, sorted.
func (s *Set) Domains() []string {
	seen := map[string]bool{}
	var out []string
	for _, e := range s.Entries {
		if !seen[e.Domain] {
			seen[e.Domain] = true
			out = append(out, e.Domain)
		}
	}
	slices.Sort(out)
	return out
}

// MinRecords is the smallest corpus: the hand-written records alone.
func (d *Data) MinRecords() int {
	n := 0
	for _, c := range d.cases {
		n += 1 + len(c.Distractors)
		if c.Old != nil {
			n++
		}
	}
	for _, c := range d.spread {
		n += len(c.Records)
	}
	return n
}

// Corpus generates records records (at least MinRecords) from seed: every
// hand-written record, then filler. The same seed gives the same records
// and IDs at every size, so a small corpus is a subset of a larger one.
func (d *Data) Corpus(records int, seed uint64) (*Set, error) {
	if records < d.MinRecords() {
		return nil, fmt.Errorf("failed to generate corpus: it needs at least %d records (the hand-written ones), not %d", d.MinRecords(), records)
	}
	set := &Set{Seed: seed, byKey: map[string]int{}}
	add := func(e Entry) {
		set.byKey[e.Key] = len(set.Entries)
		set.Entries = append(set.Entries, e)
	}
	// Every hand-written record gets its ID first, so that a replacement
	// can name the record it supersedes when it is made.
	ids := newIDs(seed)
	var specs []spec
	superseded := map[string]bool{}
	for _, c := range d.cases {
		answer := c.Answer
		if c.Old != nil {
			answer.supersedes = c.Old.Key
			superseded[c.Old.Key] = true
			specs = append(specs, *c.Old)
		}
		specs = append(specs, answer)
		specs = append(specs, c.Distractors...)
	}
	// The records of the spread questions come after every case's, so
	// that the cases' records are where they were before there were any.
	for _, c := range d.spread {
		for _, sp := range c.Records {
			sp.Domain, sp.subject = c.Domain, c.Subject
			specs = append(specs, sp)
		}
	}
	idOf := make(map[string]string, len(specs))
	for _, sp := range specs {
		if _, dup := idOf[sp.Key]; dup {
			return nil, fmt.Errorf("failed to generate corpus: two hand-written records are called %s", sp.Key)
		}
		idOf[sp.Key] = ids.next(sp.Key)
	}
	for _, sp := range specs {
		e, err := d.entry(sp, seed, idOf, superseded[sp.Key])
		if err != nil {
			return nil, err
		}
		add(e)
	}
	var wordy []error
	for _, c := range d.cases {
		a, _ := set.Entry(c.Answer.Key)
		q := Question{Key: c.Answer.Key, Text: c.Question, Identifier: c.Identifier, Answer: c.Answer.Key, AnswerID: a.Record.ID,
			Shared: SharedTerms(c.Question, a.Record)}
		if c.NoSharedWord && !q.SharesNoWord() {
			wordy = append(wordy, fmt.Errorf("question %s is marked no_shared_word but shares %s with its answer: reword it",
				q.Key, strings.Join(q.Shared, ", ")))
		}
		if c.Old != nil {
			old, _ := set.Entry(c.Old.Key)
			q.Superseded = []string{old.Record.ID}
		}
		for _, dis := range c.Distractors {
			q.Distractors = append(q.Distractors, dis.Key)
		}
		if more, ok := d.phrasings[q.Key]; ok {
			q.More = more[:]
		}
		set.Questions = append(set.Questions, q)
	}
	for _, c := range d.spread {
		q := SpreadQuestion{Key: c.Records[0].Key, Text: c.Question, Subject: c.Subject}
		for _, sp := range c.Records {
			e, _ := set.Entry(sp.Key)
			q.Records = append(q.Records, sp.Key)
			q.RecordIDs = append(q.RecordIDs, e.Record.ID)
		}
		set.Spread = append(set.Spread, q)
	}
	if err := errors.Join(wordy...); err != nil {
		return nil, fmt.Errorf("failed to generate corpus: %w", err)
	}
	for n := 0; len(set.Entries) < records; n++ {
		e, err := d.fillerEntry(seed, n, ids)
		if err != nil {
			return nil, err
		}
		add(e)
	}
	return set, nil
}

// entry builds record s through planq's own constructors, so that a
// corpus record is what planq would have written; idOf holds the ID of
// every hand-written record, and superseded says a newer one replaces s.
func (d *Data) entry(s spec, seed uint64, idOf map[string]string, superseded bool) (Entry, error) {
	v, ok := d.vocabOf(s.Domain)
	if !ok {
		return Entry{}, fmt.Errorf("failed to generate record %s: unknown domain %q", s.Key, s.Domain)
	}
	supersedes := ""
	if s.supersedes != "" {
		if supersedes, ok = idOf[s.supersedes]; !ok {
			return Entry{}, fmt.Errorf("failed to generate record %s: it supersedes unknown record %s", s.Key, s.supersedes)
		}
	}
	r, err := construct(s, supersedes)
	if err == nil && supersedes != "" && r.Supersedes == "" {
		err = fmt.Errorf("a %s cannot supersede through its constructor", s.Kind)
	}
	if err != nil {
		return Entry{}, fmt.Errorf("failed to generate record %s: %w", s.Key, err)
	}
	branch := project.GlobalBranch
	r.Agent = v.Owner
	if s.OnAgent || !r.Kind.Spec().Promoted {
		r.Agent = v.StateAgent
		branch = project.AgentBranch(v.StateAgent)
	}
	// An edit comes after what it edits: old versions fall in the first half
	// of the year, their replacements in the second.
	lo, hi := 0, corpusDays
	switch {
	case s.supersedes != "":
		lo = corpusDays / 2
	case superseded:
		hi = corpusDays/2 - 10
	}
	r.Timestamp = timeAt(newRNG(seed, "time:"+s.Key), lo, hi)
	r.ID = idOf[s.Key]
	return finish(Entry{Key: s.Key, Domain: s.Domain, Branch: branch, Record: r})
}

// constructors make a corpus record of each kind that has a constructor
// of its own. A generic kind (changelog.Spec.Generic) is made from its row
// by changelog.NewRecord: a kind added to the table needs no line here.
var constructors = map[changelog.Kind]func(s spec, supersedes string) (*changelog.Record, error){
	changelog.KindLearning: func(s spec, supersedes string) (*changelog.Record, error) {
		return changelog.NewLearning(changelog.LearningInput{Text: s.Text, Type: s.Type, Domain: s.Domain, Subject: s.subject,
			Resolution: s.Resolution, Evidence: changelog.Evidence{Files: s.Files}, Supersedes: supersedes})
	},
	changelog.KindDecision: func(s spec, supersedes string) (*changelog.Record, error) {
		return changelog.NewDecision(changelog.DecisionInput{Decision: s.Text, Alternatives: s.Alternatives,
			Rationale: s.Rationale, Subject: s.subject, Supersedes: supersedes})
	},
	changelog.KindLog: func(s spec, _ string) (*changelog.Record, error) {
		return changelog.NewLog(changelog.LogInput{Text: s.Text, Type: s.Type, Status: s.Status})
	},
	changelog.KindHandoff: func(s spec, _ string) (*changelog.Record, error) {
		return changelog.NewHandoff(changelog.HandoffInput{Text: s.Text, To: s.To})
	},
	changelog.KindNote: func(s spec, _ string) (*changelog.Record, error) {
		return changelog.NewNote(changelog.NoteInput{Text: s.Text, Type: s.Type})
	},
}

// construct makes s's record through planq's constructor of its kind.
func construct(s spec, supersedes string) (*changelog.Record, error) {
	ks := s.Kind.Spec()
	switch build, ok := constructors[s.Kind]; {
	case ks == nil:
		// The data files name kinds as text: a typo lands here.
		return nil, fmt.Errorf("unknown kind %q", s.Kind)
	case !ks.Searched:
		return nil, fmt.Errorf("search does not read %ss", ks.Noun)
	case ok:
		return build(s, supersedes)
	case ks.Generic:
		return changelog.NewRecord(s.Kind, changelog.RecordInput{Text: s.Text, Type: s.Type, Extra: s.Extra})
	}
	return nil, fmt.Errorf("the corpus cannot make a %s: give its constructor to constructors", ks.Noun)
}

// finish places e's record and checks it as planq would.
func finish(e Entry) (Entry, error) {
	e.Record.Path = changelog.RecordPath(e.Record)
	if err := changelog.Validate(e.Record); err != nil {
		return Entry{}, fmt.Errorf("failed to generate record %s: %w", e.Key, err)
	}
	return e, nil
}

// corpusStart and corpusDays spread the records over about a year.
var corpusStart = time.Date(2025, 1, 6, 8, 0, 0, 0, time.UTC)

const corpusDays = 360

// timeAt is a time between day lo and day hi of the corpus's year, in
// whole seconds so that a record's file says exactly what it holds.
func timeAt(r *rng, lo, hi int) time.Time {
	secs := int64(lo)*86400 + int64(r.intn((hi-lo)*86400))
	return corpusStart.Add(time.Duration(secs) * time.Second)
}

// idSource hands out IDs derived from the seed and a record's key, never
// the same one twice; changelog.NewID is random, and the evaluation must
// name the same records on every run.
type idSource struct {
	seed  uint64
	taken map[string]bool
}

func newIDs(seed uint64) *idSource { return &idSource{seed: seed, taken: map[string]bool{}} }

func (s *idSource) next(key string) string {
	for try := 0; ; try++ {
		h := sha256.New()
		var b [8]byte
		binary.BigEndian.PutUint64(b[:], s.seed)
		h.Write(b[:])
		h.Write([]byte(key))
		if try > 0 {
			h.Write([]byte("#" + strconv.Itoa(try)))
		}
		id := changelog.IDPrefix + hex.EncodeToString(h.Sum(nil))[:10]
		if !s.taken[id] {
			s.taken[id] = true
			return id
		}
	}
}

// rng is splitmix64: small, and the same sequence for a seed on every Go
// release and platform, which math/rand does not promise.
type rng struct{ state uint64 }

func newRNG(seed uint64, key string) *rng {
	h := sha256.Sum256([]byte(key))
	return &rng{state: seed ^ binary.BigEndian.Uint64(h[:8])}
}

func (r *rng) next() uint64 {
	r.state += 0x9e3779b97f4a7c15
	z := r.state
	z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9
	z = (z ^ (z >> 27)) * 0x94d049bb133111eb
	return z ^ (z >> 31)
}

// intn is a number in [0, n); the modulo bias is far below what matters here.
func (r *rng) intn(n int) int { return int(r.next() % uint64(n)) }

func pick[T any](r *rng, xs []T) T { return xs[r.intn(len(xs))] }
