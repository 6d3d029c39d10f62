package embed

import (
	_ "embed" // the built-in table
	"errors"
	"fmt"
	"sync"
	"unsafe"
)

// defaultTable is the table built into planq, model/default.pqemb (the
// README beside it says how it is made), as a string: the bytes stay where
// the binary holds them, read-only, and a process reads only the pages it
// touches. A []byte would copy all of it into the heap at every start that
// searches.
//
//go:embed model/default.pqemb
var defaultTable string

// ErrNoDefaultModel is Default's error in a build that carries no table
// (one whose model/default.pqemb is empty).
var ErrNoDefaultModel = errors.New("this planq carries no default embedding model")

// HasDefault says whether this planq carries a default table, without
// reading it.
func HasDefault() bool { return len(defaultTable) > 0 }

// Default returns the table built into planq. It is read on first use, once
// per process, so that commands that do not search pay nothing for it.
func Default() (*Table, error) { return loadDefault() }

var loadDefault = sync.OnceValues(func() (*Table, error) {
	if !HasDefault() {
		return nil, ErrNoDefaultModel
	}
	// The table keeps slices of data (its vectors) and never writes them:
	// a view of the string's bytes is safe, and spares the copy.
	data := unsafe.Slice(unsafe.StringData(defaultTable), len(defaultTable))
	// The table is part of the binary, and a test checks its checksum:
	// reading it trusts it, which spares every search the hashing.
	t, err := parseTable(data, false)
	if err != nil {
		return nil, fmt.Errorf("failed to read the default embedding model: %w", err)
	}
	return t, nil
})
