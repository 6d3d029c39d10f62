package cli

import (
	"slices"

	"github.com/planq-dev/planq/changelog"
	"github.com/planq-dev/planq/planqerr"
)

// checkNotesFlags refuses a --state or --type no note can have: the list it
// would filter to is always empty, and an empty list reads as "no notes".
func checkNotesFlags(opts notesOptions) error {
	spec := changelog.KindNote.Spec()
	for _, s := range splitList(opts.states) {
		if !slices.Contains(spec.Statuses, changelog.Status(s)) {
			return planqerr.New(planqerr.Invalid, "--state", "%q is no state of a note", s).
				WithHint("use one of %s", changelog.Join(spec.Statuses, ", "))
		}
	}
	for _, t := range splitList(opts.types) {
		if !slices.Contains(spec.Types, changelog.Type(t)) {
			return planqerr.New(planqerr.Invalid, "--type", "%q is no type of note", t).
				WithHint("use one of %s", changelog.Join(spec.Types, ", "))
		}
	}
	return nil
}
