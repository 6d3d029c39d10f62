package changelog

import (
	"strings"
	"unicode"
)

// IsReportField says whether line is a "Key: value" field as programs
// write them into a record's first lines (an automated recorder's
// "Agent: coordinator"): a key of one to three words of letters, digits,
// '_', '-' or '.', starting with a letter and at most 40 bytes, then ": "
// and a value. Prime shows such a record by its fields rather than by a
// title that says nothing, and promote never takes two of them for one
// subject.
func IsReportField(line string) bool {
	key, value, ok := strings.Cut(line, ": ")
	if !ok || strings.TrimSpace(value) == "" || key == "" || len(strings.Fields(key)) > 3 || len(key) > 40 {
		return false
	}
	for i, c := range key {
		switch {
		case unicode.IsLetter(c):
		case i == 0:
			return false
		case unicode.IsDigit(c) || c == ' ' || c == '_' || c == '-' || c == '.':
		default:
			return false
		}
	}
	return true
}

// IsReport says whether r is a report a program wrote: a body whose first
// paragraph is a list of "Key: value" fields, one a line, as automated
// recorders write them ("Agent: coordinator", "Capability: coordinator",
// "Failure reason: Process terminated", "Detected by: Tier 0").
//
// A report's first line is no subject: it is its first field, which every
// report of one agent (or one branch, one job) shares, and two reports that
// share it are two events (two crashes of one agent), not two claims about
// one thing. So a report disputes nothing and nothing disputes it (see
// Disputes); the same report twice is still a duplicate (the same content).
// One "Key: value" line alone is a title like any other ("Cause: the
// cache"), and a report whose writer gave a Subject names one.
func IsReport(r *Record) bool {
	if r.Subject != "" || r.Kind == KindDecision {
		return false
	}
	para, _, _ := strings.Cut(strings.TrimSpace(r.Body), "\n\n")
	lines := strings.Split(para, "\n")
	if len(lines) < 2 {
		return false
	}
	for _, l := range lines {
		if !IsReportField(strings.TrimSpace(l)) {
			return false
		}
	}
	return true
}
