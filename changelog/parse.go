package changelog

import (
	"bytes"
	"errors"
	"fmt"
	"reflect"
	"regexp"
	"slices"
	"strconv"
	"strings"
	"sync"
	"unicode/utf8"

	"github.com/adrg/frontmatter"
	"go.yaml.in/yaml/v3"
)

// MaxRecordSize is the largest record planq writes or reads.
const MaxRecordSize = 64 << 10

// ParseError is a record that breaks the rules, located by file and line.
type ParseError struct {
	Path string
	Line int // 0 when the problem is the file as a whole
	Msg  string
}

func (e *ParseError) Error() string {
	if e.Line > 0 {
		return fmt.Sprintf("%s:%d: %s", e.Path, e.Line, e.Msg)
	}
	return e.Path + ": " + e.Msg
}

// CheckContent rejects content no record may hold: too large, binary, or not
// UTF-8. It is shared by parsing and writing.
func CheckContent(data []byte) error {
	switch {
	case len(data) > MaxRecordSize:
		return fmt.Errorf("is %d bytes; a record holds at most %d (64 KiB)", len(data), MaxRecordSize)
	case bytes.IndexByte(data, 0) >= 0:
		return errors.New("contains a NUL byte; records are text")
	case !utf8.Valid(data):
		return errors.New("is not valid UTF-8")
	}
	return nil
}

// knownKeys are the frontmatter keys of a record, from the struct tags,
// read on first use rather than at every process's start.
var knownKeys = sync.OnceValue(func() map[string]bool {
	keys := map[string]bool{}
	t := reflect.TypeOf(Record{})
	for i := 0; i < t.NumField(); i++ {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("yaml"), ",")
		if name != "" && name != "-" {
			keys[name] = true
		}
	}
	return keys
})

// strictYAML decodes a frontmatter block into a Record, refusing duplicate
// keys, unknown keys and wrong types, and remembering each key's line.
type strictYAML struct {
	rec   *Record
	lines map[string]int // key -> line within the YAML block
}

func (s *strictYAML) unmarshal(data []byte, _ any) error {
	var doc yaml.Node
	if err := yaml.Unmarshal(data, &doc); err != nil {
		return err
	}
	if len(doc.Content) == 0 {
		return errors.New("frontmatter is empty")
	}
	m := doc.Content[0]
	if m.Kind != yaml.MappingNode {
		return &lineError{line: m.Line, msg: "frontmatter is not a mapping of keys to values"}
	}
	s.lines = map[string]int{}
	for i := 0; i+1 < len(m.Content); i += 2 {
		k := m.Content[i]
		if prev, dup := s.lines[k.Value]; dup {
			return &lineError{line: k.Line, msg: fmt.Sprintf("duplicate key %q", k.Value), firstLine: prev}
		}
		s.lines[k.Value] = k.Line
		if knownKeys()[k.Value] {
			continue
		}
		if !isExtraKey(k.Value) {
			return &lineError{line: k.Line, msg: fmt.Sprintf("unknown key %q", k.Value)}
		}
		v, err := extraValue(m.Content[i+1])
		if err != nil {
			return &lineError{line: m.Content[i+1].Line, msg: k.Value + ": " + err.Error()}
		}
		if v != nil {
			if s.rec.Extra == nil {
				s.rec.Extra = map[string]any{}
			}
			s.rec.Extra[k.Value] = v
		}
	}
	err := m.Decode(s.rec)
	var te *yaml.TypeError
	if err == nil || errors.As(err, &te) {
		return err // type errors carry their line already
	}
	// Errors from a field's own decoding (a bad timestamp) carry no line:
	// find the key whose value fails on its own.
	for i := 0; i+1 < len(m.Content); i += 2 {
		one := &yaml.Node{Kind: yaml.MappingNode, Content: m.Content[i : i+2]}
		if ferr := one.Decode(&Record{}); ferr != nil {
			return &lineError{line: m.Content[i].Line, msg: m.Content[i].Value + ": " + ferr.Error()}
		}
	}
	return err
}

// extraValue reads an extra field's value (Spec.Extra): a scalar is a
// string, as it is for a Record field of type string; a sequence of scalars
// a list. Whether the kind wants that type is validation's to say, with the
// key's line. An empty value is none (nil), as Render leaves it out.
func extraValue(n *yaml.Node) (any, error) {
	switch {
	case n.Kind == yaml.ScalarNode && n.Tag == "!!null":
		return nil, nil
	case n.Kind == yaml.ScalarNode:
		if n.Value == "" {
			return nil, nil
		}
		return n.Value, nil
	case n.Kind == yaml.SequenceNode:
		var list []string
		for _, item := range n.Content {
			if item.Kind != yaml.ScalarNode || item.Tag == "!!null" {
				return nil, errors.New("a list holds strings only")
			}
			list = append(list, item.Value)
		}
		if len(list) == 0 {
			return nil, nil
		}
		return list, nil
	}
	return nil, errors.New("is neither a string nor a list of strings")
}

// lineError is a problem at a line of the YAML block.
type lineError struct {
	line      int
	msg       string
	firstLine int // for a duplicate key, where it first appeared
}

func (e *lineError) Error() string { return e.msg }

var yamlLineRE = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^(?:yaml: )?line (\d+): (.*)$`) })

// Parse reads one record file strictly. path is used in errors and checked
// against the record: the file must be named by its ID, in its kind's
// directory and shard.
func Parse(path string, data []byte) (*Record, error) {
	if err := CheckContent(data); err != nil {
		return nil, &ParseError{Path: path, Msg: err.Error()}
	}
	rec := &Record{}
	sy := &strictYAML{rec: rec}
	format := frontmatter.NewFormat("---", "---", sy.unmarshal)
	body, err := frontmatter.MustParse(bytes.NewReader(data), rec, format)
	offset := frontmatterOffset(data)
	if err != nil {
		return nil, yamlError(path, offset, err)
	}
	rec.Body = strings.TrimRight(string(body), "\n")
	rec.Path = path
	noEmptyLists(rec)
	if err := validateFields(rec); err != nil {
		var fe *FieldError
		if errors.As(err, &fe) {
			return nil, &ParseError{Path: path, Line: lineOf(sy.lines, fe.Field, offset), Msg: fe.Error()}
		}
		return nil, &ParseError{Path: path, Msg: err.Error()}
	}
	if want := RecordPath(rec); path != "" && !strings.HasSuffix(path, want) {
		return nil, &ParseError{Path: path, Line: lineOf(sy.lines, "id", offset),
			Msg: fmt.Sprintf("record %s belongs at %s", rec.ID, want)}
	}
	return rec, nil
}

// noEmptyLists makes each list or map the YAML held with no item (a key
// whose items are all empty, "tags:\n  -") none, as Render leaves it out:
// a record reads back as it was written.
func noEmptyLists(r *Record) {
	nilIfEmpty(&r.DependsOn)
	nilIfEmpty(&r.Sources)
	nilIfEmpty(&r.Tags)
	nilIfEmpty(&r.Alternatives)
	nilIfEmpty(&r.Anchors)
	nilIfEmpty(&r.Files)
	nilIfEmpty(&r.EntriesUsed)
	if len(r.EntriesDiscarded) == 0 {
		r.EntriesDiscarded = nil
	}
	if r.Evidence != nil {
		nilIfEmpty(&r.Evidence.Files)
	}
}

func nilIfEmpty[T any](list *[]T) {
	if len(*list) == 0 {
		*list = nil
	}
}

// frontmatterOffset is the file line just before the YAML block's first line.
func frontmatterOffset(data []byte) int {
	line := 0
	for len(data) > 0 {
		line++
		end := bytes.IndexByte(data, '\n')
		cur := data
		if end >= 0 {
			cur, data = data[:end], data[end+1:]
		} else {
			data = nil
		}
		if t := bytes.TrimSpace(cur); len(t) > 0 {
			if string(t) == "---" {
				return line
			}
			return 0
		}
	}
	return 0
}

func lineOf(lines map[string]int, field string, offset int) int {
	if l, ok := lines[field]; ok {
		return l + offset
	}
	return 0
}

func yamlError(path string, offset int, err error) error {
	if errors.Is(err, frontmatter.ErrNotFound) {
		return &ParseError{Path: path, Line: 1, Msg: "no frontmatter: a record starts with a '---' line and its YAML ends with another"}
	}
	var le *lineError
	if errors.As(err, &le) {
		msg := le.msg
		if le.firstLine > 0 {
			msg += fmt.Sprintf(" (first at line %d)", le.firstLine+offset)
		}
		return &ParseError{Path: path, Line: le.line + offset, Msg: msg}
	}
	msg := err.Error()
	var te *yaml.TypeError
	if errors.As(err, &te) && len(te.Errors) > 0 {
		msg = te.Errors[0]
	}
	if m := yamlLineRE().FindStringSubmatch(msg); m != nil {
		n, _ := strconv.Atoi(m[1])
		return &ParseError{Path: path, Line: n + offset, Msg: m[2]}
	}
	return &ParseError{Path: path, Msg: strings.TrimPrefix(msg, "yaml: ")}
}

// Render writes r as a record file: frontmatter, then the body.
func Render(r *Record) ([]byte, error) {
	var buf bytes.Buffer
	buf.WriteString("---\n")
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	var doc any = r
	if len(r.Extra) > 0 {
		n, err := withExtra(r)
		if err != nil {
			return nil, fmt.Errorf("failed to encode record %s: %w", r.ID, err)
		}
		doc = n
	}
	if err := enc.Encode(doc); err != nil {
		return nil, fmt.Errorf("failed to encode record %s: %w", r.ID, err)
	}
	if err := enc.Close(); err != nil {
		return nil, fmt.Errorf("failed to encode record %s: %w", r.ID, err)
	}
	buf.WriteString("---\n")
	if body := strings.TrimRight(r.Body, "\n"); body != "" {
		buf.WriteString(body)
		buf.WriteString("\n")
	}
	return buf.Bytes(), nil
}

// withExtra is r's frontmatter with its extra fields after the other keys:
// those of its row in the row's order, then any other (which validation
// refuses) by key. An empty value is left out, as omitempty leaves out an
// empty Record field.
func withExtra(r *Record) (*yaml.Node, error) {
	var n yaml.Node
	if err := n.Encode(r); err != nil {
		return nil, err
	}
	keys := make([]string, 0, len(r.Extra))
	if spec := r.Kind.Spec(); spec != nil {
		for _, f := range spec.Extra {
			if _, ok := r.Extra[string(f.Key)]; ok {
				keys = append(keys, string(f.Key))
			}
		}
	}
	var rest []string
	for k := range r.Extra {
		if !slices.Contains(keys, k) {
			rest = append(rest, k)
		}
	}
	slices.Sort(rest)
	for _, k := range append(keys, rest...) {
		v := r.Extra[k]
		if isEmptyExtra(v) {
			continue
		}
		var key, val yaml.Node
		if err := key.Encode(k); err != nil {
			return nil, err
		}
		if err := val.Encode(v); err != nil {
			return nil, err
		}
		n.Content = append(n.Content, &key, &val)
	}
	return &n, nil
}
