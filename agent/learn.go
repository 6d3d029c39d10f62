package agent

import (
	"context"

	"github.com/planq-dev/planq/changelog"
)

// LearnOptions tune how a learning is written.
type LearnOptions struct {
	WriteOptions
	// Force writes the learning though its domain is at the hard limit of
	// current learnings (see CheckDomainRoom).
	Force bool
}

// Learn writes a new learning (see Write), refusing it first when its
// domain is at the hard limit, unless opts.Force: every front end that
// records a learning gets the same check, in the same place.
func (a *Agent) Learn(ctx context.Context, rec *changelog.Record, opts LearnOptions) (Written, error) {
	if rec.Kind == changelog.KindLearning && !opts.Force {
		if err := a.CheckDomainRoom(rec.Domain); err != nil {
			return Written{}, err
		}
	}
	return a.Write(ctx, rec, opts.WriteOptions)
}
