// Package hooks installs and runs planq's hooks. This file set covers the
// git hooks planq can add to a code repository (post-checkout prints the
// context of the branch just checked out); each is opt-in, chains whatever
// hook the user already had, and is removed without a trace.
package hooks
