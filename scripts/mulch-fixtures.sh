#!/usr/bin/env bash
# Makes internal/mulch/testdata/mulch: a .mulch directory written by the real mulch
# CLI (@os-eco/mulch-cli, which runs on bun), with every record type and the
# fields mulch writes: classification, evidence of each sort, tags, files,
# relations, supersession, outcomes, directory anchors, two domains. The
# tests of 'planq import mulch' read it. It then has the same mulch check
# internal/mulch/testdata/shapes, the shapes of real projects' .mulch written by hand
# (see its README): 'mulch validate' must accept every record, and its
# archive is the one 'mulch archive' writes. CI does not run this script:
# run it by hand (it needs npm) when mulch's format changes, and commit the
# result.
#
#   ./scripts/mulch-fixtures.sh
set -euo pipefail
cd "$(dirname "$0")/.."
root=$PWD
out=$PWD/internal/mulch/testdata/mulch
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
npm install --silent --prefix "$tmp/npm" @os-eco/mulch-cli@0.10.7 bun@1.4.5 >/dev/null
export PATH="$tmp/npm/node_modules/.bin:$PATH"
mulch --version

repo=$tmp/repo
mkdir -p "$repo/internal/auth" "$repo/ci"
cd "$repo"
git init -q
git config user.name fixtures
git config user.email fixtures@example.com
echo 'package auth' >internal/auth/jwt.go
echo 'set -e' >ci/run.sh
git add -A
git commit -q -m code

mulch init >/dev/null
mulch add auth >/dev/null
mulch add ci >/dev/null
id() { mulch query "$1" --json | node -e 'let s="";process.stdin.on("data",d=>s+=d).on("end",()=>{const j=JSON.parse(s);const rs=(j.domains||[j]).flatMap(d=>d.records||[]);process.stdout.write(rs[rs.length-1].id)})'; }

mulch record auth --type convention "Tokens are verified in internal/auth/jwt.go, never in handlers" \
  --classification foundational --tags security,jwt --evidence-file internal/auth/jwt.go >/dev/null
first=$(id auth)
mulch record auth --type pattern --name "token refresh" --description "Refresh once on 401, then fail the request" \
  --files internal/auth/jwt.go --evidence-issue "#12" --outcome-status success --outcome-agent claude \
  --outcome-duration 1200 --outcome-test-results "12 passed" --relates-to "$first" >/dev/null
mulch record auth --type decision --title "Sign tokens with RS256" --rationale "Public keys can be published to verifiers" \
  --evidence-gh "planq/demo#4" --evidence-linear "ENG-7" --classification foundational >/dev/null
mulch record auth --type reference --name "JWT verifier" --description "internal/auth/jwt.go holds Verify and its options" \
  --files internal/auth/jwt.go --classification observational --dir-anchor internal/auth >/dev/null
mulch record ci --type failure --description "go test hangs on the integration suite without -p 1" \
  --resolution "set GOFLAGS=-p=1 in ci/run.sh" --evidence-bead "bd-42" --evidence-seeds "sd-7" --tags ci,flaky >/dev/null
old=$(id ci)
mulch record ci --type failure --description "go test hangs on the integration suite unless packages run one at a time" \
  --resolution "set GOFLAGS=-p=1 in ci/run.sh; the suites share one database" --supersedes "$old" --force >/dev/null
mulch record ci --type guide --name "release checklist" --description "Tag, push the tag, then run ci/run.sh release" \
  --classification tactical >/dev/null

rm -rf "$out"
mkdir -p "$out"
cp -R .mulch/. "$out/"
echo "wrote $(cat "$out"/expertise/*.jsonl | wc -l) records to $out"

# The hand-written shapes: every live record valid to mulch, and the
# archive as mulch writes it (the archived pattern, archived again by mulch,
# reads the same but for its time, and the "manual: " 'mulch archive'
# puts before a reason, where 'mulch prune' puts none).
shapes=$root/internal/mulch/testdata/shapes
check=$tmp/shapes
mkdir -p "$check"
cd "$check"
git init -q
cp -R "$shapes" .mulch
mulch validate
rm -rf .mulch/archive
sed -n 2p "$shapes/archive/cli.jsonl" | sed 's/,"status":"archived","archived_at":"[^"]*","archive_reason":"[^"]*"//' >>.mulch/expertise/cli.jsonl
mulch archive cli --records mx-ff8407 --reason stale >/dev/null
diff <(sed -e 's/"archived_at":"[^"]*"/"archived_at":"T"/' -e 's/"archive_reason":"manual: /"archive_reason":"/' .mulch/archive/cli.jsonl) \
  <(sed 's/"archived_at":"[^"]*"/"archived_at":"T"/' "$shapes/archive/cli.jsonl")
echo "mulch accepts $shapes"
