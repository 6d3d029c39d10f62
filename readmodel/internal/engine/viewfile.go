package engine

import (
	"encoding/binary"
	"errors"
	"fmt"
	"hash/crc32"
	"os"
	"path/filepath"
)

// A view file holds what a view would otherwise find by a pass over every
// row (see teamView, newestByAgent, idOrder, copiesOf): its body, then the
// body's CRC-32C. It is named by the git trees it was made from, so it is
// never stale; one that is missing or damaged is made again from the rows.

// ErrDamagedView is a view file that does not read: it is made again.
var ErrDamagedView = errors.New("damaged view")

// KeepView writes body to file, with its checksum, and drops the oldest
// files of file's directory beyond keep. A view that cannot be written is
// used from memory all the same.
func KeepView(file string, body []byte, keep int) {
	keepCacheFile(file, binary.LittleEndian.AppendUint32(body, crc32.Checksum(body, castagnoli())), keep)
}

// keepCacheFile writes data to file and drops the oldest files of file's
// directory beyond keep; a file that cannot be written is no error.
func keepCacheFile(file string, data []byte, keep int) {
	if err := writeCacheFile(file, data); err != nil {
		return
	}
	dir := filepath.Dir(file)
	if entries, err := os.ReadDir(dir); err == nil && len(entries) > keep {
		pruneOldest(dir, entries, keep)
	}
}

// ReadView returns the body kept in file, once its checksum holds.
func ReadView(file string) ([]byte, error) {
	data, err := os.ReadFile(file)
	if err != nil {
		return nil, err
	}
	if len(data) < 4 || crc32.Checksum(data[:len(data)-4], castagnoli()) != binary.LittleEndian.Uint32(data[len(data)-4:]) {
		return nil, fmt.Errorf("%w: %s fails its checksum", ErrDamagedView, file)
	}
	return data[:len(data)-4], nil
}

// viewDir is the directory of one kind of view files of one path.
func (rd *Store) viewDir(kind, path string) string {
	return filepath.Join(rd.cacheDir, "views", kind, fmt.Sprintf("%x", IDHash(path)))
}

// removeCacheFile removes a damaged cache file, so that it is made again;
// one another process removed first is no error.
func removeCacheFile(file string) { _ = os.Remove(file) }
