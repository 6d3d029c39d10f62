package changelog

import (
	"strings"
	"testing"
)

// FuzzIsReport: a report is at least two lines of "Key: value" fields, each
// key one to three words starting with a letter; a record with a Subject,
// and a decision, never is one.
func FuzzIsReport(f *testing.F) {
	f.Add("Agent: coordinator\nCapability: coordinator\nFailure reason: Process terminated")
	f.Add("Cause: the cache")
	f.Add("Flaky login test\nThe test server starts late.")
	f.Add("A: b\n: c")
	f.Fuzz(func(t *testing.T, body string) {
		r := &Record{Kind: KindLearning, Body: body}
		if !IsReport(r) {
			return
		}
		para, _, _ := strings.Cut(strings.TrimSpace(body), "\n\n")
		lines := strings.Split(para, "\n")
		if len(lines) < 2 {
			t.Fatalf("one line %q is a report", body)
		}
		for _, l := range lines {
			key, value, ok := strings.Cut(strings.TrimSpace(l), ": ")
			if !ok || key == "" || strings.TrimSpace(value) == "" || len(strings.Fields(key)) > 3 {
				t.Fatalf("line %q of report %q is no field", l, body)
			}
		}
		for _, other := range []*Record{{Kind: KindLearning, Body: body, Subject: "s"}, {Kind: KindDecision, Body: body}} {
			if IsReport(other) {
				t.Fatalf("%+v is a report", other)
			}
		}
	})
}
