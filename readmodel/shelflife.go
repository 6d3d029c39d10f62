package readmodel

import (
	"time"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/project"
)

// ShelfLives is how long an unused learning of each classification stays
// current; a classification absent from it (foundational) never expires.
type ShelfLives map[changelog.Classification]time.Duration

// ShelfLivesOf is planq's shelf lives (ShelfLife) with the project's
// overrides from its .planq/config.
func ShelfLivesOf(c project.ShelfLife) ShelfLives {
	out := ShelfLives{}
	for k, v := range ShelfLife {
		out[k] = v
	}
	for class, span := range map[changelog.Classification]project.LifeSpan{changelog.Tactical: c.Tactical, changelog.Observational: c.Observational} {
		switch {
		case span.Never:
			delete(out, class)
		case span.Span > 0:
			out[class] = span.Span
		}
	}
	return out
}

// Expired reports whether learning r outlived its shelf life at now: its
// shelf life passed since it was written or last used, whichever is later.
// An edit or a revalidation is a new version, so it starts afresh.
func (s ShelfLives) Expired(r *changelog.Record, lastUse, now time.Time) bool {
	life, ok := s[r.Classification]
	if !ok {
		return false
	}
	fresh := r.Timestamp
	if lastUse.After(fresh) {
		fresh = lastUse
	}
	return now.Sub(fresh) > life
}
