package eval

import "testing"

// What the tests of package eval_test (readside_test.go) take of the
// package's own tests.

// SliceCorpus is the corpus of the test slice.
func SliceCorpus(t *testing.T) *Set {
	t.Helper()
	return corpus(t, sliceRecords, sliceSeed)
}

// The agents whose branches the corpus's state goes to.
const (
	AgentBackend = agentBackend
	AgentInfra   = agentInfra
)
