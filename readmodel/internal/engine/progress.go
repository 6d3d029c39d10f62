package engine

import "sync/atomic"

// Progress hears how a build of the read model from git goes (package
// readmodel's Progress, which front ends implement). A cold build
// (a new machine, a deleted cache, a new format) reads every record once and
// takes seconds at tens of thousands of records; a front end shows that it
// is under way. Two goroutines that build at once call it at once.
type Progress interface {
	// Parsed says that n records have been read from git so far by this
	// reader; records a segment already held are not counted.
	Parsed(n int)
	// Built says that no build is under way any more.
	Built()
}

type silent struct{}

func (silent) Parsed(int) {}
func (silent) Built()     {}

// buildCount tracks the builds under way and the records they parsed, so
// that Built is said once, when the outermost build that parsed anything
// ends: a read of several directories, each built of its shards, is one
// build to hear of.
type buildCount struct {
	to       Progress
	underway atomic.Int32
	parsed   atomic.Int64
	told     atomic.Bool // Parsed was said since the last Built
}

func (c *buildCount) begin() { c.underway.Add(1) }

func (c *buildCount) end() {
	if c.underway.Add(-1) == 0 && c.told.Swap(false) {
		c.to.Built()
	}
}

func (c *buildCount) parsedOne() {
	c.told.Store(true)
	c.to.Parsed(int(c.parsed.Add(1)))
}
