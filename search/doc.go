// Package search finds records by what they say: it owns tokenizing,
// indexing, ranking and snippets, so that the CLI's search, MCP's
// planq_search and prime's "relevant to your task" give the same answer to
// the same question.
//
// Words are split the way agents write them: identifiers, paths and flags
// break into their parts (advisory_lock, PgBouncer, --race,
// internal/session/) and are indexed whole too; words are lowercased,
// stemmed with the English Snowball stemmer, and stop words dropped. The
// last word of a query also matches as a prefix, for a query typed as it
// is thought.
//
// Ranking is BM25 over fields of different weight: a record's title,
// subject and decision count most, its domain, type and files next, its
// body least. Only current versions count (a superseded version only when
// asked for), retracted records never; at equal relevance foundational
// and recent records come first. Several phrasings of one question are
// ranked each and fused by reciprocal rank, so an agent that cannot guess
// the record's words can try two or three. The ranker is one function over
// the index: a second one (embeddings, some day) can be fused the same way.
package search
