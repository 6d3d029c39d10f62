// Package jsonedit edits the JSON settings files of coding agents in place
// for 'planq setup': it adds and takes out planq's members and list
// elements, and keeps the user's keys, their order and their formatting.
// Only planq-server links it (hooks.JSON), so the JSON library it edits
// with is not initialised by the planq that hooks and agents start.
package jsonedit
