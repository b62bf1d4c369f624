#!/bin/sh
# check.sh verifies this held-out evaluation corpus against a memoree binary:
#   - every note is under 3 KiB, valid UTF-8 and not flagged by `memoree scan`;
#   - manifest times are strictly increasing and every note is listed once;
#   - applying the notes in manifest order with MEMOREE_NOW stores each one as
#     an artifact whose hash is the SHA-256 of the file's bytes, and
#     `artifact show` reads the same bytes back;
#   - every query line is well formed, no query appears twice, and every
#     answers/stale prefix names exactly one stored artifact;
#   - in every update query the stale notes were applied before every answer;
#   - every tag has at least 15 queries.
# It runs no retrieval: it only applies notes and reads them back.
# Usage: testdata/eval-work/check.sh /path/to/memoree
# Needs jq and sha256sum (or shasum). Exits 0 when everything holds.
set -eu

bin=${1:?usage: check.sh /path/to/memoree}
case $bin in /*) ;; *) bin=$(pwd)/$bin ;; esac
cd "$(dirname "$0")"

command -v jq >/dev/null || { echo "check.sh: jq is required" >&2; exit 2; }
if command -v sha256sum >/dev/null; then
	sha() { sha256sum "$1" | cut -d' ' -f1; }
else
	sha() { shasum -a 256 "$1" | cut -d' ' -f1; }
fi

home=$(mktemp -d "${TMPDIR:-/tmp}/memoree-eval-work.XXXXXX")
trap 'rm -rf "$home"' EXIT
chmod 700 "$home"
export MEMOREE_HOME="$home/data"

fail=0
bad() { echo "FAIL: $*" >&2; fail=1; }

# Notes and manifest. hashes holds "hash order file" per applied note.
: >"$home/hashes"
prev=""
n=0
while IFS= read -r line; do
	file=$(printf '%s' "$line" | jq -er .file)
	time=$(printf '%s' "$line" | jq -er .time)
	n=$((n + 1))
	[ -f "$file" ] || { bad "$file: listed in manifest but missing"; continue; }
	if [ -n "$prev" ] && ! expr "$time" \> "$prev" >/dev/null; then
		bad "$file: time $time is not after $prev"
	fi
	prev=$time
	size=$(wc -c <"$file" | tr -d ' ')
	[ "$size" -lt 3072 ] || bad "$file: $size bytes, must be under 3 KiB"
	iconv -f UTF-8 -t UTF-8 "$file" >/dev/null 2>&1 || bad "$file: not valid UTF-8"
	if ! "$bin" scan --file "$file" >"$home/scan.out" 2>&1; then
		bad "$file: flagged by the secret scan"
		cat "$home/scan.out" >&2
	fi
	want=$(sha "$file")
	got=$(MEMOREE_NOW=$time "$bin" remember --apply --json --file "$file" | jq -er .artifact) ||
		{ bad "$file: remember --apply failed"; continue; }
	[ "$got" = "$want" ] || bad "$file: artifact $got, but sha256 of the file is $want"
	"$bin" artifact show "$want" >"$home/show.out" || bad "$file: artifact show $want failed"
	cmp -s "$file" "$home/show.out" || bad "$file: artifact show does not return the file's bytes"
	echo "$want $n $file" >>"$home/hashes"
done <manifest.jsonl

listed=$(jq -r .file manifest.jsonl | sort)
present=$(ls notes/* | sort)
[ "$listed" = "$present" ] || bad "manifest.jsonl and notes/ do not list the same files"
[ "$(echo "$listed" | uniq -d)" = "" ] || bad "manifest.jsonl lists a file twice"
[ "$n" -ge 90 ] || bad "only $n notes, want at least 90"

# order PREFIX prints the apply position of the one note whose hash starts with PREFIX.
order() { grep "^$1" "$home/hashes" | cut -d' ' -f2; }

# Queries.
q=queries.jsonl
tags="keyword stem case diacritic identifier syntax update heading conversation paraphrase none-offtopic none-overlap"
[ -f "$q" ] || { echo "check.sh: $q missing" >&2; exit 1; }
lines=$(wc -l <"$q" | tr -d ' ')
[ "$lines" -ge 240 ] || bad "$q: $lines queries, want at least 240"
dups=$(jq -r .query "$q" | sort | uniq -d)
[ -z "$dups" ] || bad "$q: queries listed twice: $dups"
ln=0
while IFS= read -r line; do
	ln=$((ln + 1))
	ok=$(printf '%s' "$line" | jq -r '
		(.query | type == "string" and length > 0) and
		(.expect == "claim" or .expect == "none") and
		(.answers | type == "array") and
		((.expect == "none") == (.answers | length == 0)) and
		((.tag | startswith("none-")) == (.expect == "none")) and
		((.tag == "update") == has("stale")) and
		(if has("stale") then (.stale | type == "array" and length > 0) else true end)' 2>/dev/null) || ok=false
	[ "$ok" = true ] || { bad "$q:$ln: malformed query line"; continue; }
	tag=$(printf '%s' "$line" | jq -r .tag)
	case " $tags " in *" $tag "*) ;; *) bad "$q:$ln: unknown tag $tag" ;; esac
	for p in $(printf '%s' "$line" | jq -r '(.answers + (.stale // []))[]'); do
		expr "$p" : '[0-9a-f]\{12\}$' >/dev/null || { bad "$q:$ln: $p is not a 12-hex prefix"; continue; }
		m=$(grep -c "^$p" "$home/hashes" || true)
		[ "$m" -eq 1 ] || bad "$q:$ln: prefix $p matches $m artifacts"
	done
	if [ "$tag" = update ]; then
		for s in $(printf '%s' "$line" | jq -r '.stale[]'); do
			for a in $(printf '%s' "$line" | jq -r '.answers[]'); do
				so=$(order "$s") ao=$(order "$a")
				[ -n "$so" ] && [ -n "$ao" ] && [ "$so" -lt "$ao" ] ||
					bad "$q:$ln: stale note $s is not applied before answer $a"
			done
		done
	fi
done <"$q"
for t in $tags; do
	c=$(jq -r .tag "$q" | grep -cx -- "$t" || true)
	[ "$c" -ge 15 ] || bad "$q: tag $t has $c queries, want at least 15"
done

if [ "$fail" -ne 0 ]; then
	echo "check.sh: corpus check failed" >&2
	exit 1
fi
echo "check.sh: $n notes and $lines queries ok"
