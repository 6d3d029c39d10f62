package staterepo

import (
	"context"
	"errors"
	"fmt"
	"os"
	"path/filepath"
	"time"

	"github.com/gofrs/flock"

	"github.com/planq-dev/planq/planqerr"
)

// LockTimeout is how long a writer waits for another planq process working
// on the same agent before giving up.
var LockTimeout = 30 * time.Second

// Lock takes planq's lock for name (an agent branch), waiting up to
// LockTimeout. git's own index.lock fails at once when held, so planq
// serialises its writers per worktree here and they queue instead of failing.
// The lock is an flock: a crashed holder releases it, and a lock file left
// behind is harmless.
func (r *Repo) Lock(ctx context.Context, name string) (unlock func(), err error) {
	dir := filepath.Join(r.Path, "planq", "locks")
	if err := os.MkdirAll(dir, 0o755); err != nil {
		return nil, fmt.Errorf("failed to create lock directory: %w", err)
	}
	fl := flock.New(filepath.Join(dir, name+".lock"))
	start := time.Now()
	ctx, cancel := context.WithTimeout(ctx, LockTimeout)
	defer cancel()
	ok, err := fl.TryLockContext(ctx, 10*time.Millisecond)
	if !ok || err != nil {
		if errors.Is(err, context.DeadlineExceeded) || err == nil {
			// Only a live process holds an flock: a crashed one released it.
			waited := time.Since(start).Round(100 * time.Millisecond)
			return nil, planqerr.New(planqerr.Busy, name, "another planq process is writing for this agent; gave up after waiting %s", waited).
				WithHint("run the command again once that process is done ('ps' shows planq processes)")
		}
		return nil, fmt.Errorf("failed to lock %s: %w", name, err)
	}
	return func() { _ = fl.Unlock() }, nil
}
