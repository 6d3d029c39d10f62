// Package curation turns the agents' raw notes into the project's
// instruction files (CLAUDE.md, AGENTS.md, ...) through an agent and a
// person: planq makes no model calls. It hands the curating agent a work
// packet (the raw notes, the instruction files as they are, the rules),
// checks and keeps the proposal the agent sends back, and applies or
// dismisses it as a person decides.
package curation
