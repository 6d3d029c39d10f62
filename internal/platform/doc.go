// Package platform holds what planq does differently on the platforms it
// runs on (Linux, macOS, Windows), and the error for a feature that cannot
// work on one of them: "<feature>: not supported on windows", with a hint,
// said when the feature is asked for rather than a build that fails; and
// where planq-server is, which holds planq's servers and network
// (ServerProgram).
//
// Role: a leaf. It imports planqerr only.
package platform
