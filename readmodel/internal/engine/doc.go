// Package engine is the read model's engine: what package readmodel keeps
// under the cache directory so that its views read thousands of records in
// milliseconds, all of it named by what git names (so never stale) and
// rebuilt from git when missing or damaged:
//
//   - segments: each shard's records, parsed once per tree of the shard, as
//     fixed-width rows (what views sort and filter on) ahead of the records
//     themselves, in their own codec, decoded only when shown, and the
//     shard's search index (segment.go, codec.go, segstore.go);
//   - vectors: each segment's records embedded by the model searches use,
//     made by the first search that needs them and kept per model
//     (vectors.go);
//   - listings: the top of each commit's tree and its small files, so that
//     a warm read never opens git's pack index (listing.go);
//   - ID orders and the other view files: what a view would otherwise find
//     by a pass over every row (idorder.go, copies.go, newest.go,
//     viewfile.go);
//   - tallies: each shard merged across every branch, counted and ordered
//     as status and log --all read them, so that those read a tally per
//     domain or month, never every record, and a write makes a new tally
//     for the shard it wrote alone (tally.go, logtally.go, statustally.go);
//   - as-of pinning: every read of a store made at a moment in the past
//     reads the branches' commits of then (asof.go).
//
// On it, a view lists rows (Rows, Segments), sorts and filters them as
// Refs, and decodes only the records it shows (Decode). Only package
// readmodel imports it (Go's internal rule, and a depguard rule of
// .golangci.yml): every other package reads through readmodel's views.
//
// Its file formats carry versions (SegmentVersion, listingVersion,
// idOrderVersion, copiesVersion, newestVersion, vectorsVersion,
// logTallyVersion, statusTallyVersion): a change to what a file holds
// raises its version, so that caches of the old one are rebuilt.
package engine
