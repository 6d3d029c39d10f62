#!/usr/bin/env bash
# Trains planq's default search model, internal/embed/model/default.pqemb, from the
# documentation that pinned Debian packages ship (scripts/model/sources has
# the list, the versions and the licences), and checks the result against
# scripts/model/default.pqemb.sha256.
#
#   scripts/model/train.sh                 # install, prepare, train, build, check
#   scripts/model/train.sh --update-hash   # the same, and accept a new hash
#   scripts/model/train.sh --extra DIR     # also learn from plain text under DIR
#
# Steps: install the pinned packages (apt-get, as root); write the training
# text, already cut into planq's own tokens (scripts/model/prep); train word
# vectors with fastText on one thread with a fixed seed, which makes them
# the same on every run (scripts/model/neighbours shows what they learnt); keep the most frequent useful tokens, reduce them
# by PCA, weight and quantise them (scripts/model/build); compare the
# file's SHA-256 with the recorded one. Nothing under search/testdata is
# ever read: the search evaluation is held out.
set -euo pipefail

usage() { sed -n '2,/^set -e/p' "$0" | sed -e '$d' -e 's/^# \{0,1\}//'; }

update_hash=0
work=${PLANQ_MODEL_WORK:-${TMPDIR:-/tmp}/planq-model}
extra=()
while [ $# -gt 0 ]; do
	case $1 in
	--update-hash) update_hash=1 ;;
	--work) work=$2; shift ;;
	--extra) extra+=("$(realpath -m -- "$2")"); shift ;;
	-h | --help) usage; exit 0 ;;
	*) echo "train.sh: unknown argument $1" >&2; usage >&2; exit 2 ;;
	esac
	shift
done

cd "$(dirname "$0")/../.."
repo=$(pwd)
out=internal/embed/model/default.pqemb
hashfile=scripts/model/default.pqemb.sha256
max_bytes=$((10 * 1024 * 1024))

# The training's settings. Changing any of them changes the model: run with
# --update-hash and say why in the commit.
# CBOW learnt the closer neighbours here (of 34 pairs of words that mean
# one thing, the partner ranked 65th among 46,000 tokens, geometric mean,
# against 324th for skip-gram), in a quarter of the time; character n-grams
# (-maxn 0 turns them off) put spellings before meanings.
train_args=(cbow -dim 128 -epoch 20 -ws 8 -minCount 3 -maxn 0 -neg 5 -thread 1 -seed 1)
# Retrofitting (build -wordnet) then pulls each token's vector toward the
# words WordNet relates to it (synonyms, similar adjectives, derivations,
# a form and its lemma), through the most frequent meaning of each word
# only, keeping twice as much of its own vector (-alpha 2): of 36 pairs,
# the partner's median rank went from 55th to 32nd among 89,000 tokens.
# 96 dimensions rather than 64 found more answers by meaning alone in the
# search evaluation (recall@5 .125 against .100), in a 9.9 MB table.
build_args=(-vocab 90000 -dim 96 -a 1e-3 -wordnet /usr/share/wordnet -senses 1 -relations '&,+' -alpha 2 -retrofit 10)

mkdir -p "$work"
extra_args=()
for e in "${extra[@]}"; do
	extra_args+=(-extra "$e")
	case $(realpath -m -- "$e")/ in
	"$(realpath -m -- "$repo/search/testdata")"/*)
		echo "train.sh: refusing $e: search/testdata holds the evaluation, which the model must not learn from" >&2
		exit 1 ;;
	esac
done

step() { printf 'train.sh: %s\n' "$*" >&2; }
go build -o "$work/prep" ./scripts/model/prep
go build -o "$work/build" ./scripts/model/build

step "installing the pinned packages"
mapfile -t pins < <("$work/prep" -packages)
missing=()
for p in "${pins[@]}"; do
	if [ "$(dpkg-query -W -f='${Version}' "${p%%=*}" 2>/dev/null || true)" != "${p#*=}" ]; then
		missing+=("$p")
	fi
done
if [ ${#missing[@]} -gt 0 ]; then
	apt-get update -qq
	DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
fi

start=$(date +%s)
step "preparing the training text in $work"
"$work/prep" -repo "$repo" -out "$work/corpus.txt" -counts "$work/counts.tsv" "${extra_args[@]}"

step "training: fasttext ${train_args[*]}"
t0=$(date +%s)
nice -n 10 fasttext "${train_args[@]}" -input "$work/corpus.txt" -output "$work/vectors" -verbose 1 >&2
t1=$(date +%s)
rm -f "$work/vectors.bin" # the subword buckets: large, and not used

step "building the table: ${build_args[*]}"
"$work/build" -vec "$work/vectors.vec" -counts "$work/counts.tsv" -out "$work/default.pqemb" \
	"${build_args[@]}" -training "fasttext 0.9.2 ${train_args[*]}; build ${build_args[*]}"
end=$(date +%s)

size=$(stat -c %s "$work/default.pqemb")
if [ "$size" -gt "$max_bytes" ]; then
	echo "train.sh: the model is $size bytes, over the $max_bytes planq allows" >&2
	exit 1
fi
got=$(sha256sum "$work/default.pqemb" | cut -d' ' -f1)
want=$(cut -d' ' -f1 "$hashfile" 2>/dev/null || true)
step "model: $size bytes, sha256 $got; training $((t1 - t0)) s, all $((end - start)) s"
if [ "$got" != "$want" ]; then
	if [ $update_hash -eq 0 ]; then
		echo "train.sh: the model's sha256 is $got, not the recorded ${want:-(none)}" >&2
		echo "train.sh: hint: it is in $work/default.pqemb; if the change is meant, run again with --update-hash" >&2
		exit 1
	fi
	echo "$got  default.pqemb" >"$hashfile"
	step "recorded the new hash in $hashfile"
fi
cp "$work/default.pqemb" "$out"
step "wrote $out"
