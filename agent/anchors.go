package agent

import (
	"context"

	"github.com/planq-dev/planq/changelog"
)

// fillAnchors ties a learning to the code files it cites (placeholder).
func (a *Agent) fillAnchors(_ context.Context, _ *changelog.Record) {}
