package changelog

import (
	"sort"
	"strings"
	"unicode"
)

// SubjectKey says what a learning or decision is about, so that promote can
// tell a duplicate (same subject, same content) from a contradiction (same
// subject, different content). An explicit subject wins; otherwise a
// decision is about its decision text, and a learning about its domain and
// first line.
func SubjectKey(r *Record) string {
	if r.Subject != "" {
		return string(r.Kind) + ":" + normalize(r.Subject)
	}
	if r.Kind == KindDecision {
		return "decision:" + normalize(r.Decision)
	}
	return string(r.Kind) + ":" + r.Domain + ":" + normalize(r.Title())
}

// ContentKey is what a learning or decision says, ignoring case, spacing,
// final periods, the order of alternatives, and bookkeeping (IDs, times,
// agents, evidence, status).
func ContentKey(r *Record) string {
	if r.Kind == KindDecision {
		alts := make([]string, len(r.Alternatives))
		for i, a := range r.Alternatives {
			alts[i] = normalize(a)
		}
		sort.Strings(alts)
		return strings.Join([]string{normalize(r.Decision), strings.Join(alts, ","), normalize(r.Rationale)}, "\x00")
	}
	return strings.Join([]string{string(r.Type), r.Domain, normalize(r.Body), normalize(r.Resolution)}, "\x00")
}

// Disputes reports whether a and b contradict each other: two records that
// say different things about one subject. A record names its subject by the
// Subject its writer gave, a decision by its decision, any other by its
// title, the first line of its body (SubjectKey); what it says is its
// ContentKey. A report a program wrote disputes nothing (IsReport). Promote
// lands a record that disputes global's marked disputed, and the knowledge
// base marks an article whose sources dispute each other: both decide with
// this one function.
func Disputes(a, b *Record) bool {
	return SubjectKey(a) == SubjectKey(b) && ContentKey(a) != ContentKey(b) && !IsReport(a) && !IsReport(b)
}

// normalize folds case and white space and drops trailing punctuation.
func normalize(s string) string {
	s = strings.Join(strings.Fields(strings.ToLower(s)), " ")
	return strings.TrimRightFunc(s, func(r rune) bool { return unicode.IsPunct(r) })
}
