// Package branchctx is the context planq attaches to code branches: which
// branch a workspace has checked out, and (with the team features) the
// branches/<branch>.md notes that travel with it.
package branchctx
