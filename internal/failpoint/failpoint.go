package failpoint

import (
	"os"
	"sync"
	"sync/atomic"
)

// Variables that arm points in a test binary.
const (
	// CrashVar names the point to crash at.
	CrashVar = "PLANQ_FAILPOINT"
	// TraceVar names the file every point reached is appended to.
	TraceVar = "PLANQ_FAILPOINT_TRACE"
)

// Point names a moment between two steps of a write.
type Point string

// Every point, in the order of the writes they sit in. Each one is a state
// a crash can leave behind: the name says what is done and what is not.
const (
	// A record's file is in the agent's worktree, not yet committed.
	RecordFileWritten Point = "record.file-written"
	// A commit on an agent branch is written; the branch has not moved.
	CommitWritten Point = "commit.written"
	// A checkpoint's record is committed; its tag ref is not created.
	CheckpointCommitted Point = "checkpoint.committed"
	// Promote's merge commit is written; global has not moved.
	PromoteMerged Point = "promote.merged"
	// A lead's commit on global (plan, changelog) is written; global has not moved.
	GlobalWritten Point = "global.written"
	// Pull fetched the remote's global; nothing is merged.
	PullFetched Point = "pull.fetched"
	// Pull's merge commit is written; global has not moved.
	PullMerged Point = "pull.merged"
	// Push sent global; the remote-tracking ref is not updated.
	PushSent Point = "push.sent"
	// Push sent global; the agent branches are not sent.
	PushAgentsPending Point = "push.agents-pending"
	// gc archived and deleted merged agent branches; the changelog is not regenerated.
	GCArchived Point = "gc.archived"
	// gc regenerated the changelog; git's maintenance has not run.
	GCMaintenancePending Point = "gc.maintenance-pending"
	// restore found the archive to bring back; no ref has moved.
	RestoreFound Point = "restore.found"
	// create made the agent branch; nothing is mounted.
	CreateBranched Point = "create.branched"
	// create added the code workspace; the agent is not mounted in it.
	CreateWorkspaceAdded Point = "create.workspace-added"
	// remove committed pending state; the agent is still mounted.
	RemoveSaved Point = "remove.saved"
	// remove unmounted the agent; the code workspace is still there.
	RemoveUnmounted Point = "remove.unmounted"
)

// All lists every point, for tests that must exercise each one.
func All() []Point {
	return []Point{
		RecordFileWritten, CommitWritten, CheckpointCommitted, PromoteMerged, GlobalWritten,
		PullFetched, PullMerged, PushSent, PushAgentsPending, GCArchived, GCMaintenancePending,
		RestoreFound, CreateBranched, CreateWorkspaceAdded, RemoveSaved, RemoveUnmounted,
	}
}

var (
	enabled atomic.Bool
	mu      sync.Mutex
	actions map[Point]func()
)

// Enable arms the points for this process: only test binaries call it.
func Enable() { enabled.Store(true) }

// Set runs fn (in process) each time p is reached until the returned
// function is called. It arms the points, as Enable does.
func Set(p Point, fn func()) (unset func()) {
	Enable()
	mu.Lock()
	defer mu.Unlock()
	if actions == nil {
		actions = map[Point]func(){}
	}
	actions[p] = fn
	return func() {
		mu.Lock()
		defer mu.Unlock()
		delete(actions, p)
	}
}

// Hit marks that the write reached p: in planq as shipped it does nothing.
func Hit(p Point) {
	if !enabled.Load() {
		return
	}
	if path := os.Getenv(TraceVar); path != "" {
		trace(path, p)
	}
	if os.Getenv(CrashVar) == string(p) {
		crash()
	}
	mu.Lock()
	fn := actions[p]
	mu.Unlock()
	if fn != nil {
		fn()
	}
}

// trace appends p to the trace file in one write, so that concurrent
// processes append whole lines.
func trace(path string, p Point) {
	f, err := os.OpenFile(path, os.O_WRONLY|os.O_APPEND|os.O_CREATE, 0o644)
	if err != nil {
		return
	}
	_, _ = f.WriteString(string(p) + "\n")
	_ = f.Close()
}
