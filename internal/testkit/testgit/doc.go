// Package testgit gives planq's tests a git of their own: a fresh HOME
// with a gitconfig that names a user and a default branch, and no system
// config, so no test reads or writes the developer's settings.
//
// Role: test support. It lives under internal/testkit, which only _test.go
// files may import (a depguard rule in .golangci.yml), so planq as shipped
// never links it and it is no layer of the package drawing.
package testgit
