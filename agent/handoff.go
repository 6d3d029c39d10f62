package agent

import (
	"context"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/planqerr"
	"github.com/planq-dev/planq/readmodel"
)

// AckHandoff records that the agent picked up handoff id (the pending one
// when id is empty): a new version of it, acknowledged.
func (a *Agent) AckHandoff(ctx context.Context, id string, opts WriteOptions) (Written, error) {
	handoffs, err := a.store.Records.Handoffs()
	if err != nil {
		return Written{}, err
	}
	var h *changelog.Record
	if id == "" {
		h = readmodel.PendingHandoff(handoffs.Records, a.Name)
	} else {
		for _, r := range handoffs.Records {
			if r.ID == id {
				h = r
			}
		}
	}
	if h == nil || h.Status == changelog.StatusAcknowledged {
		subject := "handoff"
		if id != "" {
			subject = id
		}
		return Written{}, planqerr.New(planqerr.NotFound, subject, "no pending handoff for agent %s", a.Name).
			WithHint("'planq context show' shows the pending handoff, if any")
	}
	return a.Write(ctx, changelog.Acknowledged(h, a.Name), opts)
}
