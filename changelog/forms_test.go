package changelog

import (
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// TestLineIsTheKindsColumn holds each kind's one-line form, and the marks
// every kind's carries, to what readers and commit messages show.
func TestLineIsTheKindsColumn(t *testing.T) {
	at := time.Date(2026, 11, 2, 15, 4, 0, 0, time.UTC)
	for _, tc := range []struct {
		r        Record
		line     string
		headline string
	}{
		{Record{Kind: KindLog, Type: TypeImplement, Body: "Wired the cache\nmore"}, "[implement] Wired the cache", "Wired the cache"},
		{Record{Kind: KindLearning, Domain: "db", Type: TypeFailure, Resolution: "retry", Body: "Locks time out"}, "[db/failure] Locks time out (resolution: retry)", "Locks time out"},
		{Record{Kind: KindDecision, Decision: "Use Postgres", Alternatives: []string{"MySQL", "SQLite"}, Rationale: "jsonb"}, "Use Postgres (over MySQL, SQLite): jsonb", "Use Postgres"},
		{Record{Kind: KindDecision, Body: "Use Postgres"}, "Use Postgres", "Use Postgres"},
		{Record{Kind: KindHandoff, To: "bob", Body: "Pick up the cache"}, "Pick up the cache (to bob)", "Pick up the cache"},
		{Record{Kind: KindCheckpoint, Name: "v1", Body: "before the split"}, "v1: before the split", "before the split"},
		{Record{Kind: KindNote, Type: TypeCodebase, Status: StatusRaw, Body: "make test is slow"}, "[codebase, raw] make test is slow", "make test is slow"},
		{Record{Kind: KindProposal, Status: StatusPending, Files: []ProposedFile{{Path: "AGENTS.md"}}, Body: "Add the test rule"}, "[pending, 1 file] Add the test rule", "Add the test rule"},
		{Record{Kind: "memo", Body: "a kind with no form of its own"}, "a kind with no form of its own", "a kind with no form of its own"},
		{Record{Kind: KindLearning, Domain: "db", Type: TypePattern, Status: StatusDisputed, SupersedesRing: true,
			Sources: []Source{{ID: "a", Agent: "ann"}, {ID: "b", Agent: "bob"}}, Body: "Pool connections"},
			"[db/pattern] Pool connections [disputed] " + RingMark + " (from ann, bob)", "Pool connections"},
	} {
		tc.r.Timestamp = at
		if got := tc.r.Line(); got != tc.line {
			t.Errorf("%s: Line() = %q, want %q", tc.r.Kind, got, tc.line)
		}
		if got := tc.r.Headline(); got != tc.headline {
			t.Errorf("%s: Headline() = %q, want %q", tc.r.Kind, got, tc.headline)
		}
	}
}

// TestEveryKindHasALine holds every row of the kind table to a form of its
// own, so that a listing tells a kind's records by their particulars.
func TestEveryKindHasALine(t *testing.T) {
	for _, s := range table {
		if s.line == nil {
			t.Errorf("kind %s has no one-line form in its row", s.Kind)
		}
	}
}

func TestShortenNeverCutsACharacter(t *testing.T) {
	s := strings.Repeat("é", 100)
	got := Shorten(s, 80)
	if !utf8.ValidString(got) || utf8.RuneCountInString(got) != 80 || !strings.HasSuffix(got, "…") {
		t.Errorf("Shorten of 100 two-byte characters to 80: %q", got)
	}
	if Shorten("short", 80) != "short" {
		t.Error("Shorten changed a short string")
	}
}
