package changelog

import "testing"

func TestIsReportField(t *testing.T) {
	for line, want := range map[string]bool{
		"Agent: coordinator":           true,
		"Exit code: 1":                 true,
		"run_id: 42":                   true,
		"Note: see the runbook":        true,
		"Tokens expire: refresh first": true,
		"Agent:":                       false, // no value
		"Agent: ":                      false,
		": value":                      false, // no key
		"1st run: failed":              false, // a key starts with a letter
		"The build on main: failed":    false, // four words is a sentence
		"see http://example.com":       false,
		"path/to: file":                false,
		"averyveryveryveryveryveryverylongkeyname1: x": false,
	} {
		if got := IsReportField(line); got != want {
			t.Errorf("IsReportField(%q) = %v, want %v", line, got, want)
		}
	}
}

// TestDisputes: one subject, two contents is a dispute; the same content
// (told apart only by case, spacing or a final period), another subject, or
// a report on either side is none.
func TestDisputes(t *testing.T) {
	learning := func(subject, body string) *Record {
		return &Record{Kind: KindLearning, Type: TypeConvention, Domain: "auth", Subject: subject, Body: body}
	}
	report := func(body string) *Record { return &Record{Kind: KindLearning, Domain: "ops", Body: body} }
	for _, c := range []struct {
		name string
		a, b *Record
		want bool
	}{
		{"one subject, two contents", learning("Session storage", "Sessions live in Redis."), learning("session  storage", "Sessions live in PostgreSQL."), true},
		{"the same content", learning("Session storage", "Sessions live in Redis."), learning("Session storage", "sessions live in  redis"), false},
		{"two subjects", learning("Session storage", "Sessions live in Redis."), learning("Session expiry", "Sessions expire after a day."), false},
		{"two decisions of one subject", &Record{Kind: KindDecision, Subject: "Database", Decision: "Use PostgreSQL"}, &Record{Kind: KindDecision, Subject: "Database", Decision: "Use SQLite"}, true},
		{"two reports", report("Agent: coordinator\nFailure reason: Process terminated"), report("Agent: coordinator\nFailure reason: Out of memory"), false},
	} {
		if got := Disputes(c.a, c.b); got != c.want {
			t.Errorf("%s: Disputes = %v, want %v", c.name, got, c.want)
		}
		if got := Disputes(c.b, c.a); got != c.want {
			t.Errorf("%s, the other way round: Disputes = %v, want %v", c.name, got, c.want)
		}
	}
}
