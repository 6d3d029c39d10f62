package engine

import "os"

// readWhole reads the file at path into memory: mapFile where planq does
// not map segments. Windows refuses to rename over a file while a mapping
// of it is open, and segment files are replaced by rename while readers
// hold them, so there a segment is read, not mapped.
func readWhole(path string) ([]byte, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	if len(data) == 0 {
		return nil, errDamaged // no segment is empty
	}
	return data, nil
}
