#!/usr/bin/env bash
# annotate --player NAME that no game's White or Black tag names (issue 39, item 9: it searched
# every position and judged nothing, without a word): refused before any search, exit 2, with the
# file and the name, on the command line (a file and standard input) and through submit. Names
# are compared as the filter compares them ("Carlsen,Magnus" is "carlsen, magnus"); a name in a
# comment or in another tag is not a player's.
#
#   player_refused_test.sh EPDD FAKE_ENGINE
source "$(dirname "$0")/../lib/common.sh" "$1" "$2"
cat > games.pgn <<'PGN'
[Event "Nobody, Somebody"]
[White "Carlsen,Magnus"]
[Black "Caruana, Fabiano"]
[Annotator "Nobody, Somebody"]
[Result "*"]

{ [White "Nobody, Somebody"] } 1. e4 e5 2. Nf3 *

[Event "t"]
[White "Nepo"]
[Black "Ding,  Liren"]
[Result "*"]

1. d4 d5 *
PGN
refused() {  # refused WHERE STATUS ERRFILE LOG
  [ "$2" = 2 ] || fail "$1: exit status $2, not 2 ($(cat "$3"))"
  grep -qF -- "--player 'Nobody, Somebody': no game's White or Black tag names this player" "$3" ||
    fail "$1: the message does not say it: $(cat "$3")"
  [ -z "$4" ] || ! grep -qE '^go( |$)' "$4" 2>/dev/null || fail "$1: the engine searched before the refusal"
}
status=0
"$epdd" annotate games.pgn -o out.pgn --store s.db --depth 2 --engine "$fake" --engine-arg=--log="$work/file.log" \
  --player "Nobody, Somebody" 2> file.err || status=$?
refused "a file" "$status" file.err file.log
grep -qF "games.pgn: --player" file.err || fail "the message does not name the file: $(cat file.err)"
[ ! -e out.pgn ] || fail "an output was written"
status=0
"$epdd" annotate - -o out.pgn --store s.db --depth 2 --engine "$fake" --engine-arg=--log="$work/stdin.log" \
  --player "Nobody, Somebody" < games.pgn 2> stdin.err || status=$?
refused "standard input" "$status" stdin.err stdin.log
status=0
"$epdd" submit annotate games.pgn --store q.db --depth 2 --engine fake --player "Nobody, Somebody" -o q.pgn \
  2> submit.err || status=$?
refused "submit" "$status" submit.err ""
# Each side's name, spelt another way, is a player: the run searches and judges.
for name in "carlsen, magnus" "Ding, Liren"; do
  "$epdd" annotate games.pgn -o out.pgn --store s.db --depth 2 --engine "$fake" --player "$name" 2> ok.err ||
    fail "--player \"$name\": exit status $? ($(cat ok.err))"
  grep -q '%eval' out.pgn || fail "--player \"$name\": nothing annotated"
  rm -f out.pgn
done
finish "a --player that names no game's White or Black is refused before any search"
