#!/usr/bin/env bash
# Fault injection (issue 21): the spool directory's filesystem turns read-only (a tmpfs
# remounted ro) while input files wait in inbox/. The daemon says clearly that it cannot write
# the outputs or move the files and where, loses no input file (each still in inbox/, byte for
# byte), does not spin (its CPU time over 4 s is small), and delivers every job once the
# filesystem is writable again: outputs in outbox/ equal to one-shot runs, inputs in done/.
# Needs root (mount): exit 77 (skipped) otherwise.
#   spool_readonly_test.sh EPDD FAKE_ENGINE SHARED_DATA
data=$(realpath "$3")
here=$(dirname "$(realpath "$0")")
source "$here/../daemon/lib.sh" "$1" "$2"
source "$here/tmpfs.sh"
mount_tmpfs 8m
config epdd.toml
sed -i 's|^directory = .*|directory = "mnt/spool"|' epdd.toml
for i in 1 2 3; do sed -n "$((i * 10 - 9)),$((i * 10))p" "$data/suites/wac.epd" > "in$i.epd"; done
for i in 1 2 3; do
  "$epdd" analyse "in$i.epd" --config epdd.toml --engine fake --depth 5 --store ref.db -o "ref$i.epd" -q
done
serve epdd.toml daemon.log
for _ in $(seq 1 600); do [ -d mnt/spool/inbox ] && break; sleep 0.1; done
for i in 1 2 3; do cp "in$i.epd" "mnt/spool/inbox/in$i.epd"; done
# Read-only before the files settle: they are taken (read) and analysed, then nothing can be
# written or moved.
mount -o remount,ro mnt
wait_for "select count(*) = 3 from jobs" 20
sleep 4
ticks() { awk '{ print $14 + $15 }' "/proc/$served/stat"; }
kill -0 "$served" 2>/dev/null || fail "the daemon died on a read-only spool: $(tail -5 daemon.log)"
before=$(ticks)
sleep 4
cpu=$(( $(ticks) - before ))
echo "daemon CPU over 4 s of a read-only spool: $cpu ticks of $(getconf CLK_TCK)/s"
[ "$cpu" -le 40 ] || fail "the daemon spins on a read-only spool ($cpu ticks in 4 s)"
grep -i "read-only" daemon.log | head -3
grep -i "read-only" daemon.log | grep -q "mnt/spool" || fail "the log does not say that mnt/spool is read-only"
for i in 1 2 3; do
  cmp "mnt/spool/inbox/in$i.epd" "in$i.epd" || fail "in$i.epd is not in inbox/ as it was"
done
echo "jobs while read-only: $(q "select group_concat(id || ' ' || state || ' ' || message, '; ') from jobs")"
mount -o remount,rw mnt
for i in 1 2 3; do
  for _ in $(seq 1 300); do [ -e "mnt/spool/done/in$i.epd" ] && break; sleep 0.1; done
  [ -e "mnt/spool/done/in$i.epd" ] || fail "in$i.epd was not delivered within 30 s of the spool being writable: $(ls -R mnt/spool; tail -5 daemon.log)"
  cmp "mnt/spool/outbox/in$i.epd" "ref$i.epd" || fail "outbox/in$i.epd differs from a one-shot run"
  cmp "mnt/spool/done/in$i.epd" "in$i.epd" || fail "done/in$i.epd is not the input"
done
[ -z "$(ls mnt/spool/failed)" ] || fail "failed/ holds $(ls mnt/spool/failed)"
[ -z "$(ls mnt/spool/inbox)" ] || fail "inbox/ still holds $(ls mnt/spool/inbox)"
kill -TERM "$served"; wait "$served"
echo "PASS"
