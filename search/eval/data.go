package eval

import (
	"bytes"
	"encoding/json"
	"errors"
	"fmt"
	"io/fs"

	"github.com/planq-dev/planq/changelog"
)

// DataDir is where the evaluation's data lives, from the repository's root.
const DataDir = "search/testdata/eval"

// Data is the evaluation's hand-written material, read from the files of
// DataDir (its README says what each holds): the questions with their
// answers and near misses, the vocabulary of each domain, the phrasings an
// agent adds to each question, and the templates filler is made from.
type Data struct {
	cases     []caseSpec
	vocabs    []vocab
	phrasings map[string][2]string
	filler    fillerData
	spread    []spreadCase
}

// caseSpec is one question with the record that answers it, the older
// version that answer replaces (if any), and near misses: records of the
// same domain and tools that share its words but state another fact.
type caseSpec struct {
	Question   string `json:"question"`
	Identifier bool   `json:"identifier"`
	// NoSharedWord marks a question written to share no index term with
	// its answer (SharedTerms): the corpus refuses one that shares any.
	NoSharedWord bool   `json:"no_shared_word"`
	Answer       spec   `json:"answer"`
	Old          *spec  `json:"old"`
	Distractors  []spec `json:"distractors"`
}

// spreadCase is a question whose answer no one record holds: several
// learnings and decisions of one subject (3 to 6), each stating one fact of
// it, answer it together. The knowledge base gathers them in one article.
type spreadCase struct {
	Question string `json:"question"`
	// Subject is every record's subject field, Domain their domain.
	Subject string `json:"subject"`
	Domain  string `json:"domain"`
	Records []spec `json:"records"`
}

// Bounds of a spread case's records.
const (
	minSpread = 3
	maxSpread = 6
)

// spec is a hand-written record before it has an ID and a time.
type spec struct {
	Key          string           `json:"key"`
	Kind         changelog.Kind   `json:"kind"`
	Domain       string           `json:"domain"`
	Type         changelog.Type   `json:"type"`
	Status       changelog.Status `json:"status"`
	To           string           `json:"to"`
	Text         string           `json:"text"`
	Resolution   string           `json:"resolution"`
	Rationale    string           `json:"rationale"`
	Alternatives []string         `json:"alternatives"`
	Files        []string         `json:"files"`
	// Extra are the values of a generic kind's extra fields.
	Extra map[string]any `json:"extra"`
	// OnAgent puts a learning or decision on its agent's branch rather
	// than global; log entries and handoffs are always there.
	OnAgent bool `json:"on_agent"`
	// supersedes is the key of the record this one replaces: the case's
	// old record, set when the corpus is made.
	supersedes string
	// subject is the subject of a spread case's record, set from its case.
	subject string
}

// vocab is what the records of one domain talk about; filler fills its
// templates from it.
type vocab struct {
	Name string `json:"name"`
	// Owner writes the domain's promoted records; StateAgent is the agent
	// with a branch in the corpus who writes its log entries, handoffs and
	// unpromoted records.
	Owner      string   `json:"owner"`
	StateAgent string   `json:"state_agent"`
	Tools      []string `json:"tools"`
	Idents     []string `json:"idents"`
	Files      []string `json:"files"`
	Cmds       []string `json:"commands"`
	Errs       []string `json:"errors"`
	Topics     []string `json:"topics"`
}

// Agents with a branch of their own in the corpus.
const (
	agentBackend = "backend"
	agentInfra   = "infra"
)

type fillerData struct {
	Learnings []learningTemplate `json:"learnings"`
	Fixes     []string           `json:"fixes"`
	Decisions []decisionTemplate `json:"decisions"`
	Reasons   []string           `json:"reasons"`
	Logs      []logTemplate      `json:"logs"`
	Handoffs  []string           `json:"handoffs"`
	Envs      []string           `json:"environments"`
	Quarters  []string           `json:"quarters"`
}

type learningTemplate struct {
	Type           changelog.Type           `json:"type"`
	Classification changelog.Classification `json:"classification"`
	Text           string                   `json:"text"`
	Fix            string                   `json:"fix"`
}

type decisionTemplate struct {
	Text         string   `json:"text"`
	Alternatives []string `json:"alternatives"`
}

type logTemplate struct {
	Type   changelog.Type   `json:"type"`
	Status changelog.Status `json:"status"`
	Text   string           `json:"text"`
}

// ReadData reads the evaluation's data from fsys, which holds the files of
// DataDir. A field the files do not know, a case of an unknown domain or a
// key used twice is an error: a typo would otherwise change what is
// measured without a word.
func ReadData(fsys fs.FS) (*Data, error) {
	d := &Data{}
	for _, f := range []struct {
		name string
		into any
	}{
		{"cases.json", &d.cases},
		{"vocabulary.json", &d.vocabs},
		{"phrasings.json", &d.phrasings},
		{"filler.json", &d.filler},
		{"spread.json", &d.spread},
	} {
		if err := readJSON(fsys, f.name, f.into); err != nil {
			return nil, err
		}
	}
	if err := d.check(); err != nil {
		return nil, fmt.Errorf("failed to read evaluation data: %w", err)
	}
	return d, nil
}

func readJSON(fsys fs.FS, name string, v any) error {
	data, err := fs.ReadFile(fsys, name)
	if err != nil {
		return fmt.Errorf("failed to read evaluation data: %w", err)
	}
	dec := json.NewDecoder(bytes.NewReader(data))
	dec.DisallowUnknownFields()
	if err := dec.Decode(v); err != nil {
		return fmt.Errorf("failed to read evaluation data %s: %w", name, err)
	}
	return nil
}

func (d *Data) check() error {
	var errs []error
	for _, v := range d.vocabs {
		if v.StateAgent != agentBackend && v.StateAgent != agentInfra {
			errs = append(errs, fmt.Errorf("domain %s: state agent %q has no branch in the corpus (%s or %s)", v.Name, v.StateAgent, agentBackend, agentInfra))
		}
		if len(v.Tools) < 2 || len(v.Idents) < 2 || len(v.Files) < 2 || len(v.Cmds) == 0 || len(v.Errs) == 0 || len(v.Topics) == 0 {
			errs = append(errs, fmt.Errorf("domain %s: filler needs two tools, identifiers and files and at least one command, error and topic", v.Name))
		}
	}
	keys, answers := map[string]bool{}, map[string]bool{}
	for _, c := range d.cases {
		answers[c.Answer.Key] = true
		specs := append([]spec{c.Answer}, c.Distractors...)
		if c.Old != nil {
			specs = append(specs, *c.Old)
		}
		for _, s := range specs {
			if keys[s.Key] {
				errs = append(errs, fmt.Errorf("two hand-written records are called %s", s.Key))
			}
			keys[s.Key] = true
			if _, ok := d.vocabOf(s.Domain); !ok {
				errs = append(errs, fmt.Errorf("record %s: unknown domain %q", s.Key, s.Domain))
			}
		}
	}
	for _, c := range d.spread {
		if len(c.Records) < minSpread || len(c.Records) > maxSpread {
			errs = append(errs, fmt.Errorf("spread question %q: %d records, want %d to %d", c.Question, len(c.Records), minSpread, maxSpread))
		}
		if c.Subject == "" {
			errs = append(errs, fmt.Errorf("spread question %q: no subject", c.Question))
		}
		if _, ok := d.vocabOf(c.Domain); !ok {
			errs = append(errs, fmt.Errorf("spread question %q: unknown domain %q", c.Question, c.Domain))
		}
		for _, s := range c.Records {
			if keys[s.Key] {
				errs = append(errs, fmt.Errorf("two hand-written records are called %s", s.Key))
			}
			keys[s.Key] = true
			if s.Kind != changelog.KindLearning && s.Kind != changelog.KindDecision {
				errs = append(errs, fmt.Errorf("record %s: a spread case's records are learnings and decisions, not %q", s.Key, s.Kind))
			}
			if s.Domain != "" || s.OnAgent {
				errs = append(errs, fmt.Errorf("record %s: a spread case's record takes its case's domain and is promoted", s.Key))
			}
		}
	}
	for key := range d.phrasings {
		if !answers[key] {
			errs = append(errs, fmt.Errorf("phrasings for %s, which answers no question", key))
		}
	}
	return errors.Join(errs...)
}

func (d *Data) vocabOf(name string) (*vocab, bool) {
	for i := range d.vocabs {
		if d.vocabs[i].Name == name {
			return &d.vocabs[i], true
		}
	}
	return nil, false
}
