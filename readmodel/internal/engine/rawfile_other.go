//go:build !unix

package engine

// mapFile reads the file at path into memory; see readWhole.
func mapFile(path string) ([]byte, error) { return readWhole(path) }

// unmap releases what mapFile returned: memory the collector frees.
func unmap([]byte) {}
