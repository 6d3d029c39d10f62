// Package untrusted opens the files planq reads but did not write: ADRs,
// agents' memories and transcripts, instruction files, mulch's expertise,
// a checkout's manifests. Such a file may be anything its directory holds:
// a FIFO that blocks whoever opens it, a link to /dev/zero that never
// ends, a link to /etc/passwd that would land on global and be pushed, a
// file of gigabytes. [Open] and [ReadFile] read it only when it is a
// regular file whose real path (links resolved) is inside the directory
// the caller names, no larger than the caller's cap; otherwise they return
// an [*Error] whose Why says why, for the caller's list of skipped files.
//
// A FIFO never blocks the open: the file is opened without waiting
// (O_NONBLOCK on Unix), then its type is checked on the open descriptor
// (fstat), so that a file swapped after the links were resolved is caught
// too.
//
// Role: a leaf. It imports nothing of planq's.
package untrusted
