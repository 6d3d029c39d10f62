package engine

import (
	"bytes"
	"errors"
	"io/fs"
	"os"
	"path/filepath"
	"testing"

	"github.com/planq-dev/planq/internal/testkit/testrecords"
	"github.com/planq-dev/planq/project"
)

// readWhole is how Windows loads a segment; it must give what a mapping
// gives, and fail as mapFile fails, so that a segment reads the same on
// every platform.
func TestReadWholeReadsWhatMapFileMaps(t *testing.T) {
	repo := testrecords.RepoWith(t, testrecords.Rendered(t, testrecords.Samples(t)))
	cacheDir := t.TempDir()
	if _, err := open(repo, cacheDir).Branch(project.GlobalBranch); err != nil {
		t.Fatal(err)
	}
	segs, _ := filepath.Glob(filepath.Join(cacheDir, "segments", "*", "*.seg"))
	if len(segs) == 0 {
		t.Fatal("the load wrote no segment")
	}
	for _, f := range segs {
		mapped, err := mapFile(f)
		if err != nil {
			t.Fatal(err)
		}
		read, err := readWhole(f)
		if err != nil {
			t.Fatal(err)
		}
		if !bytes.Equal(mapped, read) {
			t.Errorf("%s: read %d bytes, mapped %d, or they differ", f, len(read), len(mapped))
		}
		unmap(mapped)
	}

	empty := filepath.Join(t.TempDir(), "empty.seg")
	if err := os.WriteFile(empty, nil, 0o644); err != nil {
		t.Fatal(err)
	}
	missing := filepath.Join(t.TempDir(), "missing.seg")
	for name, load := range map[string]func(string) ([]byte, error){"mapFile": mapFile, "readWhole": readWhole} {
		if _, err := load(empty); !errors.Is(err, errDamaged) {
			t.Errorf("%s of an empty file: %v, want %v", name, err, errDamaged)
		}
		if _, err := load(missing); !errors.Is(err, fs.ErrNotExist) {
			t.Errorf("%s of a missing file: %v, want it to wrap fs.ErrNotExist", name, err)
		}
	}
}
