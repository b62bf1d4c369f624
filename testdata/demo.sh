#!/bin/sh
# The main flow of memoree on sample notes, in a throwaway data directory. Run it with 'make demo'.
set -eu
: "${BIN:=memoree}"
MEMOREE_HOME=$(mktemp -d "${TMPDIR:-/tmp}/memoree-demo.XXXXXX")
export MEMOREE_HOME
trap 'rm -rf "$MEMOREE_HOME"' EXIT
step() { printf '\n$ %s\n' "$*"; }

step "printf '%s' 'Storage recall is implemented; next verify the regression corpus.' | memoree checkpoint --session S1 --task retrieval-improvement -"
printf '%s' 'Storage recall is implemented; next verify the regression corpus.' |
	"$BIN" checkpoint --session S1 --task retrieval-improvement -

step "memoree checkpoint --session S2 --file note-with-a-secret.txt   # flagged, still staged"
printf 'Deploy works again.\nexport AWS_ACCESS_KEY_ID=AKIA%s\n' "$(printf 'Q7X2Z4R5T6Y7U6W3')" >"$MEMOREE_HOME/note.txt"
"$BIN" checkpoint --session S2 --task deploy --file "$MEMOREE_HOME/note.txt"

step "memoree pending list"
"$BIN" pending list

id=$("$BIN" pending list --session S1 | cut -f1)
step "memoree pending show $id"
"$BIN" pending show "$id"

step "memoree pending preview $id   # what apply would store; writes nothing"
"$BIN" pending preview "$id"

step "memoree pending apply $id"
"$BIN" pending apply "$id"

step "memoree recall \"regression corpus\""
"$BIN" recall "regression corpus"

step "echo 'We deploy from the release branch only.' | memoree remember --apply -"
echo 'We deploy from the release branch only.' | "$BIN" remember --apply -

step "memoree context build --query \"recall work\" --budget 1500"
"$BIN" context build --query "recall work" --budget 1500

id2=$("$BIN" pending list --session S2 | cut -f1)
step "memoree pending apply $id2   # flagged: refused, exit 3"
"$BIN" pending apply "$id2" || echo "(exit status $?)"

step "memoree pending drop $id2"
"$BIN" pending drop "$id2"
