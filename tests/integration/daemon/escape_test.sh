#!/usr/bin/env bash
# Log injection (issue 14 point 8): spool files named with a newline followed by a forged log
# line, with terminal escape sequences, with bytes that are not UTF-8; a binary file; a record
# whose position holds an escape byte; an engine whose `id name` holds escape sequences. Every
# line of epdd.log, of `epdd status`, of the .error and .errors files and of the suite report is
# checked: no control byte, valid UTF-8, and the log and status in their own line format (no
# forged line); the names are there, escaped.
#   escape_test.sh EPDD FAKE_ENGINE SHARED_DATA
data=$(realpath "$3")
source "$(dirname "$0")/lib.sh" "$1" "$2"
config epdd.toml "[[engine]]
name = \"esc\"
command = \"$fake\"
args = [\"--name\", \"Fake\\u001b[2J\\u001b[31mRed\"]"
sed -i 's/^level = "debug"$/level = "debug"\nfile = "epdd.log"/' epdd.toml
grep -q '^file = "epdd.log"' epdd.toml || fail "no log file in the configuration"
serve epdd.toml daemon.log

forged='[2026-01-01 00:00:00.000] [info] job 99: analyse forged.epd is finished'
inbox=spool/inbox
head -3 "$data/suites/wac.epd" > three.epd
cp three.epd "$inbox/evil"$'\n'"$forged.epd"                               # a job: log, status, outbox
printf 'not EPD at all\n' > "$inbox/bad"$'\n'"$forged.epd"                 # failed/ with .error
printf 'not EPD either\n' > "$inbox/esc"$'\e[2J\e[31m'"red.epd"            # failed/ with .error
# A suite job whose id holds a Latin-1 byte and an escape: its report and JSON (the JSON writer
# threw on such bytes, which ended the process that delivered it).
sed 's/id "WAC.001"/id "caf\xe9\x1b[31m"/' three.epd > "$inbox/latin"$'\xe9\xff'".epd"
printf 'kind = "suite"\ndepth = 3\n' > "$inbox/latin"$'\xe9\xff'".toml"
cp three.epd "$inbox/side"$'\n'"$forged.epd"                               # a sidecar with a typo
printf 'nodez = 5\n' > "$inbox/side"$'\n'"$forged.toml"
for i in $(seq 0 255); do printf "\\x$(printf %02x "$i")"; done > binary.bytes
{ cat binary.bytes; printf '\n\x1b[2J\r\x00 ok\n'; cat binary.bytes; } > "$inbox/binary.epd"
# An illegal record holding an escape byte beside a good one: outbox/STEM.errors.
{ head -1 three.epd; printf 'rnbqkbnr/pppppppp/8/8/8/8/PPPPPPPP/RNBQKBN\x1b w KQkq - id "x\x1b[31m";\n'; } > "$inbox/mixed.epd"
esc_job=$("$epdd" submit analyse three.epd --config epdd.toml --engine esc --depth 3)

wait_for "select count(*) = 4 from jobs where state = 'finished'" 60
for f in failed/bad*.error failed/esc*.error failed/side*.error failed/binary.epd.error outbox/mixed.errors \
         outbox/latin*.report.txt outbox/latin*.json; do
  for _ in $(seq 1 600); do compgen -G "spool/$f" > /dev/null && break; sleep 0.1; done
  compgen -G "spool/$f" > /dev/null || { ls -R spool >&2; fail "spool/$f is missing"; }
done
[ -z "$(ls spool/inbox)" ] || fail "files left in the inbox: $(ls -b spool/inbox)"
kill -0 "$served" || fail "the daemon died"

# safe FILE: no control byte but the line break, and valid UTF-8.
safe() {
  if LC_ALL=C grep -naP '[\x00-\x09\x0b-\x1f\x7f]' "$1" > bad.txt; then
    fail "$1 has control bytes: $(cat -v bad.txt | head -3)"
  fi
  iconv -f UTF-8 -t UTF-8 "$1" > /dev/null 2>&1 || fail "$1 is not valid UTF-8"
  LC_ALL=C grep -q "^\[2026-01-01 00:00:00.000\]" "$1" && fail "$1 has the forged line: $(grep -a '^\[2026-01-01' "$1")"
  return 0
}

# The log: every line a record of its own.
safe epdd.log
LC_ALL=C grep -vaE '^\[[0-9]{4}-[0-9]{2}-[0-9]{2} [0-9]{2}:[0-9]{2}:[0-9]{2}\.[0-9]{3}\] \[[a-z]+\] ' epdd.log > odd.txt &&
  fail "lines of epdd.log that are not log records: $(head -3 odd.txt)"
grep -qF "evil\\n$forged.epd" epdd.log || fail "the log does not name evil\\n... escaped"
grep -qF 'esc\x1b[2J\x1b[31mred.epd' epdd.log || fail "the log does not name esc... escaped"
grep -qF 'latin\xe9\xff.epd' epdd.log || fail "the log does not name latin... escaped"
grep -qF 'Fake\x1b[2J\x1b[31mRed' epdd.log || fail "the log does not show the engine's name escaped"

# Status: the table, and notes indented below a job.
"$epdd" status --config epdd.toml > status.txt
for id in $(q "select id from jobs"); do "$epdd" status "$id" --config epdd.toml; done >> status.txt
safe status.txt
LC_ALL=C grep -vaE '^( +JOB  KIND| +[0-9]+  [a-z]|       [^ ])' status.txt > odd.txt &&
  fail "lines of the status that are not its own: $(head -3 odd.txt)"
grep -qF "evil\\n$forged.epd" status.txt || fail "status does not show evil\\n... escaped"
grep -qF 'engine: Fake\x1b[2J\x1b[31mRed' status.txt || fail "status does not show the engine's name escaped"

# The spool's files.
for f in spool/failed/*.error spool/outbox/*.errors spool/outbox/*.txt; do safe "$f"; done
grep -qF "bad\\n$forged.epd" spool/failed/bad*.error || fail "bad...error does not name the file escaped: $(cat spool/failed/bad*.error)"
grep -qF "side\\n$forged.toml:1:1: unknown key 'nodez'" spool/failed/side*.error ||
  fail "side...error: $(cat spool/failed/side*.error)"
grep -qF 'x1b' spool/outbox/mixed.errors || fail "mixed.errors: $(cat spool/outbox/mixed.errors)"
[ "$(wc -l < spool/outbox/mixed.errors)" = 1 ] || fail "mixed.errors has $(wc -l < spool/outbox/mixed.errors) lines"
python3 -c 'import json, sys; json.load(open(sys.argv[1], encoding="utf-8"))' spool/outbox/latin*.json ||
  fail "the suite JSON is not valid UTF-8 JSON"
# The id's Latin-1 byte is read as Latin-1 (issue 39, item 5: "café" in UTF-8), its escape still escaped.
grep -qF "caf$(printf '\303\251')\\x1b[31m" spool/outbox/latin*.report.txt ||
  fail "the report does not show the id decoded and escaped: $(grep -a caf spool/outbox/latin*.report.txt)"
# The job of the engine with the odd name answered like any other.
[ "$(job_state "$esc_job")" = finished ] || fail "job $esc_job is $(job_state "$esc_job")"
echo "PASS"
