#!/usr/bin/env bash
# Proves that the merge property test (team.TestMergeProperties) guards
# every rule of the merge policy: for each rule, it copies the source to a
# scratch directory, removes that one rule, and runs the test there. Each
# mutant must fail the test; the script fails if one survives.
#
#   ./scripts/mutate-merge.sh [SEEDS]    (default 300 seeds per mutant)
set -euo pipefail
cd "$(dirname "$0")/.."
seeds=${1:-300}
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT

# name | file | perl substitution that removes the rule
mutants=(
  "a record deleted on both sides survives|team/resolve.go|s/return base, nil \/\/ deleted on both sides/return staterepo.ZeroHash, nil \/\/ deleted on both sides/"
  "a plain file deleted on both sides is gone|team/resolve.go|s/\t\treturn staterepo.ZeroHash, nil\n\tcase ours.IsZero\(\) \|\| theirs.IsZero\(\):/\t\treturn base, nil\n\tcase ours.IsZero() || theirs.IsZero():/"
  "a record deleted on one side stays|team/resolve.go|s/if record \|\| kept != base \{/if kept != base {/"
  "a plain file changed on one side, deleted on the other, stays|team/resolve.go|s/if record \|\| kept != base \{/if record {/"
  "the later version wins|team/resolve.go|s/if b.After\(a\) \|\| \(b.Equal\(a\) && /if _, _ = a, b; (/"
  "ties are broken by blob, the same both ways|team/resolve.go|s/ \|\| \(b.Equal\(a\) && theirs.String\(\) > ours.String\(\)\)//"
  "a branch context is ordered by updated_at|team/resolve.go|s/return frontmatterTime\(data, \"updated_at\"\)/return time.Time{}/"
  "every conflict is reported|team/resolve.go|s/rs.choices = append\(rs.choices, /_ = append(rs.choices, /"
  "files both sides deleted in a directory both changed alike reach the resolver|staterepo/merge.go|s/ && \(o.Mode != filemode.Dir \|\| !hasB \|\| b.Hash == o.Hash\)//"
  "several merge bases: the same one whichever side merges|staterepo/merge.go|s/slices.Sort\(bases\)/slices.Sort(bases); if a.String() > b.String() { slices.Reverse(bases) }/"
)

survived=0
for m in "${mutants[@]}"; do
  IFS='|' read -r name file expr <<<"$m"
  rm -rf "$work/src" && mkdir "$work/src"
  git ls-files -z | xargs -0 cp --parents -t "$work/src"
  perl -0pi -e "$expr" "$work/src/$file"
  if cmp -s "$file" "$work/src/$file"; then
    echo "mutant did not apply: $name" >&2
    exit 2
  fi
  if (cd "$work/src" && go test -count=1 -run '^TestMergeProperties$' ./team -args -merge.seeds="$seeds" >"$work/out" 2>&1); then
    echo "SURVIVED  $name"
    survived=$((survived + 1))
  elif ! grep -q -- '--- FAIL: TestMergeProperties' "$work/out"; then
    cat "$work/out" >&2
    echo "mutant did not build or the test did not run: $name" >&2
    exit 2
  else
    echo "killed    $name: $(grep -m1 -E 'seed [0-9]+|no conflict|only [0-9]+ of' "$work/out" | sed 's/^ *//' | cut -c1-110)"
  fi
done
[ "$survived" -eq 0 ] || { echo "$survived mutant(s) survived"; exit 1; }
echo "every rule removed fails the merge property test"
