package embed

import (
	"bytes"
	"errors"
	"io/fs"
	"testing"
)

// TestDefault holds the table built into planq to what Default promises:
// while the build carries none, ErrNoDefaultModel; once it does, a table
// whose checksum is right (Default itself trusts it), of at most 10 MB,
// whose ID is its file's.
func TestDefault(t *testing.T) {
	tab, err := Default()
	data, readErr := modelDir.ReadFile(defaultFile)
	if errors.Is(readErr, fs.ErrNotExist) {
		if !errors.Is(err, ErrNoDefaultModel) || tab != nil {
			t.Fatalf("Default() without a built-in table = %v, %v; want ErrNoDefaultModel", tab, err)
		}
		return
	}
	if err != nil {
		t.Fatalf("Default(): %v", err)
	}
	if len(data) > 10<<20 {
		t.Errorf("the built-in table is %d bytes, at most 10 MiB", len(data))
	}
	checked, err := ReadTable(bytes.NewReader(data))
	if err != nil {
		t.Fatalf("the built-in table does not read as a checked file: %v", err)
	}
	if checked.ID() != tab.ID() || checked.Dim() != tab.Dim() || checked.Len() != tab.Len() {
		t.Errorf("Default() is %s, the file %s", tab.ID(), checked.ID())
	}
	if again, _ := Default(); again != tab {
		t.Error("Default() read the table twice")
	}
}
