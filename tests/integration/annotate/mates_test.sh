#!/usr/bin/env bash
# The mate cases of `epdd annotate`'s judgement (issue 16, point 2), with the fake engine
# scripted position by position (mates.script) on composed games (mates.pgn, where each game
# says which case it is and what the rule demands):
# - for the lichess rule and for --judge cp:50,100,300, the output is pinned byte for byte in
#   tests/golden/annotate/ (and the lichess run's JSON summary);
# - annotate_check recomputes every NAG from the written evaluations (an oracle of its own);
# - and this script checks, ply by ply, the [%eval], the NAG and the words of the judgement
#   against the table below, written from the rule by hand, so that neither the golden files
#   nor the two implementations can agree on a wrong answer unnoticed.
#
#   mates_test.sh EPDD FAKE_ENGINE ANNOTATE_CHECK
# EPDD_UPDATE_GOLDEN=1 rewrites the golden files instead of comparing (review the diff).
set -euo pipefail
epdd=$(realpath "$1")
fake=$(realpath "$2")
check=$(realpath "$3")
here=$(cd "$(dirname "$0")" && pwd)
games="$here/mates.pgn"
source "$here/golden.sh"

# plies FILE: one line per position of each game's main line: the game (the first word of its
# Event tag), the ply (0: the start), the move, its [%eval] argument, its move-assessment NAG
# and the words of its judgement comment (created: "Checkmate is now unavoidable", lost: "Lost
# forced checkmate sequence", or the judgement's own word in lower case); "-" where none.
plies() {
  awk '
    function cell(s) { return s == "" ? "-" : s }
    function comment(c,   m) {
      if (depth > 0) return
      if (ev[ply] == "" && match(c, /\[%eval [^]]*\]/)) ev[ply] = substr(c, RSTART + 7, RLENGTH - 8)
      if (c !~ /^\(/ || index(c, " \342\206\222 ") == 0) return
      if (index(c, ") Checkmate is now unavoidable.")) m = "created"
      else if (index(c, ") Lost forced checkmate sequence.")) m = "lost"
      else if (match(c, /\) (Blunder|Mistake|Inaccuracy)\./)) m = tolower(substr(c, RSTART + 2, RLENGTH - 3))
      else m = "?"
      words[ply] = m
    }
    function token(t) {
      if (t == "" || depth > 0 || t ~ /^[0-9]+\.+$/ || t ~ /^(1-0|0-1|1\/2-1\/2|\*)$/) return
      if (t ~ /^\$[1-6]$/) { nag[ply] = nag[ply] t; return }
      if (t ~ /^\$/) return
      san[++ply] = t
    }
    function flush(   i, c, j, n, tok) {
      if (game == "") return
      n = length(text)
      for (i = 1; i <= n; i++) {
        c = substr(text, i, 1)
        if (c == "{") {
          token(tok); tok = ""
          j = index(substr(text, i + 1), "}")
          comment(substr(text, i + 1, j - 1))
          i += j
        } else if (c == "(" || c == ")" || c == " ") {
          token(tok); tok = ""
          depth += c == "(" ? 1 : c == ")" ? -1 : 0
        } else {
          tok = tok c
        }
      }
      token(tok)
      for (i = 0; i <= ply; i++) print game, i, (i ? san[i] : "-"), cell(ev[i]), cell(nag[i]), cell(words[i])
      split("", san); split("", ev); split("", nag); split("", words)
      text = ""; ply = 0; depth = 0
    }
    BEGIN { ply = 0; depth = 0 }
    /^\[Event "/ { flush(); game = substr($2, 2) }
    /^[[%]/ { next }
    { text = text " " $0 }
    END { flush() }
  ' "$1"
}

# What the rules demand, from mates.pgn's notes: game, ply, move, [%eval], then the NAG and the
# words for the lichess rule, then for cp:50,100,300.
cat > expected.txt <<'TABLE'
01 0 - 0.40,3          - -        - -
01 1 f3 -0.75,3        $2 mistake $2 mistake
01 2 e5 -0.76,3        - -        - -
01 3 g4 #-1,3          $4 created $4 created
01 4 Qh4# #-0          - -        - -
02 0 - 0.40,3          - -        - -
02 1 e4 0.27,3         - -        - -
02 2 e5 0.32,3         - -        - -
02 3 Qh5 -0.19,3       - -        $6 inaccuracy
02 4 Nc6 -0.24,3       - -        - -
02 5 Bc4 -0.34,3       - -        - -
02 6 Nf6 #1,3          $4 created $4 created
02 7 Qxf7# #0          - -        - -
03 0 - #1,3            - -        - -
03 1 h3 3.06,3         $4 lost    $4 lost
03 2 a6 #1,3           $4 created $4 created
03 3 Re8# #0           - -        - -
04 0 - #1,3            - -        - -
04 1 h3 7.00,3         $4 lost    $4 lost
04 2 a6 #1,3           $4 created $4 created
04 3 Re8# #0           - -        - -
05 0 - #1,3            - -        - -
05 1 h3 8.35,3         $2 lost    $2 lost
05 2 a6 #1,3           $2 created $2 created
05 3 Re8# #0           - -        - -
06 0 - #1,3            - -        - -
06 1 h3 9.99,3         $2 lost    - -
06 2 a6 #1,3           $2 created - -
06 3 Re8# #0           - -        - -
07 0 - #1,3            - -        - -
07 1 h3 15.00,3        $6 lost    - -
07 2 a6 #1,3           $6 created - -
07 3 Re8# #0           - -        - -
08 0 - #-1,3           - -        - -
08 1 h6 -3.17,3        $4 lost    $4 lost
08 2 a3 #-1,3          $4 created $4 created
08 3 Re1# #-0          - -        - -
09 0 - #-1,3           - -        - -
09 1 h6 -7.01,3        $2 lost    $2 lost
09 2 a3 #-1,3          $2 created $2 created
09 3 Re1# #-0          - -        - -
10 0 - #-1,3           - -        - -
10 1 h6 -8.00,3        $2 lost    $2 lost
10 2 a3 #-1,3          $2 created $2 created
10 3 Re1# #-0          - -        - -
11 0 - #-1,3           - -        - -
11 1 h6 -9.50,3        $2 lost    $6 lost
11 2 a3 #-1,3          $2 created $6 created
11 3 Re1# #-0          - -        - -
12 0 - #-1,3           - -        - -
12 1 h6 -10.00,3       $6 lost    - -
12 2 a3 #-1,3          $6 created - -
12 3 Re1# #-0          - -        - -
13 0 - #-1,3           - -        - -
13 1 h6 -15.00,3       $6 lost    - -
13 2 a3 #-1,3          $6 created - -
13 3 Re1# #-0          - -        - -
14 0 - #1,3            - -        - -
14 1 a3 #-1,3          $4 lost    $4 lost
14 2 Qxg2# #-0         - -        - -
15 0 - #-1,3           - -        - -
15 1 a6 #1,3           $4 lost    $4 lost
15 2 Qxg7# #0          - -        - -
16 0 - #2,3            - -        - -
16 1 Kg2 #3,3          - -        - -
16 2 Kg7 #3,3          - -        - -
16 3 Ra6 #2,3          - -        - -
16 4 Kg8 #2,3          - -        - -
16 5 Rb7 #1,3          - -        - -
16 6 Kh8 #1,3          - -        - -
16 7 Ra8# #0           - -        - -
17 0 - #-2,3           - -        - -
17 1 Kg7 #-3,3         - -        - -
17 2 Kg2 #-3,3         - -        - -
17 3 Ra3 #-2,3         - -        - -
17 4 Kg1 #-2,3         - -        - -
17 5 Rb2 #-1,3         - -        - -
17 6 Kh1 #-1,3         - -        - -
17 7 Ra1# #-0          - -        - -
18 0 - #-4,3           - -        - -
18 1 f3 -6.59,3        - -        - -
18 2 Qe3 6.00,3        $4 blunder $4 blunder
18 3 Rd8+ #1,3         - -        - -
18 4 Qe8 #1,3          - -        - -
18 5 Rxe8# #0          - -        - -
TABLE

# run NAME ARGS...: annotates mates.pgn with the scripted engine into NAME.pgn.
cat > engines.toml <<TOML
[[engine]]
name = "scripted"
command = "$fake"
args = ["--script", "$here/mates.script"]
TOML
run() {
  local name=$1
  shift
  "$epdd" annotate "$games" --config engines.toml --engine scripted --depth 3 --store mates.db -o "$name.pgn" "$@" \
    2> "$name.log" || fail "annotate $name: exit status $?: $(tail -3 "$name.log")"
}

run mates --json mates.json
run mates-cp --judge cp:50,100,300
# 85 positions, 18 of them final checkmates, scored on the board: the engine is asked for the
# other 67, the start position once for games 01 and 02. (The cp: run takes the first run's.)
grep -q "66 positions searched now, 1 from the cache" mates.log ||
  fail "the engine was not asked for exactly the positions that are not checkmates: $(tail -1 mates.log)"
for name in mates mates-cp; do
  same "$name.pgn" "$name.pgn"
  judge=lichess column=5
  if [ "$name" = mates-cp ]; then judge=cp:50,100,300 column=7; fi
  "$check" "$name.pgn" "$games" --judge "$judge" || fail "annotate_check on $name.pgn ($judge)"
  awk -v c="$column" '{ print $1, $2, $3, $4, $c, $(c + 1) }' expected.txt > "$name.expected"
  plies "$name.pgn" > "$name.plies"
  diff -u "$name.expected" "$name.plies" >&2 || fail "$name.pgn: evaluations, NAGs or judgements other than the rule's ($judge; above: - the rule, + written)"
done
same mates.json mates.json

# The words around the mate cases, in full, as lichess writes them (the lines are joined: export
# format wraps them).
tr '\n' ' ' < mates.pgn > mates.joined
for text in '2. g4 $4 {[%eval #-1,3]} {(-0.76 → Mate in 1) Checkmate is now unavoidable. Nc3 was best.}' \
            '1. h3 $4 {[%eval 3.06,3]} {(Mate in 1 → 3.06) Lost forced checkmate sequence. Re8# was best.} (1. Re8#)' \
            '1... h6 $6 {[%eval -10.00,3]} {(Mate in 1 → -10.00) Lost forced checkmate sequence. Re1# was best.}' \
            '1. a3 $4 {[%eval #-1,3]} {(Mate in 1 → Mate in 1) Lost forced checkmate sequence. Re8# was best.}'; do
  grep -qF -- "$text" mates.joined || fail "mates.pgn does not have: $text"
done

# Round trip (issue 35, item 2): the lichess run's output judged from its own evaluations, with
# no engine at all (one that cannot start is named), gives the same NAGs, comments, variations
# and summary; only the Annotator tag says where the evaluations came from.
"$epdd" annotate mates.pgn --evals-from-input only --engine /nonexistent/engine --store again.db -o again.pgn \
  --json again.json 2> again.log || fail "--evals-from-input only: exit status $?: $(tail -3 again.log)"
grep -q "^epdd annotate: 0 positions searched now, 0 from the cache" again.log || fail "--evals-from-input only searched: $(tail -1 again.log)"
grep -q "^note: 85 positions evaluated from the games' own comments" again.log ||
  fail "--evals-from-input only: not every position from the input: $(grep '^note' again.log | tail -2)"
diff <(grep -v '^\[Annotator ' mates.pgn) <(grep -v '^\[Annotator ' again.pgn) >&2 ||
  fail "--evals-from-input only on our own output: other NAGs, comments or lines (above)"
grep -c '^\[Annotator "epdd, the input.s evaluations"\]$' again.pgn | grep -qx 18 || fail "--evals-from-input only: the Annotator tag"
# A one-shot run that searches nothing makes no job (issue 35, item 5): the file is read once and
# written as it is read; the store is not even opened.
[ ! -e again.db ] || fail "--evals-from-input only opened the store: $(ls again.db*)"
# The summaries are compared with the scripted engine's run over the same output (its tags are
# the output's: the first run added the roster's "?"s), from the store: nothing searched again.
"$epdd" annotate mates.pgn --config engines.toml --engine scripted --depth 3 --store mates.db -o rerun.pgn \
  --json rerun.json 2> rerun.log || fail "the rerun over our own output: exit status $?: $(tail -3 rerun.log)"
cmp -s mates.pgn rerun.pgn || fail "the scripted engine's rerun over its own output changed it"
# off (the default, given on the command line to undo a TOML setting): the engine's run.
"$epdd" annotate mates.pgn --config engines.toml --engine scripted --depth 3 --store mates.db --evals-from-input off \
  -o off.pgn 2> off.log || fail "--evals-from-input off: exit status $?: $(tail -3 off.log)"
cmp -s rerun.pgn off.pgn || fail "--evals-from-input off is not the engine's run"
! grep -q "evaluated from the games' own comments" off.log || fail "--evals-from-input off read the input's evaluations"
diff <(sed '/^note: /d; /^progress: /d; /positions searched now/d' rerun.log) <(sed '/^note: /d; /^progress: /d; /positions searched now/d' again.log) >&2 ||
  fail "--evals-from-input only: another summary (above)"
json_but_source() { sed '/^  "engine": /d; /^  "limits": /d; /^  "notes": /,$d' "$1"; }
diff <(json_but_source rerun.json) <(json_but_source again.json) >&2 || fail "--evals-from-input only: another JSON summary (above)"

# --import (issue 35, item 3): the games' positions analysed by `epdd analyse` (as EPD) answer
# the annotation: the same bytes as the searched run, with 0 searches.
"$epdd" pgn to-epd "$games" -o positions.epd 2> to-epd.log || fail "pgn to-epd: $(tail -2 to-epd.log)"
"$epdd" analyse positions.epd --config engines.toml --engine scripted --depth 3 --store analyse.db -q -o analysed.epd ||
  fail "analyse of the games' positions: exit status $?"
"$epdd" annotate "$games" --import analysed.epd --config engines.toml --engine scripted --depth 3 --store import.db \
  -o imported.pgn 2> imported.log || fail "annotate --import: exit status $?: $(tail -3 imported.log)"
grep -q "^epdd annotate: 0 positions searched now, 0 from the cache" imported.log || fail "annotate --import searched: $(tail -1 imported.log)"
grep -q "^note: 67 positions answered by --import, not searched$" imported.log ||
  fail "annotate --import: not the 67 positions that are not checkmates: $(grep '^note' imported.log | tail -1)"
cmp -s mates.pgn imported.pgn || fail "annotate --import: other bytes than the searched run's: $(diff mates.pgn imported.pgn | head -5)"

[ "$failed" = 0 ] && echo "annotate mates test passed"
exit $failed
