package staterepo

import (
	"bytes"
	"compress/zlib"
	"os"
	"testing"

	"github.com/planq-dev/planq/planqerr"
	"github.com/planq-dev/planq/project"
)

// TestCheckLoose: a loose object file that does not inflate, is cut short
// or holds another object is named as damaged (exit code of invalid data);
// a sound one, or one that is not loose, is not.
func TestCheckLoose(t *testing.T) {
	r := newRepo(t)
	tip, err := r.Tip(project.GlobalBranch)
	if err != nil {
		t.Fatal(err)
	}
	if err := r.CheckLoose(tip); err != nil {
		t.Fatalf("sound object: %v", err)
	}
	if err := r.CheckLoose(NewHash("0123456789abcdef0123456789abcdef01234567")); err != nil {
		t.Fatalf("object not stored loose: %v", err)
	}
	deflate := func(data string) []byte {
		var b bytes.Buffer
		zw := zlib.NewWriter(&b)
		_, _ = zw.Write([]byte(data))
		_ = zw.Close()
		return b.Bytes()
	}
	file := r.LooseFile(tip)
	for name, content := range map[string][]byte{
		"garbage":       []byte("garbage\n"),
		"empty":         nil,
		"cut short":     deflate("commit 500\x00tree "),
		"another":       deflate("commit 3\x00abc"),
		"no header":     deflate("hello"),
		"truncated zip": deflate("commit 3\x00abc")[:6],
	} {
		if err := os.Chmod(file, 0o644); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(file, content, 0o644); err != nil {
			t.Fatal(err)
		}
		err := r.CheckLoose(tip)
		if err == nil || !planqerr.Is(err, planqerr.Corrupt) {
			t.Errorf("%s: CheckLoose = %v, want a Corrupt error", name, err)
		}
		if _, err := r.Commit(tip); !planqerr.Is(err, planqerr.Corrupt) {
			t.Errorf("%s: Commit = %v, want the damage named", name, err)
		}
	}
}
