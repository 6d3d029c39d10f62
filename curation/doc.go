// Package curation turns the agents' raw notes into the project's
// instruction files (CLAUDE.md, AGENTS.md, ...) through an agent and a
// person: planq makes no model calls. It hands the curating agent a work
// packet (the raw notes, the instruction files as they are, the rules),
// checks and keeps the proposal the agent sends back, and applies or
// dismisses it as a person decides.
//
// Instruction files are taken as repositories keep them: a symbolic link
// (pydantic-ai's CLAUDE.md, a link to AGENTS.md) is shown as a link and a
// proposal for it goes to the file it leads to; a file that only imports
// another (uv's CLAUDE.md, "@AGENTS.md") says so; a nested AGENTS.md names
// the directory it governs. The agent's answer is read as models give it:
// the one proposal in it, bare, fenced or among sentences (ExtractJSON).
package curation
