package project

import (
	"strings"
	"testing"
)

func TestNameProblem(t *testing.T) {
	good := []string{"auth", "a", "Agent_2", "x-y", strings.Repeat("a", MaxNameLen)}
	bad := map[string]string{
		"": "empty", "a/b": "separator", `a\b`: "separator", "..": "'..'", "a..b": "'..'", "a b": "white space",
		"-x": "starts with '-'", "_x": "starts with '_'", "a.b": `"."`, "a:b": `":"`, "é": `"é"`,
		strings.Repeat("a", MaxNameLen+1): "longer",
	}
	for _, n := range good {
		if p := NameProblem(n); p != "" {
			t.Errorf("NameProblem(%q) = %q, want none", n, p)
		}
	}
	for n, want := range bad {
		if p := NameProblem(n); !strings.Contains(p, want) {
			t.Errorf("NameProblem(%q) = %q, want it to mention %q", n, p, want)
		}
	}
}
