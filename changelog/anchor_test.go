package changelog

import (
	"strings"
	"testing"
)

func TestParseAnchor(t *testing.T) {
	for _, c := range []struct{ arg, path, lines string }{
		{"internal/auth/jwt.go", "internal/auth/jwt.go", ""},
		{"./internal/auth/jwt.go:40-62", "internal/auth/jwt.go", "40-62"},
		{"Makefile:7", "Makefile", "7"},
		{"docs/a:b.md", "docs/a:b.md", ""},
		{"a//b/../c.go", "a/c.go", ""},
	} {
		a, err := ParseAnchor(c.arg)
		if err != nil || a.Path != c.path || a.Lines != c.lines {
			t.Errorf("ParseAnchor(%q) = %+v, %v; want %s %s", c.arg, a, err, c.path, c.lines)
		}
	}
	for _, bad := range []string{"", "../etc/passwd", "/etc/passwd", "a.go:20-10", "a.go:0", "a.go:-3", "..", "a\\b.go"} {
		if a, err := ParseAnchor(bad); err == nil {
			t.Errorf("ParseAnchor(%q) = %+v, want an error", bad, a)
		}
	}
	got, err := AnchorsOf([]string{"a.go:1-2", "b.go"}, []string{"a.go", "c.go"})
	if err != nil || len(got) != 3 || got[0].Lines != "1-2" || got[2].Path != "c.go" {
		t.Errorf("AnchorsOf: %+v, %v (each path once, the first mention's lines)", got, err)
	}
}

// FuzzParseAnchor: what parses is a valid anchor, and reads back the same
// from its own form.
func FuzzParseAnchor(f *testing.F) {
	for _, s := range []string{"a.go", "./x/y.go:3-9", "a:b", "../x", "a.go:9-3", "dir/:1", "a\x00b"} {
		f.Add(s)
	}
	f.Fuzz(func(t *testing.T, arg string) {
		a, err := ParseAnchor(arg)
		if err != nil {
			return
		}
		if err := a.Check(); err != nil {
			t.Fatalf("ParseAnchor(%q) = %+v, which Check refuses: %v", arg, a, err)
		}
		if strings.HasPrefix(a.Path, "../") || strings.HasPrefix(a.Path, "/") {
			t.Fatalf("ParseAnchor(%q) leaves the repository: %q", arg, a.Path)
		}
		again, err := ParseAnchor(a.String())
		if err != nil || again != a {
			t.Fatalf("ParseAnchor(%q) = %+v; its form %q reads back as %+v, %v", arg, a, a.String(), again, err)
		}
	})
}
