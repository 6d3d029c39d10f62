#!/usr/bin/env bash
# Imports the .mulch data of real projects with 'planq import mulch' and
# says, per project, how many records mulch holds (the non-empty lines of
# .mulch/expertise/*.jsonl and .mulch/archive/*.jsonl, banners aside), how
# many a dry run would import, how many the import imported (and archived),
# how many lines it refused and why, what importing again adds, and what
# 'planq validate' says. Each SOURCE is a git repository (a bare mirror or a
# checkout: its HEAD's .mulch is read), a directory holding .mulch, or a
# .mulch directory. Each is copied into a fresh code repository of its own
# with a fresh planq project. CI does not run it (it needs the projects);
# it exits 1 when a record is refused or an import again adds anything.
#
#   ./scripts/mulch-real.sh /path/to/mulch.git /path/to/overstory ...
set -euo pipefail
if [ $# -eq 0 ]; then
  sed -n '2,13p' "$0" | sed 's/^# \{0,1\}//'
  exit 2
fi
root=$(cd "$(dirname "$0")/.." && pwd)
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
(cd "$root" && go build -o "$tmp/planq" ./cmd/planq)
planq=$tmp/planq
export HOME=$tmp/home PLANQ_HOME=$tmp/home/.planq GIT_CONFIG_NOSYSTEM=1
mkdir -p "$HOME"
git config --global user.name "mulch-real"
git config --global user.email "mulch-real@example.com"
git config --global init.defaultBranch main

# records counts a .mulch directory's records as mulch does: its non-empty
# lines that are not comments (the archive's banner).
records() {
  local n=0 f
  for f in "$1"/expertise/*.jsonl "$1"/archive/*.jsonl; do
    [ -f "$f" ] || continue
    n=$((n + $(grep -cv -e '^[[:space:]]*$' -e '^[[:space:]]*#' "$f" || true)))
  done
  echo "$n"
}

status=0
report=$tmp/report
printf '%-40s %9s %8s %9s %8s %8s %6s  %s\n' "project" "in mulch" "dry run" "imported" "archived" "refused" "again" "validate" >"$report"
: >"$tmp/refusals"
i=0
for src in "$@"; do
  i=$((i + 1))
  name=$(basename "$(dirname "$src")")
  [ "$(basename "$src")" = repo ] || name=$(basename "$src")
  [ "$name" = .mulch ] && name=$(basename "$(dirname "$src")")
  project=$(printf '%s' "$name" | tr -c 'A-Za-z0-9_-' '-' | tr 'A-Z' 'a-z' | sed 's/^[-_]*//' | cut -c1-36)
  [ -n "$project" ] || project=p
  project=$project-$i
  code=$tmp/code/$i
  mkdir -p "$code"
  if git --git-dir="$src" rev-parse --verify -q HEAD >/dev/null 2>&1 && [ ! -d "$src/.mulch" ]; then
    # File by file: a mirror may lack the blobs of large files elsewhere.
    git --git-dir="$src" ls-tree -r --format='%(objectname) %(path)' HEAD .mulch | while read -r blob path; do
      mkdir -p "$code/$(dirname "$path")"
      git --git-dir="$src" cat-file blob "$blob" >"$code/$path"
    done
  elif [ -d "$src/.mulch" ]; then
    cp -R "$src/.mulch" "$code/.mulch"
  elif [ -d "$src/expertise" ] || [ -f "$src/mulch.config.yaml" ]; then
    cp -R "$src" "$code/.mulch"
  else
    echo "$src: no .mulch here" >&2
    status=1
    continue
  fi
  in_mulch=$(records "$code/.mulch")
  (
    cd "$code"
    git init -q
    git add -A
    git commit -q -m "the project's .mulch"
    "$planq" init --project "$project" >/dev/null 2>&1
    "$planq" create importer --here >/dev/null 2>&1
    "$planq" import mulch --dry-run --json >"$tmp/dry.json" 2>/dev/null
    "$planq" import mulch --json >"$tmp/run.json" 2>"$tmp/run.err"
    "$planq" import mulch --json >"$tmp/again.json" 2>/dev/null
    "$planq" validate >/dev/null 2>"$tmp/validate.err" && echo sound >"$tmp/validate" || echo "problems" >"$tmp/validate"
  )
  dry=$(grep -c '"status": "imported"' "$tmp/dry.json" || true)
  imported=$(grep -c '"status": "imported"' "$tmp/run.json" || true)
  archived=$(grep -c '"archived": true' "$tmp/run.json" || true)
  refused=$(grep -c '"reason": ' "$tmp/run.json" || true)
  again=$(grep -c '"status": "imported"' "$tmp/again.json" || true)
  printf '%-40s %9s %8s %9s %8s %8s %6s  %s\n' "$name" "$in_mulch" "$dry" "$imported" "$archived" "$refused" "$again" "$(cat "$tmp/validate")" >>"$report"
  grep -F 'WARN' "$tmp/run.err" | sed "s|^.*WARN planq: |$name: |" >>"$tmp/refusals" || true
  if [ "$refused" != 0 ] || [ "$again" != 0 ] || [ "$dry" != "$imported" ] || [ "$imported" != "$in_mulch" ]; then
    status=1
  fi
done
cat "$report"
if [ -s "$tmp/refusals" ]; then
  echo
  echo "lines not imported:"
  cat "$tmp/refusals"
fi
exit "$status"
