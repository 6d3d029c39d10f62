package memtool

import (
	"path/filepath"
	"strings"
	"testing"
	"unicode"
)

// FuzzRel holds the path mapping to its promise: whatever the model sends,
// a path it accepts lands in the memories folder or is the folder itself,
// names nothing hidden, holds no control character and no name longer
// than MaxName, and maps again to itself.
func FuzzRel(f *testing.F) {
	for _, p := range []string{"/memories", "/memories/", "/memories/a.md", "/memories/repo/x/y.md", "/memories/../etc/passwd",
		"/memories/a/../../b", "/memoriesX", "memories/a", "/memories//a", "/memories/%2e%2e/x", "/memories/..\\x",
		"/memories/.git/config", "/memories/a%2f..%2f..%2fb", "/memories/\x00", "/etc/passwd", "", "/", "/memories/./a",
		"/memories/line\nbreak.md", "/memories/\x1b[31m", "/memories/\u009b", "/memories/\x7f", "/mem\nories/a",
		"/memories/" + strings.Repeat("n", MaxName), "/memories/" + strings.Repeat("n", MaxName+1)} {
		f.Add(p)
	}
	base := filepath.Join(string(filepath.Separator), "work", "agent", "memories")
	f.Fuzz(func(t *testing.T, p string) {
		rel, err := Rel(p)
		if err != nil {
			if _, ok := AsRefusal(err); !ok {
				t.Fatalf("Rel(%q): %v is no refusal", p, err)
			}
			return
		}
		full := filepath.Join(base, filepath.FromSlash(rel))
		if full != base && !strings.HasPrefix(full, base+string(filepath.Separator)) {
			t.Fatalf("Rel(%q) = %q lands at %s, outside %s", p, rel, full, base)
		}
		if rel != "" {
			for _, c := range strings.Split(rel, "/") {
				if c == "" || strings.HasPrefix(c, ".") {
					t.Fatalf("Rel(%q) = %q has the component %q", p, rel, c)
				}
			}
		}
		if strings.Contains(rel, `\`) || strings.IndexFunc(rel, unicode.IsControl) >= 0 {
			t.Fatalf("Rel(%q) = %q", p, rel)
		}
		for _, c := range strings.Split(rel, "/") {
			if len(c) > MaxName {
				t.Fatalf("Rel(%q) = %q has a name of %d bytes", p, rel, len(c))
			}
		}
		again, err := Rel(display(rel))
		if err != nil || again != rel {
			t.Fatalf("Rel(%q) = %q, but Rel(%q) = %q, %v", p, rel, display(rel), again, err)
		}
	})
}

func TestHumanSize(t *testing.T) {
	for n, want := range map[int64]string{0: "0B", 1: "1B", 1023: "1023B", 1024: "1K", 1536: "1.5K", 5632: "5.5K",
		1100: "1.1K", 1 << 20: "1M", 1258291: "1.2M", 3 << 30: "3G", 1 << 40: "1024G"} {
		if got := humanSize(n); got != want {
			t.Errorf("humanSize(%d) = %q, want %q", n, got, want)
		}
	}
}
