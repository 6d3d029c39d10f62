package engine

import (
	"errors"
	"fmt"

	"github.com/planq-dev/planq/search"
)

// searchIndex opens the segment's search index, once.
func (s *Segment) searchIndex() (*search.Index, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.index != nil {
		return s.index, nil
	}
	ix, err := search.OpenIndex(s.indexData)
	if err == nil && ix.Len() != s.Len() {
		err = fmt.Errorf("an index of %d records for %d rows", ix.Len(), s.Len())
	}
	if err != nil {
		return nil, fmt.Errorf("failed to read the search index of %s: %w", s.path, errors.Join(errDamaged, err))
	}
	s.index = ix
	return ix, nil
}
