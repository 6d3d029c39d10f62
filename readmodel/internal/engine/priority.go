package engine

import "github.com/planq-dev/planq/changelog"

// Priority says how much a learning or decision matters to a reader, lower
// first: foundational learnings, then failures with their resolutions, then
// conventions and patterns, then the rest, observational learnings last.
// Decisions have no classification or type, so they rank by time alone.
// Each row keeps it (a change to it raises SegmentVersion), so that views
// rank without decoding.
func Priority(r *changelog.Record) int {
	switch {
	case r.Classification == changelog.Foundational:
		return 2
	case r.Type == changelog.TypeFailure:
		return 3
	case r.Type == changelog.TypeConvention || r.Type == changelog.TypePattern:
		return 4
	case r.Classification == changelog.Observational:
		return 8
	}
	return 7
}
