package mulch

import (
	"bufio"
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"regexp"
	"sort"
	"strings"
	"sync"
	"time"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/planqerr"
)

// Evidence is a mulch record's evidence: what shows it.
type Evidence struct {
	Commit string `json:"commit,omitempty"`
	Date   string `json:"date,omitempty"`
	Issue  string `json:"issue,omitempty"`
	File   string `json:"file,omitempty"`
	Bead   string `json:"bead,omitempty"`
	Seeds  string `json:"seeds,omitempty"`
	GH     string `json:"gh,omitempty"`
	Linear string `json:"linear,omitempty"`
}

// Outcome is what came of applying a mulch record.
type Outcome struct {
	Status      string   `json:"status"`
	Duration    *float64 `json:"duration,omitempty"`
	TestResults string   `json:"test_results,omitempty"`
	Agent       string   `json:"agent,omitempty"`
	Notes       string   `json:"notes,omitempty"`
	RecordedAt  string   `json:"recorded_at,omitempty"`
}

// Record is one line of a mulch expertise file, with every field mulch
// writes (its record schema, version 0.10).
type Record struct {
	ID             string    `json:"id,omitempty"`
	Type           string    `json:"type"`
	Classification string    `json:"classification"`
	RecordedAt     string    `json:"recorded_at"`
	Evidence       *Evidence `json:"evidence,omitempty"`
	Tags           []string  `json:"tags,omitempty"`
	RelatesTo      []string  `json:"relates_to,omitempty"`
	Supersedes     []string  `json:"supersedes,omitempty"`
	Outcomes       []Outcome `json:"outcomes,omitempty"`
	DirAnchors     []string  `json:"dir_anchors,omitempty"`
	Owner          string    `json:"owner,omitempty"`
	Status         string    `json:"status,omitempty"`
	// Type-specific: convention content; pattern, reference and guide name
	// and description (pattern and reference files); failure description and
	// resolution; decision title, rationale and date.
	Content     string   `json:"content,omitempty"`
	Name        string   `json:"name,omitempty"`
	Description string   `json:"description,omitempty"`
	Files       []string `json:"files,omitempty"`
	Resolution  string   `json:"resolution,omitempty"`
	Title       string   `json:"title,omitempty"`
	Rationale   string   `json:"rationale,omitempty"`
	Date        string   `json:"date,omitempty"`
	// Bookkeeping mulch's prune writes on records it demotes or archives.
	ArchivedAt            string `json:"archived_at,omitempty"`
	ArchiveReason         string `json:"archive_reason,omitempty"`
	SupersessionDemotedAt string `json:"supersession_demoted_at,omitempty"`
	AnchorDecayDemotedAt  string `json:"anchor_decay_demoted_at,omitempty"`
}

// Entry is a record as read from a domain's file, located by file and line.
type Entry struct {
	Domain string
	File   string
	Line   int
	Record Record
}

var mulchID = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^mx-[0-9a-f]{4,8}$`) })

// Read reads the expertise of the mulch directory dir (a .mulch directory,
// or a directory holding one): every domain's expertise/<domain>.jsonl,
// domains in name order, records in file order. Every line is decoded
// strictly (unknown fields, wrong types, missing required fields are
// errors naming file and line), and nothing is returned unless all read.
func Read(dir string) ([]Entry, error) {
	dir, err := Locate(dir)
	if err != nil {
		return nil, err
	}
	files, err := filepath.Glob(filepath.Join(dir, "expertise", "*.jsonl"))
	if err != nil {
		return nil, fmt.Errorf("failed to list %s: %w", dir, err)
	}
	sort.Strings(files)
	var out []Entry
	for _, f := range files {
		entries, err := readFile(f)
		if err != nil {
			return nil, err
		}
		out = append(out, entries...)
	}
	return out, nil
}

// Locate finds the mulch directory at or in dir: one holding expertise/
// or mulch.config.yaml.
func Locate(dir string) (string, error) {
	for _, d := range []string{filepath.Join(dir, ".mulch"), dir} {
		for _, mark := range []string{"expertise", "mulch.config.yaml"} {
			if _, err := os.Stat(filepath.Join(d, mark)); err == nil {
				return d, nil
			}
		}
	}
	return "", planqerr.New(planqerr.NotFound, dir, "is not a mulch directory: it holds no expertise/ and no mulch.config.yaml").
		WithHint("name the project's .mulch directory, or the directory that holds it")
}

func readFile(path string) ([]Entry, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, fmt.Errorf("failed to read %s: %w", path, err)
	}
	domain := strings.TrimSuffix(filepath.Base(path), ".jsonl")
	var out []Entry
	sc := bufio.NewScanner(bytes.NewReader(data))
	sc.Buffer(make([]byte, 0, 64*1024), changelog.MaxRecordSize*4)
	for n := 1; sc.Scan(); n++ {
		line := bytes.TrimSpace(sc.Bytes())
		if len(line) == 0 {
			continue
		}
		r, err := DecodeLine(line)
		if err != nil {
			return nil, planqerr.New(planqerr.Invalid, fmt.Sprintf("%s:%d", path, n), "%v", err).
				WithHint("fix the line (mulch validate checks it too); nothing was imported")
		}
		out = append(out, Entry{Domain: domain, File: path, Line: n, Record: r})
	}
	if err := sc.Err(); err != nil {
		return nil, planqerr.New(planqerr.Invalid, path, "failed to read: %v", err)
	}
	return out, nil
}

// DecodeLine decodes one mulch record strictly: one JSON object, no field
// mulch does not write, and the fields its type requires.
func DecodeLine(line []byte) (Record, error) {
	var r Record
	dec := json.NewDecoder(bytes.NewReader(line))
	dec.DisallowUnknownFields()
	if err := dec.Decode(&r); err != nil {
		return Record{}, fmt.Errorf("not a mulch record: %w", err)
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return Record{}, errors.New("not a mulch record: more than one JSON value on the line")
	}
	return r, r.check()
}

// required is what each type of record must hold, as mulch's schema says.
var required = map[string]func(Record) []string{
	"convention": func(r Record) []string { return missing("content", r.Content) },
	"pattern":    func(r Record) []string { return missing("name", r.Name, "description", r.Description) },
	"failure":    func(r Record) []string { return missing("description", r.Description, "resolution", r.Resolution) },
	"decision":   func(r Record) []string { return missing("title", r.Title, "rationale", r.Rationale) },
	"reference":  func(r Record) []string { return missing("name", r.Name, "description", r.Description) },
	"guide":      func(r Record) []string { return missing("name", r.Name, "description", r.Description) },
}

func missing(pairs ...string) []string {
	var out []string
	for i := 0; i < len(pairs); i += 2 {
		if strings.TrimSpace(pairs[i+1]) == "" {
			out = append(out, pairs[i])
		}
	}
	return out
}

func (r Record) check() error {
	need, ok := required[r.Type]
	if !ok {
		return fmt.Errorf("type %q is not one of mulch's (convention, pattern, failure, decision, reference, guide)", r.Type)
	}
	if m := need(r); len(m) > 0 {
		return fmt.Errorf("a %s needs %s", r.Type, strings.Join(m, " and "))
	}
	switch changelog.Classification(r.Classification) {
	case changelog.Foundational, changelog.Tactical, changelog.Observational:
	default:
		return fmt.Errorf("classification %q is not foundational, tactical or observational", r.Classification)
	}
	if _, err := recordedAt(r.RecordedAt); err != nil {
		return err
	}
	if r.ID != "" && !mulchID().MatchString(r.ID) {
		return fmt.Errorf("id %q is not a mulch id (mx- and 4 to 8 hex digits)", r.ID)
	}
	return nil
}

func recordedAt(s string) (time.Time, error) {
	t, err := time.Parse(time.RFC3339Nano, s)
	if err != nil {
		return time.Time{}, fmt.Errorf("recorded_at %q is not a time (RFC 3339)", s)
	}
	return t.UTC(), nil
}

// Origin is what a planq record imported from e says it came from; ID
// derives from it, so any import of one mulch record, by any agent on any
// machine, makes the same planq record.
func (e Entry) Origin() string {
	if e.Record.ID != "" {
		return "mulch:" + e.Record.ID
	}
	line, _ := json.Marshal(e.Record)
	sum := sha256.Sum256(line)
	return "mulch:" + e.Domain + ":" + hex.EncodeToString(sum[:])[:12]
}

// IDOf is the planq ID of the record imported from origin.
func IDOf(origin string) string {
	sum := sha256.Sum256([]byte("mulch\x00" + origin))
	return changelog.IDPrefix + hex.EncodeToString(sum[:])[:10]
}
