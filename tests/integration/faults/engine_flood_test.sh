#!/usr/bin/env bash
# Fault injection (issue 21): engines that misbehave with their pipes, written here as small sh
# scripts: one that answers `go` with 1 GB of info lines as fast as it can (never a bestmove),
# one that answers it with 1 GB of one endless line (no newline), one that never reads its
# standard input (it prints uciok and readyok up front, then sleeps), and one that never reads
# and never answers. For each, `epdd analyse` of one position fails the search in time with the
# right reason, its memory stays bounded (VmHWM of the epdd process, sampled from /proc, under
# 200 MB) and no engine process (nor a child of one: the flood's yes, head, tr) is left.
#   engine_flood_test.sh EPDD
set -euo pipefail
epdd=$(realpath "$1")
work=$(mktemp -d)
trap 'kill -9 $(jobs -p) 2>/dev/null || true; rm -rf "$work"' EXIT
cd "$work"
fail() { echo "FAIL: $*" >&2; exit 1; }
# Under AddressSanitizer freed memory waits in a quarantine of 256 MB before it is reused, so a
# flood of short-lived lines alone lifts VmHWM past 500 MB; a small quarantine measures epdd's own
# memory (ASan's shadow and a baseline of about 125 MB remain). Ignored by a build without ASan.
export ASAN_OPTIONS="${ASAN_OPTIONS:+$ASAN_OPTIONS:}quarantine_size_mb=8"
# The engines' helpers under names of this directory, so that a leftover one is found by path.
for tool in yes head tr sleep; do cp "$(command -v $tool)" "$work/$tool"; done
echo 'r1b2rk1/1pp3pp/p1n1p3/3p4/1b1P1q2/2NBPN2/PPPQ1PPP/R4RK1 w - - bm Nb5; id "flood.1";' > in.epd

# engine NAME BODY: an sh engine answering uci and isready, and `go` with BODY.
engine() {
  cat > "$1.sh" <<SH
#!/bin/sh
while read -r line; do
  case "\$line" in
    uci) echo "id name $1"; echo uciok ;;
    isready) echo readyok ;;
    go*) $2 ;;
    quit) exit 0 ;;
  esac
done
SH
  chmod +x "$1.sh"
}
engine lines "$work/yes 'info depth 1 seldepth 1 score cp 0 nodes 1 nps 1 time 1 pv e2e4' | $work/head -c 1000000000"
engine endless "$work/head -c 1000000000 /dev/zero | $work/tr '\\\\0' x"
printf '#!/bin/sh\necho "id name deaf"\necho uciok\necho readyok\nexec %s 1000\n' "$work/sleep" > deaf.sh
printf '#!/bin/sh\nexec %s 1000\n' "$work/sleep" > mute.sh
chmod +x deaf.sh mute.sh
{
  for e in lines endless deaf mute; do printf '[[engine]]\nname = "%s"\ncommand = "%s/%s.sh"\n' "$e" "$work" "$e"; done
} > engines.toml

# run ENGINE REASON SECONDS: analyse with ENGINE fails with REASON within SECONDS; memory and
# processes checked.
run() {
  local started=$SECONDS hwm=0 rc=0
  "$epdd" analyse in.epd --config engines.toml --engine "$1" --movetime 100 --timeout-scale 0.3 --store "$1.db" -o "$1.out" \
    > "$1.log" 2>&1 &
  local pid=$!
  while kill -0 "$pid" 2>/dev/null; do
    local now
    now=$(awk '/^VmHWM/ { print $2 }' "/proc/$pid/status" 2>/dev/null || true)
    [ -n "$now" ] && hwm=$now
    [ $((SECONDS - started)) -le $(($3 + 30)) ] || { kill -9 "$pid"; fail "$1: epdd still runs after $(($3 + 30)) s"; }
    sleep 0.05
  done
  wait "$pid" || rc=$?
  local took=$((SECONDS - started))
  echo "$1: exit $rc after $took s, epdd VmHWM $((hwm / 1024)) MB: $(grep -m1 -E "in.epd:1|epdd analyse:" "$1.log")"
  [ "$rc" != 0 ] || fail "$1: analyse succeeded"
  grep -Eq "$2" "$1.log" || fail "$1: the reason is not '$2': $(tail -3 "$1.log")"
  [ "$took" -le "$3" ] || fail "$1: took $took s (more than $3 s)"
  [ "$hwm" -gt 0 ] && [ "$hwm" -lt $((200 * 1024)) ] || fail "$1: epdd's VmHWM was $hwm kB"
  sleep 0.2
  local left
  left=$(pgrep -af "$work/" || true)
  [ -z "$left" ] || fail "$1: processes left: $left"
}
run lines "timeout" 15
run endless "longer than" 15
run deaf "timeout" 15
run mute "no uciok|handshake" 15
echo "PASS"
