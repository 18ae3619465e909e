#!/usr/bin/env bash
# Fault injection (issue 21): a store file that is not a database (text, random bytes) or a
# damaged one (a real store cut in half, a real store with a page overwritten). `epdd analyse
# --store`, `epdd serve` and `epdd status` each refuse it at open with a message that names the
# file and says what is wrong, exit non-zero, leave the file byte for byte as it was and leave
# no -wal, -shm or -journal file beside it.
#   bad_store_test.sh EPDD FAKE_ENGINE SHARED_DATA
data=$(realpath "$3")
source "$(dirname "$0")/../daemon/lib.sh" "$1" "$2"
head -40 "$data/suites/wac.epd" > in.epd
config epdd.toml
# A real store with 40 results, checkpointed into its file (no -wal left by a clean close).
"$epdd" analyse in.epd --config epdd.toml --engine fake --depth 3 --store real.db -o /dev/null -q
pages=$(STORE=real.db q 'pragma page_count')
[ "$pages" -ge 20 ] || fail "the real store has only $pages pages"
rm -f real.db-wal real.db-shm

printf 'hello, this is a text file and not a database\n%.0s' $(seq 1 50) > text.db
head -c 20000 /dev/urandom > random.db
head -c $((pages * 4096 / 2)) real.db > truncated.db
cp real.db damaged.db
# Page 6 (of $pages): a b-tree page of the stored analyses, overwritten with text.
printf 'damaged!%.0s' $(seq 1 512) | dd of=damaged.db bs=4096 seek=5 conv=notrunc status=none

# expect KIND FILE WORDS COMMAND...: COMMAND fails naming the store and saying WORDS; the file
# is unchanged and no side file is left.
expect() {
  local kind=$1 file=$2 words=$3
  shift 3
  cp "$file" store.db
  local rc=0
  timeout 30 "$@" > out.log 2>&1 || rc=$?
  [ "$rc" != 124 ] || fail "$kind, $1 $2: hung (killed after 30 s)"
  [ "$rc" != 0 ] || fail "$kind, $1 $2: exit status 0 on a bad store: $(cat out.log)"
  grep -q "$work/store.db\|store.db:" out.log || fail "$kind, $1 $2: the message does not name the file: $(cat out.log)"
  grep -Eqi "$words" out.log || fail "$kind, $1 $2: the message does not say '$words': $(cat out.log)"
  cmp -s store.db "$file" || fail "$kind, $1 $2: the store file was changed"
  local side
  side=$(ls store.db-* 2>/dev/null || true)
  [ -z "$side" ] || fail "$kind, $1 $2: left $side"
  echo "$kind, $2: exit $rc, $(tail -1 out.log | sed 's/^\[[^]]*\] //')"
  rm -f store.db
}
config serve.toml
sed -i 's/^location = .*/location = "store.db"/' serve.toml
for kind in text random truncated damaged; do
  case $kind in
    text | random) words="not an SQLite database" ;;
    *) words="damaged" ;;
  esac
  expect "$kind" "$kind.db" "$words" "$epdd" analyse in.epd --config epdd.toml --engine fake --depth 3 --store store.db -o out.epd -q
  [ ! -e out.epd ] || fail "$kind: analyse wrote its output on a bad store"
  expect "$kind" "$kind.db" "$words" "$epdd" serve --config serve.toml
  expect "$kind" "$kind.db" "$words" "$epdd" status --store store.db
done
echo "PASS"
