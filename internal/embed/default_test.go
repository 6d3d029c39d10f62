package embed

import (
	"bytes"
	"crypto/sha256"
	"encoding/hex"
	"errors"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"unsafe"
)

// TestDefault holds the table built into planq to what Default promises:
// while the build carries none, ErrNoDefaultModel; once it does, a table
// whose checksum is right (Default itself trusts it), of at most 10 MB,
// whose ID is its file's.
func TestDefault(t *testing.T) {
	tab, err := Default()
	data := []byte(defaultTable)
	if len(data) == 0 {
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
	// The table is the one scripts/model/train.sh makes: its hash is the
	// one the script checks.
	recorded, err := os.ReadFile(filepath.Join("..", "..", "scripts", "model", "default.pqemb.sha256"))
	if err != nil {
		t.Fatal(err)
	}
	sum := sha256.Sum256(data)
	if want, _, _ := strings.Cut(string(recorded), " "); hex.EncodeToString(sum[:]) != want {
		t.Errorf("the built-in table's sha256 is %x, scripts/model/default.pqemb.sha256 records %s: train it with scripts/model/train.sh", sum, want)
	}
	if again, _ := Default(); again != tab {
		t.Error("Default() read the table twice")
	}
}

// BenchmarkDefaultLoad is what the first search of a process pays to read
// the built-in table.
func BenchmarkDefaultLoad(b *testing.B) {
	if !HasDefault() {
		b.Skip("this build carries no default table")
	}
	data := unsafe.Slice(unsafe.StringData(defaultTable), len(defaultTable))
	b.ReportAllocs()
	for b.Loop() {
		if _, err := parseTable(data, false); err != nil {
			b.Fatal(err)
		}
	}
}
