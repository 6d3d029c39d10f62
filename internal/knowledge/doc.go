// Package knowledge keeps the knowledge base: articles on global, at
// knowledge/<topic>/<slug>.md, that gather what the team's learnings and
// decisions say on one subject, and knowledge/_index.md, which lists them.
//
// planq calls no model: Update derives articles deterministically from the
// current learnings and decisions on global, grouped by subject, the files
// they cite, meaning (the static table built into planq: a lookup, the same
// on every machine) and domain; a decision that names no subject and means
// none stays a record. Every sentence it writes is a source's own (its
// first sentence; after the name that alone opens a mulch pattern's body,
// the name and the sentence that follows it), followed by the source's ID.
// An article's times come from its sources, so two machines that hold the
// same records write the same article, byte for byte, and a merge of the
// two takes it once.
//
// Articles are kept in step: new sources join an article and move its
// updated time; an article whose every source was superseded, retracted or
// archived is marked deprecated. Whether a person changed an article is
// read from git history, never from a field: planq's own commits of the
// knowledge base carry the trailer Planq-Knowledge, and a version of an
// article that a commit without it wrote is a person's. planq never
// rewrites such an article: it lists what is new under "New since your
// edit" at its end. An article a person deleted ('planq kb delete' or git
// rm on global) is remembered by a file of its own,
// knowledge/.deleted/<topic>/<slug>, which travels with push and pull like
// any file, and is never made again.
//
// The knowledge base is read through the read model
// (readmodel.KnowledgeBase: its articles parsed once per tree of
// knowledge/, in its cache; who wrote each from history); this package
// changes it, and its List, Show and ListDisputed present what the read
// model read.
//
// The index names, in a line of its own, what the update that wrote it
// read (the learnings', decisions' and articles' trees, the topics, the
// dispute rule) and its own text: an update that finds global holding
// just that, and the index as it was written, has nothing to do and reads
// no record. A pull's fast-forward to a global a teammate pushed in step,
// and a push's update before it sends, cost a few tree reads.
//
// Every change is one commit on global, through the one write path
// (agent.Store.CommitGlobal: sizes, UTF-8, credentials), and a rewrite
// never replaces an article changed on global since it was read.
package knowledge
