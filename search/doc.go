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
// subject and decision count most, its domain and files next, its body
// least. What planq itself puts in every record (its kind, type, the
// branch and commit it was written on) is no word of it: those are facets
// that filters read, so "main" or "learned" weigh in a record that says
// them as any word as rare would. Only current versions count (a
// superseded version only when asked for), retracted records never; at
// equal relevance foundational and recent records come first.
//
// Several phrasings of one question are ranked each, so an agent that
// cannot guess the record's words can try two or three, and fused into
// one list: by reciprocal rank, plus, for each ranking's first hits, how
// far their scores stand out from the rest of that ranking, so that one
// phrasing's exact hit on a rare identifier or error code stays first
// when the other phrasings rank other records moderately.
//
// The vector channel is the second ranker in the same fusion: each
// document's vector (Vectors, int8 with a scale, built by the read model
// from the static embedding table of package embed) is ranked by cosine to
// the query's, and its ranking fused with the words'. Cosine and
// AlikeCosine also serve the callers that compare records with each other
// (dedupe's similar groups, the knowledge base's subjects).
//
// Besides records, the index holds knowledge-base articles (DocOfArticle)
// and the memory tool's files (DocOfMemory), each weighted by the same
// fields, so one search answers over all three.
package search
