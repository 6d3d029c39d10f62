package readmodel

import (
	"context"

	"github.com/planq-dev/planq/readmodel/internal/engine"
)

// Progress hears how a build of the read model from git goes. A cold build
// (a new machine, a deleted cache, a new format) reads every record once and
// takes seconds at tens of thousands of records; a front end shows that it
// is under way. Two goroutines that build at once call it at once.
type Progress interface {
	// Parsed says that n records have been read from git so far by this
	// reader; records a segment already held are not counted.
	Parsed(n int)
	// Built says that no build is under way any more.
	Built()
}

// The engine hears of builds through an interface of its own, which a
// Progress is.
var _ engine.Progress = Progress(nil)

type progressKey struct{}

// WithProgress returns ctx carrying p: a reader opened with it reports its
// builds to p.
func WithProgress(ctx context.Context, p Progress) context.Context {
	return context.WithValue(ctx, progressKey{}, p)
}

// ProgressOf is the Progress ctx carries, or one that hears nothing.
func ProgressOf(ctx context.Context) Progress {
	if p, ok := ctx.Value(progressKey{}).(Progress); ok && p != nil {
		return p
	}
	return silent{}
}

type silent struct{}

func (silent) Parsed(int) {}
func (silent) Built()     {}
