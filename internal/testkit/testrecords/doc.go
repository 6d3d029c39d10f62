// Package testrecords gives the read model's tests the records and state
// repositories they read: one record of each kind, stamped as a writer
// would, rendered into a repository's global branch. The views' tests and
// the engine's tests read the same fixtures, so a new kind reaches both.
//
// Role: test support. It lives under internal/testkit, which only _test.go
// files may import (a depguard rule in .golangci.yml), so planq as shipped
// never links it and it is no layer of the package drawing.
package testrecords
