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
