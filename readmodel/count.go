package readmodel

import "github.com/planq-dev/planq/readmodel/internal/engine"

// CountCurrent counts the current records of global and every agent
// branch, each once however many branches hold it (as planq list counts
// them), with the files that did not read.
func (rd *Reader) CountCurrent() (int, []string, error) {
	tips, err := rd.e.Tips()
	if err != nil {
		return 0, nil, err
	}
	segs, problems, err := rd.e.Segments(tips, nil)
	if err != nil {
		return 0, nil, err
	}
	n := 0
	for _, byKind := range rd.e.CurrentByAgent(segs) {
		for _, c := range byKind {
			n += c
		}
	}
	return n, problemLines(engine.WithSegmentProblems(problems, segs)), nil
}
