package agent

import (
	"context"
	"strings"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/planqerr"
)

// PendingHandoff is the latest pending handoff for agent: one it left for
// its own next session, or one another agent addressed to it.
func PendingHandoff(recs []*changelog.Record, agent string) *changelog.Record {
	for i := len(recs) - 1; i >= 0; i-- {
		r := recs[i]
		if r.Kind != changelog.KindHandoff || r.Status == "acknowledged" {
			continue
		}
		if r.To == agent || (r.To == "" && r.Agent == agent) {
			return r
		}
	}
	return nil
}

// AckHandoff records that the agent picked up handoff id (the pending one
// when id is empty): a new version of it, acknowledged.
func (a *Agent) AckHandoff(ctx context.Context, id string, opts WriteOptions) (Written, error) {
	recs, err := a.store.AllRecords(changelog.KindHandoff.Dir())
	if err != nil {
		return Written{}, err
	}
	current := changelog.Current(recs)
	var h *changelog.Record
	if id == "" {
		h = PendingHandoff(current, a.Name)
	} else {
		for _, r := range current {
			if r.ID == id {
				h = r
			}
		}
	}
	if h == nil || h.Status == "acknowledged" {
		subject := "handoff"
		if id != "" {
			subject = id
		}
		return Written{}, planqerr.New(planqerr.NotFound, subject, "no pending handoff for agent %s", a.Name).
			WithHint("'planq context show' shows the pending handoff, if any")
	}
	ack := &changelog.Record{Kind: changelog.KindHandoff, To: h.To, Status: "acknowledged", Supersedes: h.ID,
		Body: strings.TrimSpace(h.Body) + "\n\nAcknowledged by " + a.Name + "."}
	return a.Write(ctx, ack, opts)
}
