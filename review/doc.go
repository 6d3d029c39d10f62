// Package review serves planq's local review page and its JSON API
// ('planq ui'): the curation proposals to apply or dismiss, the notes log,
// what awaits promotion, and the convergence of each domain, drawn as SVG.
// It binds to 127.0.0.1 only, answers only requests that carry the run's
// token (in the query string once, then in a cookie) and come from its own
// origin, and calls the same functions as the CLI and the MCP server. Its
// assets are embedded: no JavaScript build step.
package review
