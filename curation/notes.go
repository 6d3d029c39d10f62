package curation

import (
	"slices"
	"time"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/readmodel"
)

// NoteFilter chooses notes; an empty field keeps every note.
type NoteFilter struct {
	States     []string
	Types      []string
	Agents     []string
	Workspaces []string
	// Since and Until bound the time of the note's current state.
	Since, Until time.Time
	// Limit keeps the newest Limit notes; 0 keeps all.
	Limit int
}

// NoteList is the notes a filter chose, newest first, with how many it
// chose before the limit, and what could not be read.
type NoteList struct {
	Notes    []*changelog.Record `json:"notes"`
	Total    int                 `json:"total"`
	Problems []string            `json:"problems,omitempty"`
}

// Notes lists the notes of global and every agent branch, each in its
// current state, that f keeps, newest first.
func Notes(store *readmodel.Handle, f NoteFilter) (NoteList, error) {
	set, err := store.Records.All(changelog.KindNote)
	if err != nil {
		return NoteList{}, err
	}
	keep := func(vals []string, v string) bool { return len(vals) == 0 || slices.Contains(vals, v) }
	out := NoteList{Notes: []*changelog.Record{}, Problems: set.ProblemLines()}
	current := set.Current()
	for i := len(current) - 1; i >= 0; i-- {
		r := current[i]
		if !keep(f.States, string(r.Status)) || !keep(f.Types, string(r.Type)) || !keep(f.Agents, r.Agent) || !keep(f.Workspaces, r.Workspace) ||
			(!f.Since.IsZero() && r.Timestamp.Before(f.Since)) || (!f.Until.IsZero() && !r.Timestamp.Before(f.Until)) {
			continue
		}
		out.Total++
		if f.Limit == 0 || len(out.Notes) < f.Limit {
			out.Notes = append(out.Notes, r)
		}
	}
	return out, nil
}
