package curation

import (
	"encoding/json"
	"errors"
	"strings"
	"testing"

	"github.com/planq-dev/planq/planqerr"
)

const answerJSON = `{"proposed_files": {"AGENTS.md": "# Agents\n\n` + "```go\\nfunc main() {}\\n```" + `\n"}, "diff_summary": "the {build} step", "entries_used": ["pq-0123456789"]}`

// TestDecodeProposalReadsTheOneObjectAnAnswerHolds: the Quickstart's
// pipeline refused ordinary model output ("invalid character '`'"). The
// one proposal an answer holds is read, bare, fenced or among sentences;
// an answer with two, or none, is refused and says so.
func TestDecodeProposalReadsTheOneObjectAnAnswerHolds(t *testing.T) {
	for _, tc := range []struct{ name, answer string }{
		{"bare", answerJSON},
		{"bare, with a byte order mark and blank lines", "\ufeff\n\n" + answerJSON + "\n\n"},
		{"fenced json", "```json\n" + answerJSON + "\n```\n"},
		{"fenced, after a sentence", "Here is the proposal, as asked:\n\n```json\n" + answerJSON + "\n```\n\nI left out nothing.\n"},
		{"after a sentence, no fence", "Here is the proposal: " + answerJSON},
		{"before a sentence with braces", answerJSON + "\n\nThe {build} step is new; {} means nothing here."},
		{"a tilde fence and an unrelated snippet", "The file reads `{x}` now.\n\n~~~\n" + answerJSON + "\n~~~\n"},
		{"the same object twice", "Proposal:\n" + answerJSON + "\n\nAgain, fenced:\n```json\n" + answerJSON + "\n```\n"},
		{"pretty-printed", "```json\n{\n  \"diff_summary\": \"the {build} step\",\n  \"proposed_files\": {\n    \"AGENTS.md\": \"# Agents\\n\\n```go\\nfunc main() {}\\n```\\n\"\n  },\n  \"entries_used\": [\"pq-0123456789\"]\n}\n```"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			p, err := DecodeProposal(strings.NewReader(tc.answer))
			if err != nil {
				t.Fatal(err)
			}
			if p.DiffSummary != "the {build} step" || len(p.EntriesUsed) != 1 || !strings.Contains(p.ProposedFiles["AGENTS.md"], "func main() {}") {
				t.Errorf("read %+v", p)
			}
		})
	}
	for _, tc := range []struct{ name, answer, says, hint string }{
		{"two proposals", "First:\n```json\n" + answerJSON + "\n```\nOr:\n\n```json\n" + strings.Replace(answerJSON, "{build}", "{test}", 1) + "\n```\n",
			"holds 2 JSON objects that could be the proposal (at lines 3 and 8); planq reads one", "bare JSON"},
		{"no JSON", "I could not curate: the notes are empty.\n", `holds no JSON object; it begins "I could not curate: the notes are empty."`, "bare JSON"},
		{"JSON, not a proposal", "Counts: {\"a\": 1}\n", `holds no JSON object with proposed_files, diff_summary, entries_used or entries_discarded`, "bare JSON"},
		{"empty", " \n", "is empty", "planq curate | claude -p | planq propose"},
		{"bare, broken", `{"proposed_files": {"AGENTS.md": "x"}, "diff_summary": "s"`, "is not the JSON planq reads: unexpected EOF", "proposed_files"},
		{"bare, an unknown field", `{"proposed_files": {}, "summary": "s"}`, `is not the JSON planq reads: json: unknown field "summary"`, "proposed_files"},
		{"fenced, an unknown field", "```json\n{\"diff_summary\": \"s\", \"files\": {}}\n```", `is not the JSON planq reads: json: unknown field "files"`, "proposed_files"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			_, err := DecodeProposal(strings.NewReader(tc.answer))
			var pe *planqerr.Error
			if !errors.As(err, &pe) || pe.Kind != planqerr.Invalid {
				t.Fatalf("got %v, want an invalid proposal", err)
			}
			if !strings.Contains(err.Error(), tc.says) || !strings.Contains(pe.Hint, tc.hint) {
				t.Errorf("got %q (hint %q), want it to say %q (hint %q)", err, pe.Hint, tc.says, tc.hint)
			}
		})
	}
}

// TestExtractJSONTakesLongAnswersInLinearTime: an answer of a MiB that
// opens objects it never closes is read in a few passes, not one per
// brace (which would take hours).
func TestExtractJSONTakesLongAnswersInLinearTime(t *testing.T) {
	for _, text := range []string{
		strings.Repeat(`{"a":`, 200_000),
		strings.Repeat(`{ x `, 250_000),
		strings.Repeat(`{"diff_summary":"`, 60_000),
		strings.Repeat("{[", 500_000),
		strings.Repeat(`{`, 15) + strings.Repeat(`{}`, 500_000),
	} {
		if _, err := ExtractJSON(text, proposalKeys...); err == nil {
			t.Errorf("found an object in %.20q...", text)
		}
	}
}

// FuzzExtractJSON: whatever the answer, ExtractJSON returns a valid JSON
// value that the answer holds, or an error; and an object it finds is
// found again alone, in a fence and among sentences.
func FuzzExtractJSON(f *testing.F) {
	for _, seed := range []string{answerJSON, "```json\n" + answerJSON + "\n```", "Here: " + answerJSON + " done", "{}", `{"a":{"b":[1,{"c":"}"}]}}`,
		`{"diff_summary":"\"}{\""} {"diff_summary":"x"}`, "{\"diff_summary\":\"a\nb\"}", "[{\"diff_summary\":1}]", "\ufeff{}", `{"x":1`, "}{"} {
		f.Add(seed)
	}
	f.Fuzz(func(t *testing.T, text string) {
		got, err := ExtractJSON(text, proposalKeys...)
		if err != nil {
			return
		}
		if !json.Valid([]byte(got)) || !strings.Contains(text, got) {
			t.Fatalf("ExtractJSON(%q) = %q: not JSON the answer holds", text, got)
		}
		if !strings.HasPrefix(got, "{") || !hasKey(got, proposalKeys) {
			return // bare JSON of another shape: the decoder says what is wrong with it
		}
		if end, ok := balanced(got, 0); !ok || end != len(got) {
			return // nested deeper than an answer is looked into
		}
		for _, wrapped := range []string{got, "```json\n" + got + "\n```\n", "Here is the proposal:\n\n" + got + "\n\nDone."} {
			if again, err := ExtractJSON(wrapped, proposalKeys...); err != nil || again != got {
				t.Fatalf("ExtractJSON(%q) = %q, %v; want %q", wrapped, again, err, got)
			}
		}
	})
}
