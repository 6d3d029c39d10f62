// Package embed turns text into vectors that stand for its meaning, so that
// search can find a record described in other words than its own.
//
// The vectors are static embeddings: one vector per token, learned ahead of
// time, and a text's vector is the weighted mean of its tokens' vectors,
// normalised to unit length. Embedding a text is a lookup and a sum, not a
// model call: it needs no network, no GPU and no process beside planq, costs
// microseconds, and gives the same vector for the same text on every
// machine. That is what lets the read model embed every record when it
// indexes it, rebuild the vectors from git like everything else, and embed
// a query at search time within a search's few milliseconds.
//
// Frequent tokens carry little meaning, so each token has a weight (low for
// "the", high for "pgbouncer") that the pooling multiplies in; stop words
// are kept, and the weights quiet them.
//
// A Model is anything that embeds: a Table (planq's own format, "planq
// embeddings v1", with int8 vectors; Default is the table built into
// planq), or an embeddings endpoint. The network is not this package's
// own: planq links no HTTP client (its initialisation would cost every
// start), so an endpoint's calls and a model's download go through
// Network, which planq-server sets to internal/netpost; planq's posts go
// through planq-server ('planq-server post', PostViaServer: one process
// serves a planq's every post). A model2vec directory is read in pure
// Go (LoadModel2Vec) once, when it is fetched or first searched with, and
// converted to a table that keeps its tokenizer; every process after reads
// the table (LoadConverted). Tokens is the one tokenizer of planq's tables, used
// both when a table is trained and when it is used, so that the words a
// table knows are the words a text is cut into.
package embed
