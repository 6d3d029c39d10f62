package staterepo

import (
	"context"
	"errors"
	"time"

	"github.com/planq-dev/planq/planqerr"
)

// Retry paces a write that moves a ref with a compare-and-swap and rebuilds
// when it loses the race: it backs off between attempts and gives up after
// refWait, so that a ref another writer keeps moving, or whose lock file a
// crashed git left behind, ends in an error that says so instead of a loop.
type Retry struct {
	ref      string
	delay    time.Duration
	deadline time.Time
}

// NewRetry paces the writes to ref (a branch name, for messages).
func NewRetry(ref string) *Retry {
	return &Retry{ref: ref, delay: 5 * time.Millisecond, deadline: time.Now().Add(refWait)}
}

// Again says whether to try again after an attempt that failed with err,
// having waited its turn; when not, it returns the error to report.
func (r *Retry) Again(ctx context.Context, err error) (bool, error) {
	if !errors.Is(err, ErrRefMoved) {
		return false, err
	}
	if time.Now().After(r.deadline) {
		var locked *RefLockedError
		if errors.As(err, &locked) {
			return false, planqerr.New(planqerr.Busy, r.ref, "%s", locked.Error()).
				WithHint("if no git process is running (a crashed one leaves its lock behind), remove %s ('planq doctor --fix' removes it once it is 2 minutes old)", locked.Lock)
		}
		return false, planqerr.New(planqerr.Busy, r.ref, "kept moving: other writers won every race for %s", refWait).
			WithHint("run the command again")
	}
	if err := Sleep(ctx, r.delay); err != nil {
		return false, err
	}
	r.delay = min(2*r.delay, 200*time.Millisecond)
	return true, nil
}
