// Package e2e holds planq's longest end-to-end tests, run against the
// binaries go build makes rather than a test binary standing in for
// planq: scripts that drive hundreds of planq processes at once
// (testdata/script: agents writing while leads promote, a team's remote),
// and a kind added to the kind table in a copy of the source, built and
// reached from every front end (testdata/newkind). They are a package of
// their own so that go test runs them beside cli's, each package within
// its time on a small machine.
//
// Role: tests only; nothing imports it.
package e2e
