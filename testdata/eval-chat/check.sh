#!/bin/sh
# check.sh verifies the conversation corpus against a memoree binary:
#   - every note is one line, under 3 KiB, valid UTF-8 and not flagged by
#     `memoree scan`;
#   - manifest times are strictly increasing, every note is listed once, and
#     each time falls on the date the turn's speaker prefix names;
#   - applying the notes in manifest order with MEMOREE_NOW stores each one as
#     an artifact whose hash is the SHA-256 of the file's bytes, and
#     `artifact show` reads the same bytes back;
#   - every query line is well formed, no query is listed twice, and every
#     answers/stale prefix names exactly one stored artifact;
#   - every tag used has at least 14 queries.
# It runs no retrieval. Usage: testdata/eval-chat/check.sh /path/to/memoree
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

home=$(mktemp -d "${TMPDIR:-/tmp}/memoree-eval-chat.XXXXXX")
trap 'rm -rf "$home"' EXIT
chmod 700 "$home"
export MEMOREE_HOME="$home/data"

fail=0
bad() { echo "FAIL: $*" >&2; fail=1; }

months="January February March April May June July August September October November December"

# Notes and manifest.
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
	[ "$(wc -l <"$file" | tr -d ' ')" -eq 1 ] || bad "$file: must hold exactly one line"
	iconv -f UTF-8 -t UTF-8 "$file" >/dev/null 2>&1 || bad "$file: not valid UTF-8"
	# The speaker prefix "Name (D Month YYYY): " must name the manifest date.
	y=${time%%-*}
	m=$(echo "$time" | cut -c6-7)
	d=$(echo "$time" | cut -c9-10)
	month=$(echo "$months" | cut -d' ' -f"$((1${m} - 100))")
	want_date="($((1${d} - 100)) $month $y): "
	head -n 1 "$file" | grep -qF -- "$want_date" || bad "$file: prefix does not name $want_date"
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
	echo "$want $file" >>"$home/hashes"
done <manifest.jsonl

listed=$(jq -r .file manifest.jsonl | sort)
present=$(ls notes/* | sort)
[ "$listed" = "$present" ] || bad "manifest.jsonl and notes/ do not list the same files"
[ "$(echo "$listed" | uniq -d)" = "" ] || bad "manifest.jsonl lists a file twice"
[ "$n" -ge 200 ] || bad "only $n notes, want at least 200"

# Queries.
q=queries.jsonl
tags="keyword stem case diacritic update conversation paraphrase none-offtopic none-overlap"
lines=$(wc -l <"$q" | tr -d ' ')
[ "$lines" -ge 220 ] || bad "$q: $lines queries, want at least 220"
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
		(if has("stale") then (.stale | type == "array" and length > 0) else true end) and
		(((.answers + (.stale // [])) | length) == ((.answers + (.stale // [])) | unique | length))' 2>/dev/null) || ok=false
	[ "$ok" = true ] || { bad "$q:$ln: malformed query line"; continue; }
	tag=$(printf '%s' "$line" | jq -r .tag)
	case " $tags " in *" $tag "*) ;; *) bad "$q:$ln: unknown tag $tag" ;; esac
	for p in $(printf '%s' "$line" | jq -r '(.answers + (.stale // []))[]'); do
		expr "$p" : '[0-9a-f]\{12\}$' >/dev/null || { bad "$q:$ln: $p is not a 12-hex prefix"; continue; }
		c=$(grep -c "^$p" "$home/hashes" || true)
		[ "$c" -eq 1 ] || bad "$q:$ln: prefix $p matches $c artifacts"
	done
done <"$q"
[ "$(jq -r .query "$q" | sort | uniq -d)" = "" ] || bad "$q: a query is listed twice"
for t in $tags; do
	c=$(jq -r .tag "$q" | grep -cx -- "$t" || true)
	[ "$c" -ge 14 ] || bad "$q: tag $t has $c queries, want at least 14"
done

if [ "$fail" -ne 0 ]; then
	echo "check.sh: corpus check failed" >&2
	exit 1
fi
echo "check.sh: $n notes and $lines queries ok"
