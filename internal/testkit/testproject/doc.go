// Package testproject makes a planq project for a test: a code repository
// in the test's temporary directory with the files given committed,
// project "demo" initialised in it, and agent "auth" mounted in that
// checkout, all in a HOME and PLANQ_HOME of the test's own (see testgit).
//
// Role: test support. It builds its project through the write side (agent,
// workspace), which only a test may do from here: internal/testkit is
// refused to every non-test file by a depguard rule in .golangci.yml, so
// no production package reaches up through it.
package testproject
