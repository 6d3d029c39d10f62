package agent

import (
	"context"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/staterepo"
)

// fillAnchors ties a learning's anchors to the code as its evidence commit
// holds it: each file's blob there, read with one git ls-tree. Without a
// code checkout or a commit, or where git cannot say, the anchors keep
// their paths alone; a file the commit does not hold has no blob. Nothing
// here fails a write: anchors only let readers tell when the code moved on.
func (a *Agent) fillAnchors(ctx context.Context, rec *changelog.Record) {
	if len(rec.Anchors) == 0 || a.Workspace == "" || rec.Evidence == nil || rec.Evidence.Commit == "" {
		return
	}
	AnchorTo(ctx, staterepo.OpenCode(a.Workspace), rec.Evidence.Commit, rec.Anchors)
}

// AnchorTo sets each anchor's blob to its file's at rev of code.
func AnchorTo(ctx context.Context, code *staterepo.CodeRepo, rev string, anchors []changelog.Anchor) {
	paths := make([]string, len(anchors))
	for i, an := range anchors {
		paths[i] = an.Path
	}
	blobs, err := code.Blobs(ctx, rev, paths)
	if err != nil {
		return
	}
	for i := range anchors {
		anchors[i].Blob = blobs[anchors[i].Path]
	}
}
