package knowledge

import (
	"context"

	"github.com/planq-dev/planq/agent"
)

// Summary is a short account of an update run after another command landed
// (promote, pull): what changed, and the error, if it failed, as text. The
// command that ran it has landed already, so a failure is reported, never
// returned: 'planq kb update' does the work again later.
type Summary struct {
	// Commit is the update's commit on global, "" when nothing changed.
	Commit  string `json:"commit"`
	Created int    `json:"created"`
	// Updated counts the articles updated, deprecated or appended to.
	Updated int `json:"updated"`
	// Disputed are the articles the update marked disputed, by path.
	Disputed []string `json:"disputed"`
	// Error is why the update failed; "" when it did not.
	Error string `json:"error,omitempty"`
}

// UpdateAfter runs Update for a command that has landed on global already,
// and sums it up; its error is in the summary.
func UpdateAfter(ctx context.Context, store *agent.Store, opts Options) *Summary {
	res, err := Update(ctx, store, opts)
	if err != nil {
		return &Summary{Disputed: []string{}, Error: err.Error()}
	}
	return &Summary{Commit: res.Commit, Created: len(res.Created), Updated: len(res.Updated) + len(res.Deprecated) + len(res.Appended),
		Disputed: res.Disputed}
}
