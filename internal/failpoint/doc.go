// Package failpoint crashes planq on purpose at named points inside its
// multi-step writes, so that tests can prove a crash at any step loses
// nothing and the next run recovers.
//
// Points are armed only in test binaries, which call [Enable]; there the
// variable PLANQ_FAILPOINT names the point at which the process kills
// itself (and its process group, when it leads one) with SIGKILL, as a
// crash or an OOM kill would. Planq as shipped never calls Enable, so the
// variable means nothing to it and a point costs one atomic load.
//
// PLANQ_FAILPOINT_TRACE names a file that every point reached is appended
// to, so that a test that kills planq at random can say which phase each
// kill interrupted. In-process tests use [Set] to run code at a point
// instead (moving a ref under a pull, say).
//
// Role: a leaf. The storage layer and the writers import it (staterepo,
// agent, team, workspace), so it imports nothing of planq's; depguard's
// leaves rule in .golangci.yml keeps it so.
package failpoint
