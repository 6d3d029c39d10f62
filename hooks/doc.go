// Package hooks connects planq to the tools around it:
//
//   - coding agents' hooks (session start, pre-compact, session end, stop),
//     answered in exactly the format each agent validates;
//   - setup recipes that edit each agent's settings files idempotently,
//     keeping the user's entries, and take planq's out again (JSON
//     through JSON, which planq-server sets: setup runs there);
//   - git hooks in the code repository (post-checkout prints the branch's
//     context, post-commit records the commit in the agent's changelog),
//     opt-in, chaining whatever hook the user already had.
package hooks
