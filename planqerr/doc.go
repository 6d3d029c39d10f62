// Package planqerr is planq's error vocabulary: a small set of kinds that the
// command line maps to exit codes, and an Error that carries the subject the
// problem is about and a hint the user can act on.
//
// Domain packages build these errors where they know what went wrong; the cli
// package renders them as "planq: <subject>: <problem>" plus "hint:" lines.
package planqerr
