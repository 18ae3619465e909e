#!/usr/bin/env bash
# Fault injection (issue 21): the store's disk fills up. The SQLite store lives on a small tmpfs
# with a filler file that leaves room for part of a job only, so that commits fail part way.
# - `epdd analyse`: exits non-zero saying the disk is full and naming the store; the store is
#   whole (integrity_check); with the filler removed, the same command resumes and its output
#   equals a clean run's, no position searched twice in the committed results.
# - `epdd serve`: does not die and does not spin (its CPU time over 3 s of a full disk is small);
#   it logs the error naming the store, and finishes the job once space is back; told to stop
#   (SIGTERM) while it waits for space, it stops within seconds.
# Needs root (mount -t tmpfs): exit 77 (skipped) otherwise.
#   disk_full_test.sh EPDD FAKE_ENGINE SHARED_DATA
data=$(realpath "$3")
here=$(dirname "$(realpath "$0")")
source "$here/../daemon/lib.sh" "$1" "$2"
source "$here/tmpfs.sh"
mount_tmpfs 6m
positions=150
head -$positions "$data/suites/wac.epd" > in.epd
config epdd.toml
args=(analyse in.epd --config epdd.toml --engine fake --movetime 5)
"$epdd" "${args[@]}" --store ref.db -o ref.epd -q

# fill FREE_KB: the filler takes all but FREE_KB of the tmpfs.
fill() {
  local avail
  avail=$(df -k --output=avail mnt | tail -1)
  dd if=/dev/zero of=mnt/filler bs=1k count=$((avail - $1)) status=none 2>/dev/null || true
  echo "tmpfs: $(df -k --output=avail mnt | tail -1) KB free"
}

# The one-shot command.
STORE=mnt/epdd.db
export STORE
fill 1200
rc=0
timeout 60 "$epdd" "${args[@]}" --store mnt/epdd.db -o out.epd -q 2> full.err || rc=$?
[ "$rc" != 124 ] || fail "analyse hung on a full disk (killed after 60 s)"
cat full.err
[ "$rc" != 0 ] || fail "analyse succeeded on a full disk"
grep -q "mnt/epdd.db" full.err || fail "the message does not name the store"
grep -qi "disk is full" full.err || fail "the message does not say that the disk is full"
[ ! -e out.epd ] || fail "the failed run wrote its output"
[ "$(q 'pragma integrity_check')" = ok ] || fail "the store is damaged after the disk filled up"
committed=$(q "select done from jobs where id = 1")
echo "exit $rc with $committed of $positions committed"
[ "$committed" -gt 0 ] && [ "$committed" -lt $positions ] || fail "the disk did not fill up part way ($committed committed)"
rm mnt/filler
"$epdd" "${args[@]}" --store mnt/epdd.db -o out.epd -q || fail "the rerun with space back failed"
cmp out.epd ref.epd || fail "the output after a full disk differs from a clean run"
exactly_once

# The daemon.
rm -f mnt/epdd.db*
STORE=mnt/daemon.db
sed -i 's|^location = .*|location = "mnt/daemon.db"|' epdd.toml
job=$("$epdd" submit "${args[@]}" -o "$work/daemon.epd")
fill 1200
"$epdd" serve --config epdd.toml > daemon.log 2>&1 &
served=$!
for _ in $(seq 1 300); do grep -qi "disk is full" daemon.log && break; sleep 0.1; done
grep -i "disk is full" daemon.log | head -3
grep -qi "disk is full" daemon.log || fail "the daemon did not log the full disk within 30 s: $(tail -5 daemon.log)"
grep -i "disk is full" daemon.log | grep -q "mnt/daemon.db" || fail "the daemon's message does not name the store"
ticks() { awk '{ print $14 + $15 }' "/proc/$served/stat"; }
kill -0 "$served" 2>/dev/null || fail "the daemon died on a full disk: $(tail -5 daemon.log)"
before=$(ticks)
sleep 3
kill -0 "$served" 2>/dev/null || fail "the daemon died on a full disk: $(tail -5 daemon.log)"
cpu=$(( $(ticks) - before ))
echo "daemon CPU over 3 s of a full disk: $cpu ticks of $(getconf CLK_TCK)/s"
[ "$cpu" -le 30 ] || fail "the daemon spins on a full disk ($cpu ticks in 3 s)"
[ "$(q 'pragma integrity_check')" = ok ] || fail "the daemon's store is damaged after the disk filled up"
echo "$(q "select done from jobs where id = $job") of $positions committed while full"
rm mnt/filler
wait_for "select state = 'finished' from jobs where id = $job" 60
kill -TERM "$served"; wait "$served"
cmp daemon.epd ref.epd || fail "the daemon's output after a full disk differs from a clean run"
exactly_once

# SIGTERM while the daemon waits for space: it stops by its deadline (stop_deadline_seconds = 2),
# not after the patience; the store is whole.
sed -n 151,250p "$data/suites/wac.epd" > in2.epd
job=$("$epdd" submit analyse in2.epd --config epdd.toml --engine fake --movetime 5 -o "$work/daemon2.epd")
fill 300
"$epdd" serve --config epdd.toml > daemon2.log 2>&1 &
served=$!
for _ in $(seq 1 300); do grep -qi "disk is full" daemon2.log && break; sleep 0.1; done
grep -qi "disk is full" daemon2.log || fail "the second daemon did not meet the full disk: $(tail -5 daemon2.log)"
sleep 1
started=$SECONDS
kill -TERM "$served"
for _ in $(seq 1 150); do kill -0 "$served" 2>/dev/null || break; sleep 0.1; done
kill -0 "$served" 2>/dev/null && fail "the daemon waiting for space did not stop within 15 s of SIGTERM"
wait "$served" || true
echo "SIGTERM while waiting for space: stopped after $((SECONDS - started)) s"
[ "$(q 'pragma integrity_check')" = ok ] || fail "the store is damaged after a stop on a full disk"
echo "PASS"
