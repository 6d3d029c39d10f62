package lifecycle

import (
	"context"
	"fmt"
	"sort"
	"strings"
	"time"

	"github.com/planq-dev/planq/agent"
	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/internal/plural"
	"github.com/planq-dev/planq/planqerr"
	"github.com/planq-dev/planq/project"
	"github.com/planq-dev/planq/readmodel"
)

// PruneOptions tune a prune.
type PruneOptions struct {
	Now    time.Time
	DryRun bool
	// Stale also expires the learnings about code that is gone (prune
	// --stale): every file they are anchored to is gone from the code
	// checkout at CodeDir.
	Stale   bool
	CodeDir string
	// Writer is who the archive records are written as.
	Writer string
}

// Archived is one learning prune took, or would take, out of the current
// view.
type Archived struct {
	ID             string                   `json:"id"`
	Kind           changelog.Kind           `json:"kind"`
	Domain         string                   `json:"domain"`
	Type           changelog.Type           `json:"type"`
	Classification changelog.Classification `json:"classification"`
	Title          string                   `json:"title"`
	Written        time.Time                `json:"written"`
	LastUsed       *time.Time               `json:"last_used,omitempty"`
	Reason         string                   `json:"reason"`
	// Marker is the archive record (a tombstone with archived: true) that
	// took it out; ArchivedAt when it did. Empty in a dry run.
	Marker     string     `json:"marker,omitempty"`
	ArchivedAt *time.Time `json:"archived_at,omitempty"`
}

// PruneResult says what a prune archived and the commit on global that did.
type PruneResult struct {
	Archived []Archived `json:"archived"`
	Commit   string     `json:"commit,omitempty"`
}

// Prune archives global's current learnings that outlived their shelf life
// (the project's, see readmodel.ShelfLivesOf: unused for longer than it
// since written or last used), and with opts.Stale those whose anchored
// files are all gone from the code: one archive record each (a tombstone marked archived that
// supersedes it), all in one commit on global whose message lists them.
// Every reader of every branch stops showing them, agent branches' copies
// included; nothing leaves history, and Restore brings one back. Learnings
// no one promoted are not global's to prune.
func Prune(ctx context.Context, store *agent.Store, opts PruneOptions) (PruneResult, error) {
	set, err := store.Records.Branch(project.GlobalBranch, changelog.KindLearning)
	if err != nil {
		return PruneResult{}, err
	}
	lastUse, err := store.Records.LastUses()
	if err != nil {
		return PruneResult{}, err
	}
	lives := readmodel.ShelfLivesOf(store.Project.Config.ShelfLife)
	current := set.Current()
	var gone map[string]bool
	if opts.Stale {
		gone = readmodel.CheckAnchors(ctx, opts.CodeDir, current).Gone
	}
	var res PruneResult
	var markers []*changelog.Record
	for _, r := range current {
		reason := pruneReason(r, lives, lastUse, gone, opts.Now)
		if reason == "" {
			continue
		}
		a := Archived{ID: r.ID, Kind: r.Kind, Domain: r.Domain, Type: r.Type, Classification: r.Classification, Title: r.Headline(),
			Written: r.Timestamp, Reason: reason}
		if used, ok := lastUse[r.ID]; ok {
			a.LastUsed = &used
		}
		res.Archived = append(res.Archived, a)
		m, err := changelog.NewTombstone(r, reason)
		if err != nil {
			return PruneResult{}, err
		}
		m.Archived = true
		m.Body = "Archived " + r.ID + ": " + reason
		markers = append(markers, m)
	}
	notes, noteMarkers, err := decidedNotes(store, store.Project.Config.KeepDecided(), opts.Now)
	if err != nil {
		return PruneResult{}, err
	}
	res.Archived, markers = append(res.Archived, notes...), append(markers, noteMarkers...)
	sort.Slice(res.Archived, func(i, j int) bool { return res.Archived[i].ID < res.Archived[j].ID })
	if opts.DryRun || len(markers) == 0 {
		return res, nil
	}
	commit, err := store.CommitGlobal(ctx, agent.GlobalChange{Writer: opts.Writer, Records: markers, Message: pruneMessage(res.Archived)})
	if err != nil {
		return PruneResult{}, err
	}
	res.Commit = commit.String()
	byID := map[string]*changelog.Record{}
	for _, m := range markers {
		byID[m.Supersedes] = m
	}
	for i := range res.Archived {
		m := byID[res.Archived[i].ID]
		at := m.Timestamp
		res.Archived[i].Marker, res.Archived[i].ArchivedAt = m.ID, &at
	}
	return res, nil
}

// pruneReason is why learning r is archived at now: past its shelf life,
// or anchored to files all gone; "" when it is not.
func pruneReason(r *changelog.Record, lives readmodel.ShelfLives, lastUse map[string]time.Time, gone map[string]bool, now time.Time) string {
	switch {
	case lives.Expired(r, lastUse[r.ID], now):
		reason := fmt.Sprintf("past its shelf life (%s, %s", r.Classification, days(lives[r.Classification]))
		if used, ok := lastUse[r.ID]; ok {
			reason += "; last used " + used.UTC().Format(time.DateOnly)
		} else {
			reason += "; never used"
		}
		return reason + ")"
	case gone[r.ID]:
		return "every file it is anchored to is gone from the code"
	}
	return ""
}

// decidedNotes finds global's notes applied or dismissed longer ago than
// keep, and their archive records. Raw and proposed notes are never pruned.
func decidedNotes(store *agent.Store, keep project.LifeSpan, now time.Time) ([]Archived, []*changelog.Record, error) {
	if keep.Never {
		return nil, nil, nil
	}
	set, err := store.Records.Branch(project.GlobalBranch, changelog.KindNote)
	if err != nil {
		return nil, nil, err
	}
	var archived []Archived
	var markers []*changelog.Record
	for _, r := range set.Current() {
		if (r.Status != changelog.StatusApplied && r.Status != changelog.StatusDismissed) || now.Sub(r.Timestamp) <= keep.Span {
			continue
		}
		reason := fmt.Sprintf("%s on %s (decided notes are kept %s)", r.Status, r.Timestamp.UTC().Format(time.DateOnly), days(keep.Span))
		archived = append(archived, Archived{ID: r.ID, Kind: r.Kind, Type: r.Type, Title: r.Headline(), Written: r.Timestamp, Reason: reason})
		m, err := changelog.NewTombstone(r, reason)
		if err != nil {
			return nil, nil, err
		}
		m.Archived, m.Status = true, r.Status
		m.Body = "Archived " + r.ID + ": " + reason
		markers = append(markers, m)
	}
	return archived, markers, nil
}

func days(d time.Duration) string {
	if n := int(d / (24 * time.Hour)); n*24 == int(d/time.Hour) {
		return plural.Of(n, "day")
	}
	return d.String()
}

func pruneMessage(archived []Archived) string {
	var b strings.Builder
	learnings, notes := 0, 0
	for _, a := range archived {
		if a.Kind == changelog.KindNote {
			notes++
		} else {
			learnings++
		}
	}
	var what []string
	if learnings > 0 {
		what = append(what, plural.Of(learnings, "learning"))
	}
	if notes > 0 {
		what = append(what, plural.Of(notes, "decided note"))
	}
	fmt.Fprintf(&b, "prune: archive %s\n\n", strings.Join(what, " and "))
	for _, a := range archived {
		label := a.Domain + "/" + string(a.Type)
		if a.Kind == changelog.KindNote {
			label = "note/" + string(a.Type)
		}
		fmt.Fprintf(&b, "- %s [%s] %s\n  %s\n", a.ID, label, changelog.Shorten(a.Title, 100), a.Reason)
	}
	b.WriteString("\nNothing is deleted: 'planq archive list' shows them, 'planq restore ID' brings one back.\n")
	return b.String()
}

// ArchiveList lists what prune archived on global and no restore brought
// back, newest first.
func ArchiveList(store *agent.Store) ([]Archived, error) {
	set, err := store.Records.Branch(project.GlobalBranch, changelog.KindLearning)
	if err != nil {
		return nil, err
	}
	v := index(set.Records)
	var out []Archived
	for _, m := range set.Records {
		if !m.Archived || v.replaced[m.ID] != nil {
			continue
		}
		r := v.byID[m.Supersedes]
		if r == nil {
			continue
		}
		at := m.Timestamp
		out = append(out, Archived{ID: r.ID, Domain: r.Domain, Type: r.Type, Classification: r.Classification, Title: r.Headline(),
			Written: r.Timestamp, Reason: strings.TrimPrefix(m.Body, "Archived "+r.ID+": "), Marker: m.ID, ArchivedAt: &at})
	}
	sort.Slice(out, func(i, j int) bool {
		if !out[i].ArchivedAt.Equal(*out[j].ArchivedAt) {
			return out[i].ArchivedAt.After(*out[j].ArchivedAt)
		}
		return out[i].ID < out[j].ID
	})
	return out, nil
}

// Restored says what Restore brought back.
type Restored struct {
	ID       string `json:"id"`       // the archived record
	Marker   string `json:"marker"`   // the archive record it undid
	Restored string `json:"restored"` // the new version, current from now on
	Commit   string `json:"commit"`
}

// Restore brings back learning id (or the one archive record id took out):
// a new version of it on global, in one commit, that supersedes its archive
// record and starts its shelf life afresh.
func Restore(ctx context.Context, store *agent.Store, id, writer string) (Restored, error) {
	if !changelog.ValidID(id) {
		return Restored{}, planqerr.New(planqerr.Invalid, id, "is not a record id").
			WithHint("'planq archive list' shows the archived learnings and their ids")
	}
	set, err := store.Records.Branch(project.GlobalBranch, changelog.KindLearning)
	if err != nil {
		return Restored{}, err
	}
	v := index(set.Records)
	marker := v.byID[id]
	if marker == nil || !marker.Archived {
		marker = v.replaced[id]
	}
	if marker == nil || !marker.Archived {
		if _, known := v.byID[id]; known {
			return Restored{}, planqerr.New(planqerr.Invalid, id, "is not archived").
				WithHint("'planq archive list' shows what is")
		}
		return Restored{}, planqerr.New(planqerr.NotFound, id, "no such learning on global").
			WithHint("'planq archive list' shows the archived learnings and their ids")
	}
	if again := v.replaced[marker.ID]; again != nil {
		return Restored{}, planqerr.New(planqerr.Exists, marker.Supersedes, "is restored already, as %s", again.ID)
	}
	orig := v.byID[marker.Supersedes]
	if orig == nil {
		return Restored{}, planqerr.New(planqerr.NotFound, marker.Supersedes, "the archived learning is not on global")
	}
	next := NextVersion(orig)
	next.Supersedes = marker.ID
	commit, err := store.CommitGlobal(ctx, agent.GlobalChange{Writer: writer, Records: []*changelog.Record{next},
		Message: fmt.Sprintf("restore: %s [%s/%s] %s\n", orig.ID, orig.Domain, orig.Type, changelog.Shorten(orig.Headline(), 100))})
	if err != nil {
		return Restored{}, err
	}
	return Restored{ID: orig.ID, Marker: marker.ID, Restored: next.ID, Commit: commit.String()}, nil
}
