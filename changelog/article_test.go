package changelog

import (
	"bytes"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"
)

func sampleArticle(t testing.TB) *Article {
	t.Helper()
	at := time.Date(2026, 3, 1, 10, 0, 0, 0, time.UTC)
	a, err := NewArticle(ArticleInput{
		Topic: "architecture", Slug: "session-storage",
		Title: "Session storage", Description: "Sessions live in Redis, keyed by token.",
		Tags: []string{"auth", "redis"}, Sources: []string{"pq-0a1b2c3d", "commit:0123abcd", "issue:#29"},
		Created: at, Updated: at.Add(time.Hour), Confidence: ConfidenceMedium,
		Body: "# Summary\n\nSessions live in Redis. (pq-0a1b2c3d)\n",
	})
	if err != nil {
		t.Fatal(err)
	}
	return a
}

func TestArticleRendersTheOpenKnowledgeFormatKeysAndReadsBack(t *testing.T) {
	a := sampleArticle(t)
	data, err := RenderArticle(a)
	if err != nil {
		t.Fatal(err)
	}
	want := `---
type: article
title: Session storage
description: Sessions live in Redis, keyed by token.
topic: architecture
tags:
  - auth
  - redis
created: 2026-03-01T10:00:00Z
updated: 2026-03-01T11:00:00Z
timestamp: 2026-03-01T11:00:00Z
sources:
  - pq-0a1b2c3d
  - commit:0123abcd
  - issue:#29
confidence: medium
status: current
curated_by: auto
---

# Summary

Sessions live in Redis. (pq-0a1b2c3d)
`
	if string(data) != want {
		t.Fatalf("rendered:\n%s\nwant:\n%s", data, want)
	}
	back, err := ParseArticle(a.Path(), data)
	if err != nil {
		t.Fatal(err)
	}
	if a.Path() != "knowledge/architecture/session-storage.md" || back.Slug != "session-storage" || back.Body != a.Body ||
		!back.Updated.Equal(a.Updated) || !slices.Equal(back.Sources, a.Sources) {
		t.Errorf("read back %+v", back)
	}
}

func TestArticleKeepsTheKeysOfOtherTools(t *testing.T) {
	data := []byte("---\ntype: article\ntitle: T\ndescription: D\ntopic: project\ncreated: 2026-01-01T00:00:00Z\nupdated: 2026-01-01T00:00:00Z\n" +
		"timestamp: 2026-01-01T00:00:00Z\nresource: https://example.com/x\nconfidence: low\nstatus: current\ncurated_by: human\n---\nbody\n")
	a, err := ParseArticle("knowledge/project/t.md", data)
	if err != nil {
		t.Fatal(err)
	}
	out, err := RenderArticle(a)
	if err != nil {
		t.Fatal(err)
	}
	if !bytes.Contains(out, []byte("\nresource: https://example.com/x\n")) {
		t.Errorf("the key of another tool is lost:\n%s", out)
	}
}

func TestArticleErrorsNameTheLine(t *testing.T) {
	head := "---\ntype: article\ntitle: T\ndescription: D\ntopic: project\ncreated: 2026-01-01T00:00:00Z\nupdated: 2026-01-02T00:00:00Z\ntimestamp: 2026-01-02T00:00:00Z\n"
	tail := "confidence: low\nstatus: current\ncurated_by: auto\n---\nbody\n"
	cases := []struct {
		name, path, data string
		line             int
		msg              string
	}{
		{"no frontmatter", "knowledge/project/t.md", "just text\n", 1, "no frontmatter"},
		{"duplicate key", "knowledge/project/t.md", head + "title: again\n" + tail, 9, `duplicate key "title" (first at line 3)`},
		{"wrong type", "knowledge/project/t.md", head + "tags: {a: b}\n" + tail, 9, "cannot unmarshal"},
		{"bad status", "knowledge/project/t.md", strings.Replace(head+tail, "status: current", "status: active", 1), 10, `status: unknown value "active"`},
		{"bad source", "knowledge/project/t.md", head + "sources: [pq-0a1b2c3d, 'see the wiki']\n" + tail, 9, `"see the wiki" is not a source`},
		{"two lines", "knowledge/project/t.md", strings.Replace(head+tail, "description: D", "description: \"D\\nE\"", 1), 4, "description: must be one line"},
		{"timestamp", "knowledge/project/t.md", strings.Replace(head+tail, "timestamp: 2026-01-02", "timestamp: 2026-01-03", 1), 8, "timestamp: is not updated's time"},
		{"topic elsewhere", "knowledge/history/t.md", head + tail, 5, `topic: "project", but the article is in history/`},
		{"not article", "knowledge/project/t.md", strings.Replace(head+tail, "type: article", "type: Playbook", 1), 2, `type: is "Playbook"`},
		{"slug with a space", "knowledge/project/a b.md", head + tail, 0, "is no article's path"},
		{"binary", "knowledge/project/t.md", head + "\x00" + tail, 0, "NUL byte"},
	}
	for _, c := range cases {
		_, err := ParseArticle(c.path, []byte(c.data))
		var pe *ParseError
		if !errors.As(err, &pe) {
			t.Errorf("%s: got %v, want a parse error", c.name, err)
			continue
		}
		if pe.Line != c.line || !strings.Contains(pe.Msg, c.msg) || pe.Path != c.path {
			t.Errorf("%s: got %s:%d: %s; want line %d with %q", c.name, pe.Path, pe.Line, pe.Msg, c.line, c.msg)
		}
	}
}

func TestSlugsRefusePathsSpacesAndCapitals(t *testing.T) {
	for _, bad := range []string{"", "a/b", "..", "a..b", "with space", "Upper", "-lead", "trail-", "dou--ble", "ü", strings.Repeat("a", MaxSlugLen+1)} {
		if SlugProblem(bad) == "" {
			t.Errorf("slug %q accepted", bad)
		}
		if err := ValidateSlug("slug", bad); err == nil || !strings.Contains(err.Error(), "slug") {
			t.Errorf("slug %q: %v", bad, err)
		}
	}
	for _, good := range []string{"a", "session-storage", "jwt-rs256", "2026-plan"} {
		if p := SlugProblem(good); p != "" {
			t.Errorf("slug %q refused: %s", good, p)
		}
	}
}

func TestAnArticleIsNoRecord(t *testing.T) {
	if slices.Contains(Kinds, KindArticle) || slices.Contains(Dirs(), "knowledge") || slices.Contains(Dirs(), KindArticle.Dir()) {
		t.Errorf("the record readers would read articles: Kinds %v, Dirs %v", Kinds, Dirs())
	}
	if _, ok := KindOfDir("knowledge"); ok || IsRecordPath("knowledge/project/pq-0a1b2c3d.md") {
		t.Error("knowledge/ is taken for a record directory")
	}
	if _, ok := Skeleton()["knowledge/README.md"]; ok {
		t.Error("the skeleton makes a knowledge directory before there is an article")
	}
	data := []byte("---\nid: pq-0a1b2c3d\nkind: article\ntype: article\ntimestamp: 2026-01-01T00:00:00Z\nagent: auth\n---\ntext\n")
	_, err := Parse("", data)
	if err == nil || !strings.Contains(err.Error(), "is no record") {
		t.Errorf("a record of kind article: %v", err)
	}
}

// FuzzParseArticle feeds arbitrary bytes to the article parser: it must
// never panic, and whatever it accepts must render to a file that reads
// back and renders the same.
func FuzzParseArticle(f *testing.F) {
	data, err := RenderArticle(sampleArticle(f))
	if err != nil {
		f.Fatal(err)
	}
	f.Add("knowledge/architecture/session-storage.md", data)
	f.Add("", data)
	f.Add("knowledge/project/t.md", []byte("---\ntype: article\ntype: article\n---\n"))
	f.Add("knowledge/project/t.md", []byte("---\nx: &a [*a]\n---\n"))
	f.Add("knowledge/project/t.md", []byte("---\n? [a]\n: b\n---\n"))
	f.Fuzz(func(t *testing.T, path string, data []byte) {
		a, err := ParseArticle(path, data)
		if err != nil {
			return
		}
		out, err := RenderArticle(a)
		if err != nil {
			t.Fatalf("render of a parsed article failed: %v", err)
		}
		again, err := ParseArticle(path, out)
		if err != nil {
			t.Fatalf("parse of a re-rendered article failed: %v\n%s", err, out)
		}
		out2, err := RenderArticle(again)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(out, out2) {
			t.Fatalf("render/parse changed the article\nfirst:\n%s\nsecond:\n%s", out, out2)
		}
	})
}
