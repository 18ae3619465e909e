# Shared by the tests that kill a one-shot run with SIGKILL part way (annotate and book with
# Stockfish): source it after defining epdd, args (the command's arguments), q (a query on a
# store), fail and total (the job's items).
#
# kill_when_done N OUTPUT [SETTLE]: runs "$epdd" "${args[@]}" --store k.db -o OUTPUT in the
# background, waits until k.db has N items committed (polled: WAL lets a reader in), SETTLE
# seconds more (annotate: into the next game), kills it with SIGKILL, and checks that the store is
# whole and that the interrupted run wrote no OUTPUT.
kill_when_done() {
  "$epdd" "${args[@]}" --store k.db -o "$2" > /dev/null 2>&1 &
  local pid=$!
  while kill -0 "$pid" 2>/dev/null; do
    [ "$(q k.db 'select done from jobs' 2>/dev/null || echo 0)" -ge "$1" ] 2>/dev/null && break
    sleep 0.02
  done
  sleep "${3:-0}"
  kill -9 "$pid" 2>/dev/null || true
  wait "$pid" 2>/dev/null || true
  [ "$(q k.db 'pragma integrity_check')" = ok ] || fail "store damaged after SIGKILL"
  [ ! -e "$2" ] || fail "an interrupted run wrote its output"
  echo "SIGKILL with $(q k.db 'select done from jobs') of $total items committed (aimed at $1)"
}
