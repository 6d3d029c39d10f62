package knowledge

import (
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/planqerr"
)

// TestEditFromAStaleBaseHandsBackBothChanges: a text edited from a
// version global no longer holds commits nothing, and the refusal holds
// the person's edit and global's change merged, a clash between markers;
// the merged text, sent over the version it names, commits both.
func TestEditFromAStaleBaseHandsBackBothChanges(t *testing.T) {
	f := newFixture(t)
	f.learn("Logs are JSON lines.", changelog.TypeConvention, "logging", "")
	f.update()
	o := f.open("logging")
	p := filepath.Join("knowledge", "conventions", "logging.md")
	f.asPerson("theirs", func(dir string) {
		if err := os.WriteFile(filepath.Join(dir, p), append(append([]byte{}, o.Data...), "\nTheirs.\n"...), 0o644); err != nil {
			t.Fatal(err)
		}
	})
	tip := f.globalTip()
	mine := append(append([]byte{}, o.Data...), "\nMine.\n"...)
	_, err := Edit(f.ctx, f.store, o, mine, "logging.md", Options{})
	var stale *StaleError
	if !errors.As(err, &stale) || planqerr.KindOf(err) != planqerr.Busy || f.globalTip() != tip {
		t.Fatalf("an edit from a stale base: %v", err)
	}
	merged := string(stale.Merged)
	if stale.Conflicts != 1 || !strings.Contains(merged, "<<<<<<< your edit\nMine.\n=======\nTheirs.\n>>>>>>> global\n") {
		t.Fatalf("the merge (%d conflicts):\n%s", stale.Conflicts, merged)
	}
	// Sent as it is, markers and all: refused.
	if _, err := Edit(f.ctx, f.store, stale.Current, stale.Merged, "logging.md", Options{}); err == nil || !strings.Contains(err.Error(), "conflict marker") || f.globalTip() != tip {
		t.Fatalf("markers: %v", err)
	}
	settled := strings.NewReplacer("<<<<<<< your edit\n", "", "=======\n", "", ">>>>>>> global\n", "").Replace(merged)
	if _, err := Edit(f.ctx, f.store, stale.Current, []byte(settled), "logging.md", Options{}); err != nil {
		t.Fatal(err)
	}
	if got := f.file("knowledge/conventions/logging.md"); !strings.Contains(got, "Mine.") || !strings.Contains(got, "Theirs.") {
		t.Errorf("a line was lost:\n%s", got)
	}
	// OpenAt finds the base the text was edited from, whole or abbreviated,
	// and refuses a blob that was never this article.
	was, err := OpenAt(f.ctx, f.store.Repo, "logging", o.Blob.String()[:10])
	if err != nil || was.Blob != o.Blob || string(was.Data) != string(o.Data) {
		t.Fatalf("OpenAt an old version: %+v %v", was, err)
	}
	if _, err := Edit(f.ctx, f.store, was, mine, "logging.md", Options{}); !errors.As(err, &stale) {
		t.Errorf("an edit from the old version: %v", err)
	}
	if _, err := OpenAt(f.ctx, f.store.Repo, "logging", "0123456789"); planqerr.KindOf(err) != planqerr.Invalid {
		t.Errorf("OpenAt a blob that is no version: %v", err)
	}
}

// TestWriteRefusesControlCharacters: an escape sequence, a bell, a tab or a
// C1 control in a title, a description or a tag never reaches the index.
func TestWriteRefusesControlCharacters(t *testing.T) {
	f := newFixture(t)
	d := f.decide("Sign tokens with RS256.", "Public keys can be shared.", "jwt signing")
	f.update()
	tip := f.globalTip()
	good := article("decisions", "Sign tokens with RS256. ("+d+")", d)
	for _, c := range []struct{ from, to, want string }{
		{"title: JWT signing", `title: "JWT \e[31msigning"`, `title holds a control character (\x1b)`},
		{"title: JWT signing", `title: "JWT\tsigning"`, `title holds a control character (\x09)`},
		{"description: How tokens are signed, and why.", `description: "\x9bHow"`, `description holds a control character (\u009b)`},
		{"confidence: high", "tags: [\"a\\a\"]\nconfidence: high", `tags holds a control character (\x07)`},
	} {
		_, err := f.writeArticle("jwt-signing", strings.Replace(good, c.from, c.to, 1), false)
		if planqerr.KindOf(err) != planqerr.Invalid || !strings.Contains(err.Error(), c.want) {
			t.Errorf("%s: %v", c.to, err)
		}
	}
	if f.globalTip() != tip {
		t.Error("a refused article moved global")
	}
}

func TestDerivedLineLeavesControlCharactersOut(t *testing.T) {
	for in, want := range map[string]string{
		"Use \x1b[31mRedis": "Use [31mRedis", "a\tb": "a b", "\x1b\x07": "slug", "plain  words": "plain  words", "": "",
	} {
		if got := derivedLine(in, "slug"); got != want {
			t.Errorf("derivedLine(%q) = %q, want %q", in, got, want)
		}
	}
}

func TestKeyedSourceNamesTheLine(t *testing.T) {
	for _, c := range []struct {
		text, item, fixed string
		line              int
	}{
		{"---\ntitle: x\nsources:\n  - pq-0123\n  - issue: #29\n---\n", "issue: #29", "issue:#29", 5},
		{"---\nsources:\n- commit: \"abcdef1\"\n---\n", `commit: "abcdef1"`, "commit:abcdef1", 3},
		{"---\nsources:\n  - issue:\n---\n", "issue:", "issue:<ref>", 3},
		{"---\nsources:\n  - issue:#29\ntags:\n  - issue: x\n---\n", "", "", 0},
		{"no frontmatter\n- issue: #29\n", "", "", 0},
	} {
		line, item, fixed := keyedSource([]byte(c.text))
		if line != c.line || item != c.item || fixed != c.fixed {
			t.Errorf("keyedSource(%q) = %d %q %q; want %d %q %q", c.text, line, item, fixed, c.line, c.item, c.fixed)
		}
	}
}

// TestNestedMarkdownIsNamed: a file below a topic's folder is no article,
// and is said so, not passed over.
func TestNestedMarkdownIsNamed(t *testing.T) {
	f := newFixture(t)
	f.learn("Logs are JSON lines.", changelog.TypeConvention, "logging", "")
	f.update()
	f.asPerson("nested", func(dir string) {
		sub := filepath.Join(dir, "knowledge", "conventions", "more")
		for _, name := range []string{"deep.md", "README.md"} {
			if err := os.MkdirAll(sub, 0o755); err != nil {
				t.Fatal(err)
			}
			if err := os.WriteFile(filepath.Join(sub, name), []byte("# Deep\n"), 0o644); err != nil {
				t.Fatal(err)
			}
		}
	})
	_, problems, err := List(f.ctx, f.store.Handle, Options{})
	if err != nil {
		t.Fatal(err)
	}
	if len(problems) != 1 || problems[0].Path != "knowledge/conventions/more/deep.md" || !strings.Contains(problems[0].Problem, "nested below its topic") {
		t.Errorf("problems: %+v", problems)
	}
}
