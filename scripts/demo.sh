#!/usr/bin/env bash
# planq end to end on a throwaway project: build planq, make a code repository
# with a team remote, create two agents in their own workspaces, let them record
# what they do and learn, show what a coding agent gets at session start, promote
# into global, push, pull into a second clone on a "second machine" (another
# PLANQ_HOME), hand off, checkpoint, gc.
# Everything happens under a temporary directory (kept with KEEP=1).
#
#   ./scripts/demo.sh
set -euo pipefail

repo_root=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d "${TMPDIR:-/tmp}/planq-demo.XXXXXX")
if [ "${KEEP:-}" != 1 ]; then trap 'rm -rf "$work"' EXIT; fi

# Go keeps its module and build caches under HOME: remember where they are
# before HOME changes, so the build below is as warm as your own.
GOMODCACHE=$(go env GOMODCACHE) GOCACHE=$(go env GOCACHE) GOPATH=$(go env GOPATH)
export GOMODCACHE GOCACHE GOPATH

# A private HOME: the demo never touches your ~/.planq or your git config.
export HOME="$work/home" PLANQ_HOME="$work/home/.planq"
export GIT_CONFIG_NOSYSTEM=1 GIT_CONFIG_GLOBAL="$work/home/.gitconfig"
mkdir -p "$HOME"
git config --global user.name "Demo User"
git config --global user.email demo@example.com
git config --global init.defaultBranch main

step() { printf '\n\033[1m$ %s\033[0m\n' "$*"; }
run() { step "$@"; "$@"; }

step "go build -o $work/bin/ ./cmd/planq ./cmd/planq-server"
(cd "$repo_root" && go build -o "$work/bin/" ./cmd/planq ./cmd/planq-server)
export PATH="$work/bin:$PATH"

step "make a code repository, shop, and a bare repository for the team's state"
git init -q --bare "$work/team-state.git"
mkdir -p "$work/shop" && cd "$work/shop"
git init -q && printf '# shop\n' > README.md && git add . && git commit -qm "initial commit"

run planq init --project shop --remote "$work/team-state.git"
run git status --short
run git add .planq/config
run git commit -qm "planq: project config"
run planq create auth
run planq create api --branch feature/api
run planq plan set "1. JWT login  2. Token refresh  3. Rate limits"

step "cd \$PLANQ_HOME/workspaces/shop/auth   (agent auth's workspace)"
cd "$PLANQ_HOME/workspaces/shop/auth"
run planq context set "JWT validation for the login endpoint"
run planq log add "Plan: validate JWTs in middleware, then refresh on 401" --type plan
run planq decide "Use RS256" --over HS256,session --because "services verify tokens with the public key only"
run planq learn "Tokens expire after 15 minutes; the client must refresh on 401" --type pattern --domain auth
run planq learn "go test hangs on the integration suite without -p 1" --type failure --domain ci \
  --resolution "run it with -p 1; the suites share one database" --classification foundational
run planq log add "Added JWT validation middleware" --type implement --status completed
run planq scratch --append "next: refresh path, then logout"
run planq checkpoint jwt-done -m "middleware merged, tests green"
run planq handoff "Refresh endpoint is next; see the scratch notes" --to api

step "plain git works inside the agent's state worktree"
run git -C .planq/agent log --oneline -5
run git -C .planq/agent status --short

step "cd \$PLANQ_HOME/workspaces/shop/api   (agent api's workspace)"
cd "$PLANQ_HOME/workspaces/shop/api"
run planq log add "Started the refresh endpoint" --type start --status in_progress
run planq context show

run planq learn "The refresh endpoint must be idempotent: clients retry on timeouts" --type convention --domain auth
run planq learn "Tokens expire after 15 minutes; the client must refresh on 401" --type pattern --domain auth

run planq log --all
run planq list
run planq checkpoint list --all

step "what a coding agent is told at session start, and wiring Claude Code up"
run planq prime --budget 2500
run planq setup claude
run planq setup claude --check
printf '{"session_id":"demo","hook_event_name":"SessionStart","source":"compact"}' > "$work/hook.json"
step "planq hook session-start --agent claude < hook.json   (after a compaction)"
planq hook session-start --agent claude < "$work/hook.json" | head -c 400; echo
run planq setup claude --remove

step "the lead promotes both agents into global (the same learning lands once, citing both)"
cd "$work/shop"
run planq context promote --agent auth --dry-run
run planq context promote --agent auth --all
run planq context promote --agent api --all
run planq state push

step "a second machine: a clone of the code and a PLANQ_HOME of its own"
git clone -q "$work/shop" "$work/shop-laptop"
cd "$work/shop-laptop"
export PLANQ_HOME="$work/laptop/.planq"
run planq init
run planq create docs --here
run planq context show
run planq learn "Docs build with mkdocs; run it before pushing docs changes" --type guide --domain docs
run planq context promote --all
run planq state push

step "back on the first machine: pull what the laptop learned"
export PLANQ_HOME="$work/home/.planq"
cd "$work/shop"
run planq state pull
run git -C "$PLANQ_HOME/state-repos/shop.git" log --oneline --graph -8 global

step "curation: an agent's note becomes a proposal for CLAUDE.md, which the lead reviews and applies"
cd "$PLANQ_HOME/workspaces/shop/auth"
step "planq note \"run the integration suite with -p 1: the suites share one database\""
note=$(planq note "run the integration suite with -p 1: the suites share one database")
cd "$work/shop"
step "planq curate > packet.md; head -n 12 packet.md   (the curating agent's work packet)"
planq curate > "$work/packet.md"
head -n 12 "$work/packet.md"
printf '{"proposed_files": {"CLAUDE.md": "# shop\\n\\n## Tests\\n\\nRun the integration suite with `go test -p 1`: the suites share one database.\\n"},
 "diff_summary": "CLAUDE.md: how to run the integration suite", "entries_used": ["%s"]}\n' "$note" > "$work/proposal.json"
step "planq propose < proposal.json   (what the curating agent answers)"
proposal=$(planq propose < "$work/proposal.json")
run planq proposals show "$proposal"
run planq proposals apply "$proposal"
run git log -1 --stat --format=%s

step "cd $work/shop && planq remove api   (pending state is committed first)"
cd "$work/shop"
printf 'left uncommitted by the agent\n' > "$PLANQ_HOME/workspaces/shop/api/.planq/agent/notes.md"
run planq remove api
run git -C "$PLANQ_HOME/state-repos/shop.git" log --oneline -3 agent-api
run planq context promote --agent api --all
run planq state gc
run planq state archives
run planq list
run planq doctor

step "the user layer: what you keep across projects (a preference, and a learning of shop's promoted to it)"
cd "$work/shop"
run planq learn "Answer in British English" --type convention --domain preferences --scope user
kept=$(planq search "refresh endpoint idempotent" --kind learning -n 1 --json | sed -n 's/^ *"id": "\(pq-[0-9a-f]*\)",$/\1/p' | head -n 1)
run planq context promote --to user "$kept"
run planq user list
run planq search "clients retry on timeouts" --scope user
run planq projects

learnings=$(git -C "$PLANQ_HOME/state-repos/shop.git" ls-tree -r --name-only global learnings | grep -c 'pq-')
laptop=$(git -C "$work/laptop/.planq/state-repos/shop.git" rev-parse global)
remote=$(git -C "$work/team-state.git" rev-parse refs/planq/global)
printf '\ndemo finished: global holds %s learning records; the laptop and the remote agree: %s\n' \
  "$learnings" "$([ "$laptop" = "$remote" ] && echo yes || echo no)"
# The demo's own checks: CI runs it, so a wrong end state fails the run.
[ "$laptop" = "$remote" ] || { echo "demo: the laptop's global and the remote's differ" >&2; exit 1; }
[ "$learnings" -ge 4 ] || { echo "demo: global holds $learnings learnings, want at least 4" >&2; exit 1; }
planq user list | grep -q "shop/$kept" ||
  { echo "demo: the learning promoted to the user layer is missing there" >&2; exit 1; }
git -C "$work/shop" log -1 --format=%s -- CLAUDE.md | grep -q 'from curated agent notes' ||
  { echo "demo: the applied proposal's commit is missing" >&2; exit 1; }
