package readmodel

import (
	"errors"
	"fmt"

	"github.com/planq-dev/planq/search"
)

// indexSource is where a segment's search index is read from: its file,
// opened once for a query's reads, or the bytes of a segment just built.
type indexSource struct {
	f    rawFile
	base int64
	data []byte
	open bool
}

func (src *indexSource) ReadAt(b []byte, off int64) (int, error) {
	if !src.open {
		if off < 0 || off+int64(len(b)) > int64(len(src.data)) {
			return 0, search.ErrDamaged
		}
		return copy(b, src.data[off:]), nil
	}
	if err := src.f.readAt(b, src.base+off); err != nil {
		return 0, err
	}
	return len(b), nil
}

func (src *indexSource) close() {
	if src.open {
		src.f.close()
		src.open = false
	}
}

// searchIndex opens the segment's search index for a query: the index,
// and where to read it from until the query closes it.
func (s *segment) searchIndex() (*search.Index, *indexSource, error) {
	src := &indexSource{data: s.indexData}
	size := int64(len(s.indexData))
	if s.indexData == nil {
		f, err := openRaw(s.file)
		if err != nil {
			return nil, nil, fmt.Errorf("failed to read the search index of %s: %w", s.path, err)
		}
		src = &indexSource{f: f, base: s.bodiesAt + int64(s.bodiesN), open: true}
		size = int64(s.indexN)
	}
	s.mu.Lock()
	ix := s.index
	s.mu.Unlock()
	if ix != nil {
		return ix, src, nil
	}
	ix, err := search.OpenIndex(src, size)
	if err != nil {
		src.close()
		return nil, nil, fmt.Errorf("failed to read the search index of %s: %w", s.path, errors.Join(errDamaged, err))
	}
	if ix.Len() != s.len() {
		src.close()
		return nil, nil, fmt.Errorf("failed to read the search index of %s: %w", s.path, errDamaged)
	}
	s.mu.Lock()
	s.index = ix
	s.mu.Unlock()
	return ix, src, nil
}

// indexBytes reads the segment's whole search index, for a directory's
// index merged from its shards' or a shard's next segment.
func (s *segment) indexBytes() ([]byte, error) {
	if s.indexData != nil {
		return s.indexData, nil
	}
	f, err := openRaw(s.file)
	if err != nil {
		return nil, fmt.Errorf("failed to read the search index of %s: %w", s.path, err)
	}
	defer f.close()
	b := make([]byte, s.indexN)
	if err := f.readAt(b, s.bodiesAt+int64(s.bodiesN)); err != nil {
		return nil, fmt.Errorf("failed to read the search index of %s: %w", s.path, errDamaged)
	}
	return b, nil
}
