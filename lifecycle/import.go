package lifecycle

import (
	"context"
	"fmt"

	"github.com/planq-dev/planq/agent"
	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/mulch"
	"github.com/planq-dev/planq/staterepo"
)

// ImportedRecord is one mulch record and what the import did with it.
type ImportedRecord struct {
	ID     string         `json:"id"`
	Origin string         `json:"origin"`
	Domain string         `json:"domain"`
	Type   changelog.Type `json:"type"`
	// Status is "imported", or "present" when an earlier import (by any
	// agent, on any machine) brought it already.
	Status string `json:"status"`
}

// ImportResult says what ImportMulch did, and the commit that did it (none
// when nothing was new, or in a dry run).
type ImportResult struct {
	Dir     string           `json:"dir"`
	Records []ImportedRecord `json:"records"`
	Commit  string           `json:"commit,omitempty"`
}

// Counts are how many records were imported and how many were there.
func (r ImportResult) Counts() (imported, present int) {
	for _, rec := range r.Records {
		if rec.Status == "imported" {
			imported++
		} else {
			present++
		}
	}
	return imported, present
}

// ImportMulch imports the mulch directory dir into the agent's branch: every
// record read (all or nothing: one bad line and nothing is written) that no
// branch holds yet becomes a learning (see mulch.ToPlanq), anchored to the
// blobs of its files at its evidence commit when the code repository at
// codeDir has it, all in one commit. Importing again adds nothing: a record
// keeps its ID from one import to the next.
func ImportMulch(ctx context.Context, a *agent.Agent, dir, codeDir string, dryRun bool, opts agent.WriteOptions) (ImportResult, error) {
	entries, err := mulch.Read(dir)
	if err != nil {
		return ImportResult{}, err
	}
	located, _ := mulch.Locate(dir)
	recs, err := mulch.ToPlanq(entries)
	if err != nil {
		return ImportResult{}, err
	}
	set, err := a.Store().Records.All(changelog.KindLearning)
	if err != nil {
		return ImportResult{}, err
	}
	held := make(map[string]bool, len(set.Records))
	for _, r := range set.Records {
		held[r.ID] = true
		if r.Origin != "" {
			held[r.Origin] = true
		}
	}
	res := ImportResult{Dir: located}
	var fresh []*changelog.Record
	for _, r := range recs {
		status := "imported"
		if held[r.ID] || held[r.Origin] {
			status = "present"
		} else {
			fresh = append(fresh, r)
		}
		res.Records = append(res.Records, ImportedRecord{ID: r.ID, Origin: r.Origin, Domain: r.Domain, Type: r.Type, Status: status})
	}
	if dryRun || len(fresh) == 0 {
		return res, nil
	}
	anchorByCommit(ctx, staterepo.OpenCode(codeDir), fresh)
	written, err := a.WriteMany(ctx, fresh, fmt.Sprintf("import: %d learnings from mulch", len(fresh)), opts)
	if err != nil {
		return ImportResult{}, err
	}
	res.Commit = written[0].Commit
	return res, nil
}

// anchorByCommit fills the blobs of the records' anchors at each record's
// evidence commit: one git call per distinct commit, not per record. A
// commit the code repository does not have leaves its anchors without
// blobs: they are never marked stale.
func anchorByCommit(ctx context.Context, code *staterepo.CodeRepo, recs []*changelog.Record) {
	byCommit := map[string][]*changelog.Record{}
	for _, r := range recs {
		if len(r.Anchors) > 0 && r.Evidence != nil && r.Evidence.Commit != "" {
			byCommit[r.Evidence.Commit] = append(byCommit[r.Evidence.Commit], r)
		}
	}
	for commit, group := range byCommit {
		var paths []string
		for _, r := range group {
			for _, an := range r.Anchors {
				paths = append(paths, an.Path)
			}
		}
		blobs, err := code.Blobs(ctx, commit, paths)
		if err != nil {
			continue
		}
		for _, r := range group {
			for i := range r.Anchors {
				r.Anchors[i].Blob = blobs[r.Anchors[i].Path]
			}
		}
	}
}
