package embed

import (
	goembed "embed"
	"errors"
	"fmt"
	"io/fs"
	"sync"
)

// modelDir holds the table built into planq, model/default.pqemb, beside
// the README that says how it is made. A build without the table still
// compiles: Default then says so.
//
//go:embed model
var modelDir goembed.FS

// defaultFile is the built-in table's path in modelDir.
const defaultFile = "model/default.pqemb"

// ErrNoDefaultModel is Default's error in a build that carries no table.
var ErrNoDefaultModel = errors.New("this planq carries no default embedding model")

// HasDefault says whether this planq carries a default table, without
// reading it.
func HasDefault() bool {
	_, err := fs.Stat(modelDir, defaultFile)
	return err == nil
}

// Default returns the table built into planq. It is read on first use, once
// per process, so that commands that do not search pay nothing for it.
func Default() (*Table, error) { return loadDefault() }

var loadDefault = sync.OnceValues(func() (*Table, error) {
	data, err := modelDir.ReadFile(defaultFile)
	if errors.Is(err, fs.ErrNotExist) {
		return nil, ErrNoDefaultModel
	}
	if err != nil {
		return nil, fmt.Errorf("failed to read the default embedding model: %w", err)
	}
	// The table is part of the binary, and a test checks its checksum:
	// reading it trusts it, which spares every search the hashing.
	t, err := parseTable(data, false)
	if err != nil {
		return nil, fmt.Errorf("failed to read the default embedding model: %w", err)
	}
	return t, nil
})
