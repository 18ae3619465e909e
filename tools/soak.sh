#!/usr/bin/env bash
# tools/soak.sh: soak `epdd serve` (issue 21): a daemon with a 2-instance pool of the fake engine
# that crashes, hangs or answers garbage on a share of its searches, fed positions through the
# spool in many EPD files while a second process submits and cancels jobs and a third sends
# SIGHUP every few seconds; then checks that nothing was lost and that nothing leaked.
#
#   tools/soak.sh [--positions N] [--files N] [--fault-rate P] [--seed N] [--keep]
#     --positions N   positions fed through the spool (default 20000), from ../shared/data/suites
#     --files N       EPD files they are cut into (default 150)
#     --fault-rate P  share of the engine's searches that crash, hang or answer garbage (0.01)
#     --seed N        seed of the shuffle of the positions, the file sizes and the submit/cancel
#                     loop (default 1); the faults are drawn afresh by each engine process
#     --keep          keep the work directory (store, spool, logs, samples) for a look afterwards
#   e.g.  cmake --build build --target epdd fake_engine && tools/soak.sh     (about 4 minutes)
#         tools/soak.sh --positions 2000 --files 20 --fault-rate 0.05    (under a minute)
#
# Checks (each printed with PASS or FAIL): every spool file is in done/ with its output in outbox/
# (one output record per input record), or in failed/ with a non-empty NAME.error; the store holds
# each spool position once, positions in = results + failed items, every committed result has its
# cache entry, every failed item's position is one an engine faulted on (the fake engine's fault
# log names it), no position searched twice (cache searches <= 1), PRAGMA integrity_check is ok;
# every submitted job ended finished or cancelled; the daemon exits 0 on SIGTERM and no engine
# process is left (nor more than 4 alive at any sample); the daemon's VmRSS and open file
# descriptors, sampled from /proc every second, are flat: the last quarter's mean at most 20%
# (RSS) or 5 fds above the first quarter's (SQLite's page caches, about 2 MB per store connection,
# fill over the first minutes and then stay: a run much shorter than the default can fail the RSS
# check without a leak; /proc/PID/smaps shows the thread arenas stopping near 2 MB each). Prints
# the figures: positions, searches, cache hits, faults by kind, engine restarts, SIGHUPs, jobs
# submitted and cancelled, wall time, positions/s.
# Exit 0 when every check held, 1 when one did not, 2 on a usage or setup error.
# Environment: EPDD (default ROOT/build/cli/epdd), FAKE_ENGINE (default
# ROOT/build/tests/fake_engine/fake_engine), EPDD_SHARED_DATA (default ROOT/../shared/data).
set -uo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
EPDD=${EPDD:-$ROOT/build/cli/epdd}
FAKE=${FAKE_ENGINE:-$ROOT/build/tests/fake_engine/fake_engine}
DATA=${EPDD_SHARED_DATA:-$ROOT/../shared/data}
POSITIONS=20000 FILES=150 RATE=0.01 SEED=1 KEEP=
RSS_MARGIN_PCT=20 FD_MARGIN=5

usage() { awk 'NR > 1 && !/^#/ { exit } NR > 1 { sub(/^# ?/, ""); print }' "$0"; exit "${1:-2}"; }
die() { echo "soak.sh: $*" >&2; exit 2; }
while [ $# -gt 0 ]; do
  case $1 in
    --positions) POSITIONS=${2:-}; shift 2 || usage ;;
    --files) FILES=${2:-}; shift 2 || usage ;;
    --fault-rate) RATE=${2:-}; shift 2 || usage ;;
    --seed) SEED=${2:-}; shift 2 || usage ;;
    --keep) KEEP=1; shift ;;
    -h|--help) usage 0 ;;
    *) echo "soak.sh: unknown option '$1'" >&2; usage ;;
  esac
done
[[ $POSITIONS =~ ^[1-9][0-9]*$ ]] || die "--positions wants a positive number, not '$POSITIONS'"
[[ $FILES =~ ^[1-9][0-9]*$ && $FILES -le $POSITIONS ]] || die "--files wants a number from 1 to --positions, not '$FILES'"
[[ $RATE =~ ^(0(\.[0-9]+)?|1(\.0+)?)$ ]] || die "--fault-rate wants a probability from 0 to 1, not '$RATE'"
[[ $SEED =~ ^[0-9]+$ ]] || die "--seed wants a number, not '$SEED'"
[ -x "$EPDD" ] || die "no epdd at $EPDD (cmake --build build --target epdd, or set EPDD)"
[ -x "$FAKE" ] || die "no fake engine at $FAKE (cmake --build build --target fake_engine, or set FAKE_ENGINE)"
[ -d "$DATA/suites" ] || die "no shared data at $DATA (set EPDD_SHARED_DATA)"
command -v sqlite3 > /dev/null || die "needs sqlite3 (apt-get install sqlite3)"
EPDD=$(realpath "$EPDD") FAKE=$(realpath "$FAKE")

work=$(mktemp -d /tmp/epdd-soak.XXXXXX)
helpers=()
cleanup() {
  for p in "${helpers[@]}"; do kill "$p" 2>/dev/null; done
  [ -n "${daemon:-}" ] && kill -9 "$daemon" 2>/dev/null
  if [ -n "$KEEP" ]; then echo "work directory kept: $work"; else rm -rf "$work"; fi
}
trap cleanup EXIT
cd "$work" || die "cannot enter $work"
echo "soak: $POSITIONS positions in $FILES files, fault rate $RATE, seed $SEED; work directory $work"

failures=0
check() {  # check NAME CONDITION-STATUS DETAIL
  if [ "$2" = 0 ]; then echo "PASS  $1${3:+: $3}"; else echo "FAIL  $1${3:+: $3}"; failures=$((failures + 1)); fi
}
q() { sqlite3 -batch -noheader -cmd ".timeout 20000" epdd.db "$1"; }
seeded() { openssl enc -aes-256-ctr -pass "pass:$SEED" -nosalt < /dev/zero 2> /dev/null; }

# ---- the configuration: small timeouts, a hang is found by the search timeout -----------------
cat > epdd.toml <<TOML
[store]
location = "epdd.db"
[daemon]
lease_seconds = 10
poll_ms = 100
stop_deadline_seconds = 2
[spool]
directory = "spool"
settle_seconds = 1
engine = "fake"
depth = 3
[timeouts]
handshake = 5000
ready = 2000
new_game = 2000
search = 1000
stop = 500
quit = 500
terminate = 500
[logging]
level = "info"
[[engine]]
name = "fake"
command = "$FAKE"
args = ["--fault-rate", "$RATE", "--fault-log", "$work/faults.log"]
instances = 2
restarts = { max = 1000, window_seconds = 60 }
TOML

# ---- the input: the suites' records, shuffled and repeated, cut into files --------------------
cat "$DATA"/suites/*.epd | grep -v '^[[:space:]]*\(#.*\)\{0,1\}$' | shuf --random-source=<(seeded) > pool.epd
pool=$(wc -l < pool.epd)
mkdir -p staged
awk -v n="$POSITIONS" -v pool="$pool" 'BEGIN { while (i < n) { getline line < ARGV[1]; print line; i++; if (i % pool == 0) close(ARGV[1]) } }' pool.epd > all.epd
# File sizes: random cut points (seeded), at least one record per file.
seq 1 $((POSITIONS - 1)) | shuf --random-source=<(seeded) -n $((FILES - 1)) | sort -n > cuts.txt
awk -v files="$FILES" -v dir=staged '
  BEGIN { while ((getline c < "cuts.txt") > 0) cut[++k] = c; cut[files] = 1e18; f = 1 }
  { name = sprintf("%s/soak-%04d.epd", dir, f); print > name; if (NR == cut[f]) { close(name); f++ } }' all.epd
# A depth per file (sidecars, so that repeated positions are mostly new searches); every fourth
# file has none and takes [spool]'s depth.
for f in staged/*.epd; do
  i=$((10#$(basename "$f" .epd | cut -d- -f2)))
  [ $((i % 4)) = 2 ] || printf 'depth = %d\n' $((1 + i % 4)) > "${f%.epd}.toml"
done
[ "$(cat staged/*.epd | wc -l)" = "$POSITIONS" ] || die "the input files do not add up to $POSITIONS records"
# Files that cannot be jobs, one per 50 (at least one), fed among the others: each must land in
# failed/ with a reason.
bad_files=$(( (FILES + 49) / 50 ))
bad_names=()
for k in $(seq 1 "$bad_files"); do
  stem=staged/soak-$(printf %04d $(( k * 50 < FILES ? k * 50 : FILES )))-bad
  case $((k % 3)) in
    1) printf 'this is not EPD\n' > "$stem.epd" ;;
    2) printf '8/8/8/8/8/8/8/8 w - - id "no kings";\n' > "$stem.epd" ;;
    0) head -3 pool.epd > "$stem.epd"; printf 'depht = 3\n' > "$stem.toml" ;;
  esac
  bad_names+=("$(basename "$stem.epd")")
done

# ---- the daemon and its observers --------------------------------------------------------------
mkdir -p spool/inbox
start=$(date +%s.%N)
: > daemon.log
"$EPDD" serve --config epdd.toml > daemon.log 2>&1 &
daemon=$!
for _ in $(seq 1 100); do grep -q "engine fake:" daemon.log && break; sleep 0.1; done
grep -q "engine fake:" daemon.log || { cat daemon.log >&2; die "the daemon did not start"; }

# Samples of the daemon's memory and descriptors, and of the engine processes alive: seconds,
# VmRSS kB, fds, engines.
(
  while kill -0 "$daemon" 2> /dev/null; do
    rss=$(awk '/^VmRSS/ { print $2 }' "/proc/$daemon/status" 2> /dev/null)
    fds=$(ls "/proc/$daemon/fd" 2> /dev/null | wc -l)
    engines=$(pgrep -f -- "--fault-log $work/faults.log" | wc -l)
    [ -n "$rss" ] && echo "$(date +%s.%N) $rss $fds $engines" >> samples.txt
    sleep 1
  done
) &
helpers+=($!)

# The feeder: five files at a time into the inbox (renamed in, so taken at once) whenever it is
# empty and fewer than ten spool jobs are unfinished, so the load lasts the whole run.
(
  set -- staged/*.epd
  while [ $# -gt 0 ]; do
    open=$(q "select count(*) from jobs where input like '%/spool/%' and state in ('queued', 'running')" 2> /dev/null || echo 99)
    if [ -z "$(ls spool/inbox)" ] && [ "${open:-99}" -lt 10 ]; then
      for _ in 1 2 3 4 5; do
        [ $# -gt 0 ] || break
        side=${1%.epd}.toml
        [ -e "$side" ] && mv "$side" spool/inbox/
        mv "$1" spool/inbox/
        shift
      done
    fi
    sleep 0.5
  done
  touch fed
) &
feeder=$!
helpers+=($feeder)

# The submitter: a job every second or so from a slice of the input; about a third cancelled a
# moment later (queued or running).
(
  RANDOM=$SEED
  n=0
  while [ ! -e stop-submitting ]; do
    # At most three submitted jobs open at once: they share the daemon, they must not starve the
    # spool (at a high fault rate the daemon is slower than an unbounded submitter).
    if [ "$(q "select count(*) from jobs where input not like '%/spool/%' and state in ('queued', 'running')" 2> /dev/null || echo 9)" -ge 3 ]; then
      sleep 0.5
      continue
    fi
    n=$((n + 1))
    sed -n "$((RANDOM % 5000 + 1)),+$((RANDOM % 40 + 1))p" pool.epd > "submit-$n.epd"
    if id=$("$EPDD" submit analyse "submit-$n.epd" --config epdd.toml --engine fake --depth $((RANDOM % 4 + 1)) 2>> submit.err); then
      echo "$id" >> submitted.txt
      if [ $((RANDOM % 3)) = 0 ]; then
        sleep "0.$((RANDOM % 10))"
        "$EPDD" cancel "$id" --config epdd.toml >> cancelled.out 2>&1 && echo "$id" >> cancelled.txt
      fi
    fi
    sleep "0.$((RANDOM % 10 + 5))"
  done
) &
submitter=$!
helpers+=($submitter)

# SIGHUP every three seconds.
(
  while kill -0 "$daemon" 2> /dev/null; do
    sleep 3
    kill -HUP "$daemon" 2> /dev/null && echo hup >> hups.txt
  done
) &
hupper=$!
helpers+=($hupper)

# ---- wait for the spool to be worked through ---------------------------------------------------
last_report=0
while :; do
  kill -0 "$daemon" 2> /dev/null || { echo "the daemon died:" >&2; tail -20 daemon.log >&2; break; }
  delivered=$(( $(ls spool/done 2> /dev/null | grep -c '\.epd$') + $(ls spool/failed 2> /dev/null | grep -c '\.epd$') - bad_files ))
  if [ $((SECONDS - last_report)) -ge 30 ]; then
    echo "  $(date +%T) files delivered $delivered/$FILES; positions done $(q "select coalesce(sum(done + failed), 0) from jobs where input like '%/spool/%'" 2> /dev/null)"
    last_report=$SECONDS
  fi
  [ -e fed ] && [ "$delivered" -ge "$FILES" ] && break
  sleep 1
done
end_of_spool=$(date +%s.%N)
touch stop-submitting
wait "$submitter" 2> /dev/null
# The submitted jobs still open are left to finish (bounded).
for _ in $(seq 1 300); do
  [ "$(q "select count(*) from jobs where input not like '%/spool/%' and state in ('queued', 'running')")" = 0 ] && break
  sleep 0.2
done
kill "$hupper" 2> /dev/null; wait "$hupper" 2> /dev/null
sleep 1  # a last sample at rest
kill -TERM "$daemon" 2> /dev/null
status=0
wait "$daemon" || status=$?
wall=$(echo "$end_of_spool - $start" | bc)
for p in "${helpers[@]}"; do kill "$p" 2> /dev/null; wait "$p" 2> /dev/null; done
helpers=()
daemon=

# ---- checks -------------------------------------------------------------------------------------
echo
echo "checks:"
check "the daemon exited 0 on SIGTERM" "$([ "$status" = 0 ]; echo $?)" "status $status"
sleep 0.5
left=$(pgrep -f -- "--fault-log $work/faults.log" | tr '\n' ' ')
check "no engine process left" "$([ -z "$left" ]; echo $?)" "${left:+pids $left}"

lost=() short=()
for i in $(seq -f %04g 1 "$FILES"); do
  name=soak-$i.epd
  if [ -e "spool/done/$name" ] && [ -e "spool/outbox/$name" ]; then
    [ "$(wc -l < "spool/outbox/$name")" = "$(wc -l < "spool/done/$name")" ] || short+=("$name")
  elif [ -e "spool/failed/$name" ] && [ -s "spool/failed/$name.error" ]; then
    :
  else
    lost+=("$name")
  fi
done
bad_lost=()
for name in "${bad_names[@]}"; do
  [ -e "spool/failed/$name" ] && [ -s "spool/failed/$name.error" ] || bad_lost+=("$name")
done
check "every spool file is in done/ + outbox/, or in failed/ with a reason" "${#lost[@]}" "${lost[*]:0:10}"
check "every file that cannot be a job is in failed/ with a reason" "${#bad_lost[@]}" \
  "$bad_files files${bad_lost:+; not: ${bad_lost[*]:0:10}}; e.g. $(head -1 "spool/failed/${bad_names[0]}.error" 2> /dev/null | cut -c1-100)"
check "every output has one record per input record" "${#short[@]}" "${short[*]:0:10}"
inbox_left=$(ls spool/inbox | wc -l)
check "the inbox is empty" "$([ "$inbox_left" = 0 ]; echo $?)" "$inbox_left left"
failed_files=$(ls spool/failed | grep -c '\.epd$')

spool_jobs=$(q "select count(*) from jobs where input like '%/spool/%'")
check "one job per spool file" "$([ "$spool_jobs" = "$FILES" ]; echo $?)" "$spool_jobs jobs for $FILES files (the bad ones make none)"
read -r total done_items failed_items < <(q "select coalesce(sum(total), 0), coalesce(sum(done), 0), coalesce(sum(failed), 0) from jobs where input like '%/spool/%'" | tr '|' ' ')
rows=$(q "select count(*) from items i join jobs j on j.id = i.job where j.input like '%/spool/%'")
check "positions in = results + failed items" \
  "$([ "$total" = "$POSITIONS" ] && [ "$rows" = "$POSITIONS" ] && [ $((done_items + failed_items)) = "$POSITIONS" ]; echo $?)" \
  "$POSITIONS fed, $rows items, $done_items results + $failed_items failed"
item_states=$(q "select i.state || ' ' || count(*) from items i join jobs j on j.id = i.job where j.input like '%/spool/%' group by i.state" | tr '\n' ',')
no_result=$(q "select count(*) from items i join jobs j on j.id = i.job where j.input like '%/spool/%' and i.state = 'done'
               and (i.result is null or i.result = '' or i.key not in (select key from cache))")
check "every committed result is in the store (item and cache)" "$([ "$no_result" = 0 ]; echo $?)" "items by state: ${item_states%,}; $no_result without"
max_searches=$(q "select coalesce(max(searches), 0) from cache")
check "no position searched twice (each result committed once)" "$([ "$max_searches" -le 1 ]; echo $?)" "max searches per cache entry $max_searches"
error_lines=$(cat spool/outbox/*.errors 2> /dev/null | grep -c . || true)
check "failed items are listed in outbox/*.errors" "$([ "$error_lines" -ge "$failed_items" ]; echo $?)" "$error_lines lines for $failed_items failed items"

faults=$(wc -l < faults.log 2> /dev/null || echo 0)
all_failed=$(q "select coalesce(sum(failed), 0) from jobs")
# Every failed item's position is one an engine faulted on (the fault log names its FEN); a
# failed search fails every item waiting for the same position, so positions are compared.
sed 's/^[a-z]* go [0-9]* fen //' faults.log 2> /dev/null | sort -u > fault-fens.txt
q "select job || ' ' || idx || '|' || substr(key, instr(key, '|fen ') + 5, instr(substr(key, instr(key, '|fen ') + 5), '|') - 1)
   || '|' || error from items where state = 'failed'" > failed-fens.txt
awk -F'|' 'NR == FNR { f[$0] = 1; next } !($2 in f)' fault-fens.txt failed-fens.txt > unexplained.txt
unexplained=$(wc -l < unexplained.txt)
failed_keys=$(q "select count(distinct key) from items where state = 'failed'")
check "every failed item is a position an engine faulted on" "$([ "$unexplained" = 0 ] && [ "$failed_keys" -le "$faults" ]; echo $?)" \
  "$all_failed failed items ($failed_keys positions) in all jobs, $faults faults injected, $unexplained unexplained$( \
   [ "$unexplained" = 0 ] || echo ": $(head -1 unexplained.txt | cut -c1-160)")"
open_jobs=$(q "select count(*) from jobs where state not in ('finished', 'cancelled')")
check "every job ended finished or cancelled" "$([ "$open_jobs" = 0 ]; echo $?)" \
  "$(q "select state || ' ' || count(*) from jobs group by state" | tr '\n' ',' | sed 's/,$//')"
integrity=$(q "pragma integrity_check")
check "the store is intact" "$([ "$integrity" = ok ]; echo $?)" "integrity_check: $integrity"

# Memory and descriptors: first, median, max, slope (least squares, per minute), quarters.
flat() {  # flat COLUMN UNIT MARGIN-KIND MARGIN
  local median
  median=$(cut -d' ' -f"$1" samples.txt | sort -n | awk '{ v[NR] = $1 } END { print v[int((NR + 1) / 2)] + 0 }')
  awk -v col="$1" -v unit="$2" -v kind="$3" -v margin="$4" -v median="$median" '
    { t[NR] = $1; v[NR] = $col; if (NR == 1 || $col > max) max = $col }
    END {
      n = NR; if (n < 8) { print "too few samples: " n; exit 1 }
      for (i = 1; i <= n; i++) { mt += t[i]; mv += v[i] } mt /= n; mv /= n
      for (i = 1; i <= n; i++) { sxy += (t[i] - mt) * (v[i] - mv); sxx += (t[i] - mt) ^ 2 }
      slope = sxx > 0 ? sxy / sxx * 60 : 0
      q = int(n / 4); for (i = 1; i <= q; i++) { a += v[i]; b += v[n - q + i] } a /= q; b /= q
      limit = kind == "pct" ? a * (1 + margin / 100) : a + margin
      printf "%d samples; first %d, median %d, max %d %s; slope %+.1f %s/min; first quarter mean %.1f, last %.1f (limit %.1f)\n",
             n, v[1], median, max, unit, slope, unit, a, b, limit
      exit b > limit
    }' samples.txt
}
rss_line=$(flat 2 kB pct "$RSS_MARGIN_PCT"); rss_ok=$?
check "daemon memory (VmRSS) is flat (last quarter <= first + $RSS_MARGIN_PCT%)" "$rss_ok" "$rss_line"
fd_line=$(flat 3 fds abs "$FD_MARGIN"); fd_ok=$?
check "daemon file descriptors are flat (last quarter <= first + $FD_MARGIN)" "$fd_ok" "$fd_line"

most_engines=$(awk 'NR == 1 || $4 > m { m = $4 } END { print m + 0 }' samples.txt)
check "never more than 4 engine processes alive (2 instances, a restart or reload between)" \
  "$([ "$most_engines" -le 4 ]; echo $?)" "at most $most_engines in $(wc -l < samples.txt) samples"

# ---- figures ------------------------------------------------------------------------------------
searches=$(q "select coalesce(sum(searches), 0) from jobs")
hits=$(q "select coalesce(sum(cache_hits), 0) from jobs")
echo
echo "figures:"
echo "  positions        $POSITIONS through the spool in $FILES files, and $bad_files files that cannot be jobs ($failed_files files in failed/)"
echo "  results          $done_items analysed, $failed_items failed (spool); $all_failed failed in all jobs"
echo "  searches         $searches (cache hits $hits), all jobs"
echo "  faults injected  $faults: $(cut -d' ' -f1 faults.log 2> /dev/null | sort | uniq -c | awk '{ printf "%s%s %d", sep, $2, $1; sep = ", " }')"
echo "  engine restarts  $(grep -c 'restarting instance' daemon.log) after a fault; the pool started $(grep -c 'engine fake: FakeEngine' daemon.log) times (at start and on each SIGHUP)"
echo "  SIGHUPs          $(wc -l < hups.txt 2> /dev/null || echo 0)"
echo "  submitted jobs   $(wc -l < submitted.txt 2> /dev/null || echo 0), cancelled $(wc -l < cancelled.txt 2> /dev/null || echo 0)"
echo "  wall time        ${wall%.*} s to work through the spool"
echo "  throughput       $(echo "scale=1; $POSITIONS / $wall" | bc) positions/s"
echo "  daemon log       $(grep -c . daemon.log) lines, $(grep -ci 'error\|warn' daemon.log) warnings and errors"
echo
if [ "$failures" = 0 ]; then echo "soak: every check held"; exit 0; fi
echo "soak: $failures check(s) failed${KEEP:+ (see $work)}"
exit 1
