// Package scriptenv is what planq's end-to-end scripts (testscript's
// .txtar files) run in: a fresh HOME, PLANQ_HOME and gitconfig per script
// (Setup), and the commands the scripts use beside exec (Commands: exits,
// gitrepo, genfile, age). The cli package's scripts run planq as their
// test binary; the e2e package's, as the binaries go build makes.
//
// Role: test support. It lives under internal/testkit, which only _test.go
// files may import (a depguard rule in .golangci.yml), so planq as shipped
// never links it and it is no layer of the package drawing.
package scriptenv
