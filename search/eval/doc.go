// Package eval measures how often search finds the record that answers a
// question, so that a change to ranking is judged by numbers rather than
// by a few hand-picked queries.
//
// It is the harness; the evaluation's material is data beside the search
// package, in search/testdata/eval (DataDir): the questions with the
// records that answer them and their near misses, the vocabulary of each
// domain, the phrasings an agent adds, and filler templates. ReadData
// reads it, and then:
//
//   - Corpus generates a deterministic set of planq records, written like
//     the learnings, decisions, log entries and handoffs of coding agents
//     working on one product across more than twenty domains. Most records
//     are filler from templates; the records that answer the questions, the
//     older versions some of them supersede and the near-miss distractors
//     beside them are written by hand (cases.json).
//   - Questions are asked the way an agent asks before starting a task,
//     mostly in other words than the answering record uses; at least a
//     third share no index term with it at all (SharedTerms), so that only
//     a channel that knows what words mean can find their answers. Each
//     names its answer by a stable key, whose ID is the same for a given
//     seed at every corpus size.
//   - Load writes a corpus into a fresh bare state repository: most records
//     on global, the rest (and every log entry and handoff, which are never
//     promoted) on two agent branches, since search reads them all.
//   - Measure runs every question through a Searcher and reports recall at
//     1, 5 and 10 and the mean reciprocal rank, of all questions and apart
//     for those that share a word with their answer and those that share
//     none. A Searcher is the seam a new
//     ranker plugs into; the evaluation's test and scripts/searcheval plug
//     in the read model's search, which is what agents are answered by.
//
// An answer that supersedes an older record must win over it: when the
// older version ranks above the answer the question counts as missed, since
// an agent reading the first hit would act on what the team replaced.
//
// The corpus is synthetic: recall measured here ranks rankers against each
// other on the same questions; it is not the recall agents will see.
//
// Role: a measuring tool, not a layer. It imports what search itself may
// (the record model and storage, to write a corpus) and nothing above; the
// read model is plugged in by its callers, the evaluation's test and
// scripts/searcheval, the only packages that import it (depguard refuses
// it to production code), both with the plugs of package readside.
//
//	go run ./scripts/searcheval [-records 5000] [-seed 1] [-v]
package eval
