package mulch

import (
	"bufio"
	"bytes"
	"context"
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
	"unicode/utf8"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/internal/untrusted"
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
// writes (its record schema, version 0.10). A record of a type the project
// declares under custom_types holds that type's own fields in Fields; the
// fields of the built-in type it extends are where a built-in's are.
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

	// Extends is the built-in type a custom type extends ("" for a
	// built-in, or a custom type that extends none); Fields are a custom
	// type's own fields, each a string or, for its files field, a []string.
	Extends string         `json:"-"`
	Fields  map[string]any `json:"-"`
}

// recordJSON is Record's JSON without its custom fields.
type recordJSON Record

// MarshalJSON writes r as mulch does: the fields its type requires even
// when empty (mulch's schema requires them present, and an automated
// recorder writes "resolution": ""), then a custom type's own fields.
func (r Record) MarshalJSON() ([]byte, error) {
	data, err := json.Marshal(recordJSON(r))
	if err != nil {
		return nil, err
	}
	var more []string
	base := r.Type
	if r.Extends != "" {
		base = r.Extends
	}
	if t, ok := builtins[base]; ok {
		for _, f := range t.required {
			if _, custom := r.Fields[f]; !custom && r.text(f) == "" {
				more = append(more, f)
			}
		}
	}
	names := make([]string, 0, len(r.Fields))
	for f := range r.Fields {
		names = append(names, f)
	}
	sort.Strings(names)
	if len(more) == 0 && len(names) == 0 {
		return data, nil
	}
	var b bytes.Buffer
	b.Write(data[:len(data)-1])
	add := func(key string, value any) error {
		v, err := json.Marshal(value)
		if err != nil {
			return err
		}
		k, _ := json.Marshal(key)
		b.WriteByte(',')
		b.Write(k)
		b.WriteByte(':')
		b.Write(v)
		return nil
	}
	for _, f := range more {
		if err := add(f, ""); err != nil {
			return nil, err
		}
	}
	for _, f := range names {
		if err := add(f, r.Fields[f]); err != nil {
			return nil, err
		}
	}
	b.WriteByte('}')
	return b.Bytes(), nil
}

// text is the value of r's field named f: a built-in's, or a custom one's.
func (r Record) text(f string) string {
	if v, ok := r.Fields[f]; ok {
		switch v := v.(type) {
		case string:
			return v
		case []string:
			return strings.Join(v, ", ")
		}
		return ""
	}
	switch f {
	case "content":
		return r.Content
	case "name":
		return r.Name
	case "description":
		return r.Description
	case "resolution":
		return r.Resolution
	case "title":
		return r.Title
	case "rationale":
		return r.Rationale
	case "date":
		return r.Date
	case "files":
		return strings.Join(r.Files, ", ")
	}
	return ""
}

// builtinType is what one of mulch's six types holds: the fields it
// requires present (they may be empty) and those it may hold.
type builtinType struct {
	required, optional []string
}

var builtins = map[string]builtinType{
	"convention": {required: []string{"content"}},
	"pattern":    {required: []string{"name", "description"}, optional: []string{"files"}},
	"failure":    {required: []string{"description", "resolution"}},
	"decision":   {required: []string{"title", "rationale"}, optional: []string{"date"}},
	"reference":  {required: []string{"name", "description"}, optional: []string{"files"}},
	"guide":      {required: []string{"name", "description"}},
}

// builtinNames are mulch's types, in the order its docs list them.
const builtinNames = "convention, pattern, failure, decision, reference, guide"

// baseFields are the fields every record may hold, whatever its type. It and
// typeFields are built on first use: only reading mulch needs them.
var baseFields = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"id": true, "type": true, "classification": true, "recorded_at": true, "evidence": true,
		"tags": true, "relates_to": true, "supersedes": true, "outcomes": true, "dir_anchors": true, "owner": true, "status": true,
		"archived_at": true, "archive_reason": true, "supersession_demoted_at": true, "anchor_decay_demoted_at": true}
})

// typeFields are the fields of any built-in type: Record's own.
var typeFields = sync.OnceValue(func() map[string]bool {
	return map[string]bool{"content": true, "name": true, "description": true, "files": true, "resolution": true,
		"title": true, "rationale": true, "date": true}
})

// Entry is a record as read from a domain's file, located by file and line.
// Archived says the file is one of mulch's archive (.mulch/archive/), where
// its prune and archive commands move the records they retire.
type Entry struct {
	Domain   string
	File     string
	Line     int
	Record   Record
	Archived bool
}

// Refusal is a line that cannot be imported, and why. File is relative to
// the mulch directory (expertise/cli.jsonl).
type Refusal struct {
	File   string `json:"file"`
	Line   int    `json:"line"`
	Reason string `json:"reason"`
	// Kind is the kind of error the refusal is: Invalid, or Refused for
	// what looks like a credential.
	Kind planqerr.Kind `json:"-"`
}

func (r Refusal) String() string { return r.at() + ": " + r.Reason }

// at is where the refusal is: file:line, or the file alone for a file
// that is not read at all (Line 0).
func (r Refusal) at() string {
	if r.Line == 0 {
		return r.File
	}
	return fmt.Sprintf("%s:%d", r.File, r.Line)
}

// Err is the refusal as an error of its kind, naming file and line.
func (r Refusal) Err() error {
	return planqerr.New(r.Kind, r.at(), "%s", r.Reason)
}

// Source is a mulch directory as read: its configuration, the records of
// its expertise and archive files, and the lines that are none.
type Source struct {
	Dir     string
	Config  Config
	Entries []Entry
	Refused []Refusal
}

var (
	mulchID   = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^mx-[0-9a-f]{4,8}$`) })
	mulchLink = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(?:([a-z0-9-]+):)?(mx-[0-9a-f]{4,8})$`) })
)

// Read reads the mulch directory dir (a .mulch directory, or a directory
// holding one): its mulch.config.yaml (the types it declares under
// custom_types), then every domain's expertise/<domain>.jsonl and
// archive/<domain>.jsonl, domains in name order, records in file order.
// Every line is decoded strictly (see Config.DecodeLine); a line that is
// not a record mulch accepts (or not UTF-8, or longer than maxLine) is
// refused, naming file, line and why, and the others are read. A file
// that is no regular file inside the mulch directory, or larger than
// maxFile, is refused whole (line 0): a FIFO would block, a link to
// /etc/passwd or to another project's expertise is not this one's. Only a
// directory that is not mulch's, a file that cannot be read, a
// configuration that is not YAML, or ctx's end is an error.
func Read(ctx context.Context, dir string) (*Source, error) {
	dir, err := Locate(dir)
	if err != nil {
		return nil, err
	}
	cfg, err := ReadConfig(dir)
	if err != nil {
		return nil, err
	}
	src := &Source{Dir: dir, Config: cfg}
	for _, sub := range []string{"expertise", "archive"} {
		files, err := filepath.Glob(filepath.Join(dir, sub, "*.jsonl"))
		if err != nil {
			return nil, fmt.Errorf("failed to list %s: %w", dir, err)
		}
		sort.Strings(files)
		for _, f := range files {
			if err := src.readFile(ctx, f, sub == "archive"); err != nil {
				return nil, err
			}
		}
	}
	return src, nil
}

// maxLine is the longest line of an expertise file read: a record is at
// most changelog.MaxRecordSize once it is planq's, and its JSON, escapes
// and all, a few times that.
const maxLine = changelog.MaxRecordSize * 4

// maxFile is the largest expertise file read: a hundred thousand records.
const maxFile = 256 << 20

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

func (src *Source) readFile(ctx context.Context, path string, archived bool) error {
	rel, err := filepath.Rel(src.Dir, path)
	if err != nil {
		rel = path
	}
	rel = filepath.ToSlash(rel)
	refuse := func(n int, reason string) {
		src.Refused = append(src.Refused, Refusal{File: rel, Line: n, Reason: reason, Kind: planqerr.Invalid})
	}
	f, err := untrusted.Open(src.Dir, path, maxFile)
	if untrusted.ReasonOf(err) != 0 {
		refuse(0, untrusted.Why(err))
		return nil
	}
	if err != nil {
		return fmt.Errorf("failed to read %s: %w", path, err)
	}
	defer func() { _ = f.Close() }()
	domain := strings.TrimSuffix(filepath.Base(path), ".jsonl")
	br := bufio.NewReaderSize(untrusted.Until(ctx, f), 64<<10)
	for n := 1; ; n++ {
		raw, long, err := nextLine(br)
		if ctxErr := ctx.Err(); ctxErr != nil {
			return ctxErr
		}
		if err != nil && !errors.Is(err, io.EOF) {
			if untrusted.ReasonOf(err) == 0 {
				return fmt.Errorf("failed to read %s: %w", path, err)
			}
			refuse(n, "cannot be read, nor the lines after it: "+untrusted.Why(err)) // the file grew past maxFile
			return nil
		}
		line := bytes.TrimSpace(raw)
		switch {
		case long:
			refuse(n, fmt.Sprintf("longer than %s: not read", untrusted.Size(maxLine)))
		case len(line) == 0 || line[0] == '#': // mulch's archive files open with a "# ARCHIVED" banner
		case !utf8.Valid(line):
			// JSON decoding would make each bad byte U+FFFD: the text
			// imported would not be what the file says.
			refuse(n, "not valid UTF-8")
		default:
			r, derr := src.Config.DecodeLine(line)
			if derr != nil {
				refuse(n, derr.Error())
				break
			}
			src.Entries = append(src.Entries, Entry{Domain: domain, File: rel, Line: n, Record: r, Archived: archived})
		}
		if errors.Is(err, io.EOF) {
			return nil
		}
	}
}

// nextLine reads one line, long when it is longer than maxLine (then its
// text is dropped, and the lines after it are read as usual); io.EOF
// with the last line, when the file ends.
func nextLine(br *bufio.Reader) (line []byte, long bool, err error) {
	var buf []byte
	for {
		chunk, err := br.ReadSlice('\n')
		if !long {
			if len(buf)+len(chunk) > maxLine+1 {
				long, buf = true, nil
			} else {
				buf = append(buf, chunk...)
			}
		}
		if errors.Is(err, bufio.ErrBufferFull) {
			continue
		}
		return buf, long, err
	}
}

// DecodeLine decodes one mulch record strictly, as mulch's validate does:
// one JSON object, of one of mulch's types or of a type c declares, with
// the fields its type requires present (an automated recorder leaves some
// empty: "resolution": ""), no field its type does not have, and a
// classification, time and id mulch writes. A custom type's legacy field
// names (aliases) are read as their current ones, and a legacy "outcome"
// as "outcomes", as mulch reads them.
func (c Config) DecodeLine(line []byte) (Record, error) {
	raw, typ, err := decodeObject(line)
	if err != nil {
		return Record{}, err
	}
	foldOutcome(raw)
	var r Record
	required, own := builtins[typ].required, map[string]bool{}
	if t, ok := builtins[typ]; ok {
		markOwn(own, t)
	} else {
		ct, ok := c.CustomTypes[typ]
		if !ok {
			return Record{}, fmt.Errorf("type %q is not one of mulch's (%s) and mulch.config.yaml declares no such custom type", typ, builtinNames)
		}
		ct.applyAliases(raw)
		markOwn(own, builtins[ct.Extends])
		required = append(slicesClip(builtins[ct.Extends].required), ct.Required...)
		r.Extends = ct.Extends
		if r.Fields, err = ct.takeFields(raw, own); err != nil {
			return Record{}, err
		}
	}
	if err := checkFields(typ, raw, required, own, r.Fields); err != nil {
		return Record{}, err
	}
	rest, err := json.Marshal(raw)
	if err != nil {
		return Record{}, fmt.Errorf("not a mulch record: %w", err)
	}
	known := json.NewDecoder(bytes.NewReader(rest))
	known.DisallowUnknownFields()
	if err := known.Decode((*recordJSON)(&r)); err != nil {
		return Record{}, fmt.Errorf("not a mulch record: %w", err)
	}
	return r, r.check()
}

// decodeObject decodes line as one JSON object with a type: its fields,
// undecoded, and its type.
func decodeObject(line []byte) (map[string]json.RawMessage, string, error) {
	var raw map[string]json.RawMessage
	dec := json.NewDecoder(bytes.NewReader(line))
	if err := dec.Decode(&raw); err != nil {
		return nil, "", fmt.Errorf("not a mulch record: %w", err)
	}
	if raw == nil {
		return nil, "", errors.New("not a mulch record: not a JSON object")
	}
	if _, err := dec.Token(); !errors.Is(err, io.EOF) {
		return nil, "", errors.New("not a mulch record: more than one JSON value on the line")
	}
	var typ string
	if t, ok := raw["type"]; !ok || json.Unmarshal(t, &typ) != nil {
		return nil, "", errors.New("not a mulch record: it has no type")
	}
	return raw, typ, nil
}

// foldOutcome reads a legacy "outcome" as a list of one in "outcomes",
// unless the record has both.
func foldOutcome(raw map[string]json.RawMessage) {
	old, ok := raw["outcome"]
	if !ok {
		return
	}
	if _, both := raw["outcomes"]; !both && string(old) != "null" {
		raw["outcomes"] = append(append([]byte{'['}, old...), ']')
	}
	delete(raw, "outcome")
}

// markOwn marks the fields of the built-in type t as own.
func markOwn(own map[string]bool, t builtinType) {
	for _, f := range append(slicesClip(t.required), t.optional...) {
		own[f] = true
	}
}

// takeFields takes out of raw the fields of ct's own (not those of the
// built-in it extends, which own marks), decoded.
func (ct CustomType) takeFields(raw map[string]json.RawMessage, own map[string]bool) (map[string]any, error) {
	var fields map[string]any
	for _, f := range append(slicesClip(ct.Required), ct.Optional...) {
		v, ok := raw[f]
		if own[f] || !ok {
			continue // a parent's field the custom type names again, or one the record has not
		}
		val, err := ct.value(f, v)
		if err != nil {
			return nil, err
		}
		if fields == nil {
			fields = map[string]any{}
		}
		fields[f] = val
		delete(raw, f)
	}
	return fields, nil
}

// checkFields refuses a record of typ without a field it requires, or
// with one it does not have.
func checkFields(typ string, raw map[string]json.RawMessage, required []string, own map[string]bool, custom map[string]any) error {
	var absent []string
	for _, f := range required {
		if _, ok := raw[f]; !ok && custom[f] == nil {
			absent = append(absent, f)
		}
	}
	if len(absent) > 0 {
		return fmt.Errorf("a %s needs %s", typ, strings.Join(absent, " and "))
	}
	keys := make([]string, 0, len(raw))
	for k := range raw {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if baseFields()[k] || own[k] {
			continue
		}
		if typeFields()[k] {
			return fmt.Errorf("unknown field %q: a %s has none", k, typ)
		}
		return fmt.Errorf("unknown field %q", k)
	}
	return nil
}

func slicesClip(s []string) []string { return s[:len(s):len(s)] }

func (r Record) check() error {
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

// recordedAt reads a record's time: RFC 3339, as mulch writes it, or a
// date and time without a zone (UTC) or a date, as a hand may.
func recordedAt(s string) (time.Time, error) {
	for _, layout := range []string{time.RFC3339Nano, "2006-01-02T15:04:05.999999999", "2006-01-02"} {
		if t, err := time.Parse(layout, s); err == nil {
			return t.UTC(), nil
		}
	}
	return time.Time{}, fmt.Errorf("recorded_at %q is not a time (RFC 3339)", s)
}

// IDOf is the planq ID of the record imported from origin.
func IDOf(origin string) string {
	sum := sha256.Sum256([]byte("mulch\x00" + origin))
	return changelog.IDPrefix + hex.EncodeToString(sum[:])[:10]
}
