package changelog

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"fmt"
	"reflect"
	"slices"
	"strings"
	"sync"
	"time"
	"unicode/utf8"

	"github.com/adrg/frontmatter"
	"go.yaml.in/yaml/v3"

	"github.com/planq-dev/planq/planqerr"
)

// An article is a document of the knowledge base, on global at
// knowledge/<topic>/<slug>.md: what the team knows on one subject, gathered
// from learnings and decisions, edited in place by planq and by people. Its
// row in the kind table (KindArticle) names its directory, type and
// statuses; this file holds the rest: its fields, its strict parser, its
// renderer and its constructor.
//
// Its frontmatter keeps the Open Knowledge Format's keys (v0.1: type,
// title, description, tags, timestamp, the last meaningful change) beside
// planq's, so that other tools read the articles:
//
//	type: article            title: one line
//	description: one line    topic: the directory it is in
//	tags: [...]              created, updated, timestamp (= updated)
//	sources: [...]           record IDs, commit:<hex>, issue:<ref>
//	confidence: low|medium|high
//	status: current|disputed|deprecated
//	curated_by: auto|human|mixed
//
// Keys of other tools are kept as they are, after planq's; a duplicate
// key, a value of the wrong type or a planq key with a value it does not
// allow is an error naming the file and line, as for a record.

// Confidence is how far an article can be trusted.
type Confidence string

// Confidences, least first.
const (
	ConfidenceLow    Confidence = "low"
	ConfidenceMedium Confidence = "medium"
	ConfidenceHigh   Confidence = "high"
)

// Confidences lists every confidence, least first.
var Confidences = []Confidence{ConfidenceLow, ConfidenceMedium, ConfidenceHigh}

// CuratedBy says who shaped an article: planq's extraction alone, a person
// (or an agent writing as one), or both.
type CuratedBy string

// Curators.
const (
	CuratedAuto  CuratedBy = "auto"
	CuratedHuman CuratedBy = "human"
	CuratedMixed CuratedBy = "mixed"
)

// Curators lists every value of curated_by.
var Curators = []CuratedBy{CuratedAuto, CuratedHuman, CuratedMixed}

// MaxArticleSize is the largest article planq writes or reads.
const MaxArticleSize = 256 << 10

// Limits of an article's one-line fields.
const (
	MaxSlugLen        = 80
	maxTitleLen       = 200
	maxDescriptionLen = 300
)

// Article is one article: its frontmatter, in the order of keys planq
// writes, and its Markdown body.
type Article struct {
	Type        Type       `yaml:"type" json:"type"`
	Title       string     `yaml:"title" json:"title"`
	Description string     `yaml:"description" json:"description"`
	Topic       string     `yaml:"topic" json:"topic"`
	Tags        []string   `yaml:"tags,omitempty" json:"tags,omitempty"`
	Created     time.Time  `yaml:"created" json:"created"`
	Updated     time.Time  `yaml:"updated" json:"updated"`
	Timestamp   time.Time  `yaml:"timestamp" json:"timestamp"`
	Sources     []string   `yaml:"sources,omitempty" json:"sources,omitempty"`
	Confidence  Confidence `yaml:"confidence" json:"confidence"`
	Status      Status     `yaml:"status" json:"status"`
	CuratedBy   CuratedBy  `yaml:"curated_by" json:"curated_by"`

	// Slug names the article's file; Body is the Markdown after the
	// frontmatter.
	Slug string `yaml:"-" json:"slug"`
	Body string `yaml:"-" json:"body"`

	// other holds the keys planq does not know, key and value nodes in
	// the order the file had them, so that a render keeps them.
	other []*yaml.Node
}

// ArticlePath is where the article slug of topic lives on global.
func ArticlePath(topic, slug string) string {
	return KindArticle.Dir() + "/" + topic + "/" + slug + ".md"
}

// Path is where the article lives on global.
func (a *Article) Path() string { return ArticlePath(a.Topic, a.Slug) }

// SplitArticlePath reads the topic and slug of an article's path,
// knowledge/<topic>/<slug>.md; false for any other path.
func SplitArticlePath(p string) (topic, slug string, ok bool) {
	rest, ok := strings.CutPrefix(p, KindArticle.Dir()+"/")
	if !ok {
		return "", "", false
	}
	topic, file, ok := strings.Cut(rest, "/")
	if !ok || strings.Contains(file, "/") {
		return "", "", false
	}
	slug, ok = strings.CutSuffix(file, ".md")
	if !ok || SlugProblem(topic) != "" || SlugProblem(slug) != "" {
		return "", "", false
	}
	return topic, slug, true
}

// SlugProblem says what is wrong with an article's slug or a topic's name,
// "" when nothing is: lower-case letters, digits and single hyphens inside,
// at most MaxSlugLen characters.
func SlugProblem(s string) string {
	switch {
	case s == "":
		return "is empty"
	case len(s) > MaxSlugLen:
		return fmt.Sprintf("is %d characters long; at most %d", len(s), MaxSlugLen)
	case strings.Contains(s, "/") || strings.Contains(s, ".."):
		return "holds '/' or '..': a slug names one file, not a path"
	case strings.ContainsAny(s, " \t\r\n"):
		return "holds a space"
	}
	for i, c := range s {
		switch {
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9':
		case c == '-' && i > 0 && i < len(s)-1 && s[i-1] != '-':
		default:
			return fmt.Sprintf("holds %q: use lower-case letters, digits and single hyphens inside", c)
		}
	}
	return ""
}

// ValidateSlug checks an article's slug (what is "slug") or a topic's
// name (what is "topic") and explains what is wrong with a bad one.
func ValidateSlug(what, s string) error {
	if problem := SlugProblem(s); problem != "" {
		return planqerr.New(planqerr.Invalid, what+" "+fmt.Sprintf("%q", s), "%s", problem).
			WithHint("use lower-case letters, digits and hyphens, like session-storage (at most %d characters)", MaxSlugLen)
	}
	return nil
}

// ValidSource reports whether s names what an article may cite: a record
// ID, a code commit ("commit:" and 7 to 64 hex digits) or an issue
// ("issue:" and a reference of one word, like issue:#29 or issue:org/repo#29).
func ValidSource(s string) bool {
	if ValidID(s) {
		return true
	}
	if h, ok := strings.CutPrefix(s, "commit:"); ok {
		if len(h) < 7 || len(h) > 64 {
			return false
		}
		return isHex(h, len(h))
	}
	if ref, ok := strings.CutPrefix(s, "issue:"); ok {
		return ref != "" && len(ref) <= 200 && !strings.ContainsAny(ref, " \t\r\n")
	}
	return false
}

// ArticleInput is what an article says; NewArticle fills in the rest.
type ArticleInput struct {
	Topic, Slug        string
	Title, Description string
	Tags, Sources      []string
	// Created and Updated: when the article was made and last changed in
	// what it says; a zero Created is Updated.
	Created, Updated time.Time
	Confidence       Confidence
	Status           Status    // default current
	CuratedBy        CuratedBy // default auto
	Body             string
}

// NewArticle makes an article: type article, timestamp its updated time,
// times in UTC to the second. It refuses what an article may not hold,
// with a hint.
func NewArticle(in ArticleInput) (*Article, error) {
	if in.Status == "" {
		in.Status = StatusCurrent
	}
	if in.CuratedBy == "" {
		in.CuratedBy = CuratedAuto
	}
	if in.Created.IsZero() {
		in.Created = in.Updated
	}
	a := &Article{
		Type: TypeArticle, Topic: in.Topic, Slug: in.Slug,
		Title: oneLineOf(in.Title), Description: oneLineOf(in.Description),
		Tags: in.Tags, Sources: in.Sources,
		Created: in.Created.UTC().Truncate(time.Second), Updated: in.Updated.UTC().Truncate(time.Second),
		Confidence: in.Confidence, Status: in.Status, CuratedBy: in.CuratedBy,
		Body: strings.Trim(in.Body, "\n"),
	}
	a.Timestamp = a.Updated
	if err := ValidateSlug("slug", a.Slug); err != nil {
		return nil, err
	}
	if err := ValidateSlug("topic", a.Topic); err != nil {
		return nil, err
	}
	if err := validateArticle(a); err != nil {
		return nil, planqerr.New(planqerr.Invalid, "article "+a.Slug, "%w", err).
			WithHint("an article has a one-line title and description, a topic, an updated time, and a confidence, status and curated_by of the allowed values")
	}
	return a, nil
}

// validateArticle holds a's frontmatter to the rules; the first problem is
// a *FieldError naming the key.
func validateArticle(a *Article) error {
	if a.Type != TypeArticle {
		if a.Type == "" {
			return fieldErr("type", "is missing: an article's type is %s", TypeArticle)
		}
		return fieldErr("type", "is %q: an article's type is %s", a.Type, TypeArticle)
	}
	if err := oneLine("title", a.Title, maxTitleLen, true); err != nil {
		return err
	}
	if err := oneLine("description", a.Description, maxDescriptionLen, true); err != nil {
		return err
	}
	if p := SlugProblem(a.Topic); p != "" {
		return fieldErr("topic", "%q %s", a.Topic, p)
	}
	for _, t := range a.Tags {
		if err := oneLine("tags", t, MaxTagLen, true); err != nil {
			return fieldErr("tags", "%q is not a tag (one line of at most %d characters)", t, MaxTagLen)
		}
	}
	if err := checkArticleTimes(a); err != nil {
		return err
	}
	for _, s := range a.Sources {
		if !ValidSource(s) {
			return fieldErr("sources", "%q is not a source (a record ID, commit:<hex> or issue:<ref>)", s)
		}
	}
	if err := oneOf("confidence", a.Confidence, Confidences, true); err != nil {
		return err
	}
	if err := oneOf("status", a.Status, KindArticle.Spec().Statuses, true); err != nil {
		return err
	}
	return oneOf("curated_by", a.CuratedBy, Curators, true)
}

// checkArticleTimes holds a's times to the rules: created, then updated,
// whose time the timestamp is.
func checkArticleTimes(a *Article) error {
	if a.Updated.IsZero() {
		return fieldErr("updated", "is missing")
	}
	if a.Created.IsZero() {
		return fieldErr("created", "is missing")
	}
	if a.Created.After(a.Updated) {
		return fieldErr("created", "is after updated")
	}
	if !a.Timestamp.Equal(a.Updated) {
		return fieldErr("timestamp", "is not updated's time (%s): the Open Knowledge Format's timestamp is the last meaningful change", a.Updated.UTC().Format(time.RFC3339))
	}
	return nil
}

// MaxTagLen is the longest tag an article holds, in characters.
const MaxTagLen = 100

func oneLine(field, s string, maxLen int, required bool) error {
	switch {
	case strings.TrimSpace(s) == "" && required:
		return fieldErr(field, "is missing")
	case strings.ContainsAny(s, "\n\r"):
		return fieldErr(field, "must be one line")
	case utf8.RuneCountInString(s) > maxLen:
		return fieldErr(field, "is longer than %d characters", maxLen)
	}
	return nil
}

// articleKeys are the frontmatter keys planq knows, from the struct tags,
// read on first use rather than at every process's start.
var articleKeys = sync.OnceValue(func() []string {
	var keys []string
	t := reflect.TypeOf(Article{})
	for i := range t.NumField() {
		name, _, _ := strings.Cut(t.Field(i).Tag.Get("yaml"), ",")
		if name != "" && name != "-" {
			keys = append(keys, name)
		}
	}
	return keys
})

// ParseArticle reads one article file strictly. path, when given, must be
// knowledge/<topic>/<slug>.md with the topic the frontmatter names; the
// slug is the file's name.
func ParseArticle(path string, data []byte) (*Article, error) {
	if err := checkArticleContent(data); err != nil {
		return nil, &ParseError{Path: path, Msg: err.Error()}
	}
	a := &Article{}
	var lines map[string]int
	format := frontmatter.NewFormat("---", "---", func(block []byte, _ any) error {
		var err error
		lines, err = decodeArticle(block, a)
		return err
	})
	body, err := frontmatter.MustParse(bytes.NewReader(data), a, format)
	offset := frontmatterOffset(data)
	if err != nil {
		if errors.Is(err, frontmatter.ErrNotFound) {
			return nil, &ParseError{Path: path, Line: 1, Msg: "no frontmatter: an article starts with a '---' line and its YAML ends with another"}
		}
		return nil, yamlError(path, offset, err)
	}
	a.Body = strings.Trim(string(body), "\n")
	if path != "" {
		topic, slug, ok := SplitArticlePath(path)
		if !ok {
			return nil, &ParseError{Path: path, Msg: "is no article's path: knowledge/<topic>/<slug>.md, in lower-case letters, digits and hyphens"}
		}
		a.Slug = slug
		if a.Topic != topic {
			return nil, &ParseError{Path: path, Line: lineOf(lines, "topic", offset),
				Msg: fmt.Sprintf("topic: %q, but the article is in %s/", a.Topic, topic)}
		}
	}
	if err := validateArticle(a); err != nil {
		var fe *FieldError
		if errors.As(err, &fe) {
			return nil, &ParseError{Path: path, Line: lineOf(lines, fe.Field, offset), Msg: fe.Error()}
		}
		return nil, &ParseError{Path: path, Msg: err.Error()}
	}
	return a, nil
}

func checkArticleContent(data []byte) error {
	switch {
	case len(data) > MaxArticleSize:
		return fmt.Errorf("is %d bytes; an article holds at most %d (256 KiB)", len(data), MaxArticleSize)
	case bytes.IndexByte(data, 0) >= 0:
		return errors.New("contains a NUL byte; articles are text")
	case !utf8.Valid(data):
		return errors.New("is not valid UTF-8")
	}
	return nil
}

// decodeArticle decodes a frontmatter block into a, refusing duplicate
// keys and wrong types, keeping keys planq does not know, and returning
// each key's line within the block.
func decodeArticle(block []byte, a *Article) (map[string]int, error) {
	var doc yaml.Node
	if err := yaml.Unmarshal(block, &doc); err != nil {
		return nil, err
	}
	if len(doc.Content) == 0 {
		return nil, errors.New("frontmatter is empty")
	}
	m := doc.Content[0]
	if m.Kind != yaml.MappingNode {
		return nil, &lineError{line: m.Line, msg: "frontmatter is not a mapping of keys to values"}
	}
	lines := map[string]int{}
	known := &yaml.Node{Kind: yaml.MappingNode, Tag: "!!map"}
	for i := 0; i+1 < len(m.Content); i += 2 {
		k, v := m.Content[i], m.Content[i+1]
		if k.Kind != yaml.ScalarNode {
			return nil, &lineError{line: k.Line, msg: "a key is not a plain word"}
		}
		if prev, dup := lines[k.Value]; dup {
			return nil, &lineError{line: k.Line, msg: fmt.Sprintf("duplicate key %q", k.Value), firstLine: prev}
		}
		lines[k.Value] = k.Line
		if slices.Contains(articleKeys(), k.Value) {
			if v.Kind == yaml.AliasNode || v.Anchor != "" {
				return nil, &lineError{line: v.Line, msg: k.Value + ": anchors and aliases are not allowed"}
			}
			known.Content = append(known.Content, k, v)
			continue
		}
		a.other = append(a.other, k, v)
	}
	if err := known.Decode(a); err != nil {
		var te *yaml.TypeError
		if errors.As(err, &te) {
			return nil, err
		}
		for i := 0; i+1 < len(known.Content); i += 2 {
			one := &yaml.Node{Kind: yaml.MappingNode, Content: known.Content[i : i+2]}
			if ferr := one.Decode(&Article{}); ferr != nil {
				return nil, &lineError{line: known.Content[i].Line, msg: known.Content[i].Value + ": " + ferr.Error()}
			}
		}
		return nil, err
	}
	return lines, nil
}

// RenderArticle writes a as an article file: frontmatter in planq's order
// of keys, then the keys of other tools as they were, then the body.
func RenderArticle(a *Article) ([]byte, error) {
	var n yaml.Node
	if err := n.Encode(a); err != nil {
		return nil, fmt.Errorf("failed to encode article %s: %w", a.Slug, err)
	}
	n.Content = append(n.Content, a.other...)
	var buf bytes.Buffer
	buf.WriteString("---\n")
	enc := yaml.NewEncoder(&buf)
	enc.SetIndent(2)
	if err := enc.Encode(&n); err != nil {
		return nil, fmt.Errorf("failed to encode article %s: %w", a.Slug, err)
	}
	if err := enc.Close(); err != nil {
		return nil, fmt.Errorf("failed to encode article %s: %w", a.Slug, err)
	}
	buf.WriteString("---\n")
	if body := strings.Trim(a.Body, "\n"); body != "" {
		buf.WriteString("\n")
		buf.WriteString(body)
		buf.WriteString("\n")
	}
	return buf.Bytes(), nil
}

func articleLine(r *Record) string { return r.Title() }

// Slugify makes a slug of a subject: lower-case words joined by hyphens,
// at most 60 characters; a subject with no such word gets one made of its
// hash.
func Slugify(s string) string {
	var b strings.Builder
	hyphen := false
	for _, c := range strings.ToLower(s) {
		switch {
		case c >= 'a' && c <= 'z', c >= '0' && c <= '9':
			if hyphen && b.Len() > 0 {
				b.WriteByte('-')
			}
			b.WriteRune(c)
			hyphen = false
		default:
			hyphen = true
		}
	}
	slug := b.String()
	for len(slug) > 60 {
		i := strings.LastIndexByte(slug[:60], '-')
		if i <= 0 {
			slug = slug[:60]
			break
		}
		slug = slug[:i]
	}
	if slug == "" {
		sum := sha256.Sum256([]byte(s))
		slug = "subject-" + hex.EncodeToString(sum[:4])
	}
	return slug
}
