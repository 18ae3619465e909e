#!/usr/bin/env bash
# The Debian package (issue 22): built, checked, unpacked and run; installed and purged as root.
#   deb_test.sh BUILD_DIR SHARED_DATA
# 1. `cpack -G DEB` from the test's build tree into a temporary folder (the build tree keeps no
#    package). 2. Its contents: the named files, and every file `cmake --install` puts (man pages
#    and completion included when the build makes them); conffiles, Depends/Recommends.
# 3. lintian: any E: fails (W: lines are printed). 4. `dpkg -x` into a throwaway root: the
#    unpacked epdd's --version, a one-position analysis with Stockfish (--nodes 1000, Threads 1)
#    under the unpacked /etc/epdd/epdd.toml, and `epdd serve` on that configuration with its
#    paths moved into the root analysing a file dropped into the spool.
# 5. As root only (CI): dpkg -i; the user epdd and its directories; the same analysis and spool
#    run as user epdd on the installed configuration; a reinstall (upgrade path) keeps the data;
#    dpkg --purge removes binary, unit, configuration and data; a second install after the purge
#    works. Skipped (exit 77) when not root, or when epdd is installed or its directories exist
#    (nothing of a real installation is touched). The machine is restored on any exit: package purged, the user epdd
#    deleted if the test made it.
set -euo pipefail
build=$(cd "$1" && pwd)
shared=$2
stockfish=/usr/games/stockfish
fail() { echo "FAIL: $*" >&2; exit 1; }
step() { echo "== $*"; }

tmp=$(mktemp -d)
made_user=0
serve_pid=
restore() {
  [ -n "$serve_pid" ] && kill -TERM "$serve_pid" 2>/dev/null && wait "$serve_pid" 2>/dev/null
  if [ "$(id -u)" -eq 0 ] && [ "${root_part:-0}" -eq 1 ]; then
    dpkg -s epdd > /dev/null 2>&1 && dpkg --purge epdd > /dev/null
    # They did not exist before the root part (its precondition): a failed purge leaves none.
    rm -rf /var/lib/epdd /var/log/epdd /etc/epdd
    rm -f /etc/systemd/system/multi-user.target.wants/epdd.service
    [ "$(readlink /etc/systemd/system/epdd.service)" = /dev/null ] && rm -f /etc/systemd/system/epdd.service
    if [ "$made_user" -eq 1 ] && getent passwd epdd > /dev/null; then
      userdel epdd
      getent group epdd > /dev/null && groupdel epdd
    fi
  fi
  rm -rf "$tmp"
}
trap restore EXIT

# --- 1. the package
step "cpack -G DEB"
cpack --config "$build/CPackConfig.cmake" -G DEB -B "$tmp/pkg" > "$tmp/cpack.log" 2>&1 ||
  { cat "$tmp/cpack.log"; fail "cpack -G DEB"; }
debs=("$tmp"/pkg/epdd_*.deb)
[ ${#debs[@]} -eq 1 ] && [ -f "${debs[0]}" ] || fail "cpack made no single epdd_*.deb: ${debs[*]}"
deb=${debs[0]}
echo "$(basename "$deb"), $(stat -c %s "$deb") bytes"

# --- 2. contents
step "dpkg-deb -c"
dpkg-deb -c "$deb" | awk '{print $6}' | sed 's|^\./|/|' | grep -v '/$' | sort > "$tmp/contents"
for f in /usr/bin/epdd /usr/lib/systemd/system/epdd.service /etc/epdd/epdd.toml \
         /usr/share/doc/epdd/examples/epdd.toml /usr/share/doc/epdd/copyright /usr/share/doc/epdd/changelog.gz; do
  grep -qx "$f" "$tmp/contents" || fail "the package has no $f"
done
# Everything `cmake --install` puts is packaged: PREFIX/etc is the package's /etc, the rest /usr.
cmake --install "$build" --prefix "$tmp/inst" > /dev/null
(cd "$tmp/inst" && find . -type f) | sed -e 's|^\./etc/|/etc/|' -e 't' -e 's|^\./|/usr/|' | sort > "$tmp/installed"
missing=$(comm -23 "$tmp/installed" "$tmp/contents")
[ -z "$missing" ] || fail "installed by cmake --install but not in the package: $missing"
echo "$(wc -l < "$tmp/contents") files, every one of cmake --install's $(wc -l < "$tmp/installed")"
man_pages=$(grep -c '^/usr/share/man/' "$tmp/contents" || true)
echo "manual pages: $man_pages"
[ "$(dpkg-deb -f "$deb" Package)" = epdd ] || fail "Package: $(dpkg-deb -f "$deb" Package)"
dpkg-deb -I "$deb" conffiles | grep -qx /etc/epdd/epdd.toml || fail "/etc/epdd/epdd.toml is not a conffile"
depends=$(dpkg-deb -f "$deb" Depends)
for d in adduser libsqlite3-0 libc6; do
  [[ ", $depends," == *", $d"[\ ,]* ]] || fail "Depends lacks $d: $depends"
done
[ "$(dpkg-deb -f "$deb" Recommends)" = stockfish ] || fail "Recommends: $(dpkg-deb -f "$deb" Recommends)"
dpkg-deb --ctrl-tarfile "$deb" | tar -tvf - | awk '$6 ~ /post|pre/ && $1 != "-rwxr-xr-x" {bad = 1; print} END {exit bad}' ||
  fail "a maintainer script is not 0755"

# --- 3. lintian
step "lintian"
# lintian's status: 0 no error, 1 errors (its default --fail-on error), anything else: it did not
# run (a crash, an unpackable file), which must not pass as "no error".
command -v lintian > /dev/null || fail "lintian is not installed (./dev.sh test installs it)"
lintian_status=0
lintian "$deb" > "$tmp/lintian" 2>&1 || lintian_status=$?
grep -v 'running with root privileges' "$tmp/lintian" || true
[ "$lintian_status" -le 1 ] || fail "lintian did not run (exit $lintian_status)"
echo "lintian: exit $lintian_status, $(grep -c '^E:' "$tmp/lintian" || true) errors, $(grep -c '^W:' "$tmp/lintian" || true) warnings"
[ "$lintian_status" -eq 0 ] && ! grep -q '^E:' "$tmp/lintian" || fail "lintian reports errors"

# --- 4. unpacked into a throwaway root
step "dpkg -x"
root=$tmp/root
dpkg -x "$deb" "$root"
# Stripped: no symbol table left (readelf, binutils, comes with g++).
! readelf -S "$root/usr/bin/epdd" | grep -q '\.symtab' || fail "the packaged binary is not stripped"
version=$(dpkg-deb -f "$deb" Version)
"$root/usr/bin/epdd" --version > "$tmp/version"
[ "$(head -n1 "$tmp/version")" = "epdd ${version%%-*}" ] || fail "epdd --version says $(head -n1 "$tmp/version"), the package is $version"
grep -q '^  store schema version [0-9]' "$tmp/version" || fail "epdd --version names no schema version"
zcat "$root/usr/share/doc/epdd/changelog.gz" | head -n1 | grep -q "^epdd ($version) " ||
  fail "changelog.gz does not begin with epdd ($version)"

# One position of the shared WAC suite, its opcodes stripped to the four fields and the id.
head -n1 "$shared/suites/wac.epd" | awk '{print $1, $2, $3, $4, "id \"one\";"}' > "$tmp/one.epd"
chmod 755 "$tmp"
chmod 644 "$tmp/one.epd"

# check_analysed FILE: one record with acd, acn, ce and pm written.
check_analysed() {
  [ "$(wc -l < "$1")" -eq 1 ] || fail "$1: $(wc -l < "$1") records, not 1"
  for op in 'acd [0-9]+' 'acn [0-9]+' 'ce -?[0-9]+' 'pm [^;]+'; do
    grep -qE "(^| |;)$op;" "$1" || fail "$1 has no ${op%% *}: $(cat "$1")"
  done
  echo "analysed: $(cat "$1")"
}

# analyse AS EPDD CONFIG WORKDIR: the one-position analysis, Stockfish at 1000 nodes on one thread.
analyse() {
  local as=$1 epdd=$2 config=$3 work=$4
  $as "$epdd" analyse "$tmp/one.epd" --config "$config" --engine stockfish --nodes 1000 --threads 1 \
    --store "$work/analyse.db" -o "$work/one.epd" -q || fail "$epdd analyse exited $?"
  check_analysed "$work/one.epd"
}

# spool AS EPDD CONFIG SPOOL LOG: `epdd serve --config CONFIG` takes a file dropped into its spool
# and writes it analysed to outbox/, logs to LOG, and stops on SIGTERM with status 0. AS must exec
# epdd (setpriv, not runuser, which forks and answers SIGTERM itself), so that the signal is epdd's.
spool() {
  local as=$1 epdd=$2 config=$3 dir=$4 log=$5 i
  $as "$epdd" serve --config "$config" > "$tmp/serve.out" 2>&1 &
  serve_pid=$!
  for i in $(seq 100); do [ -d "$dir/inbox" ] && break; sleep 0.1; done
  [ -d "$dir/inbox" ] || { cat "$tmp/serve.out"; fail "serve made no $dir/inbox"; }
  cp "$tmp/one.epd" "$dir/inbox/one.epd"
  for i in $(seq 300); do [ -f "$dir/outbox/one.epd" ] && break; sleep 0.1; done
  [ -f "$dir/outbox/one.epd" ] || { cat "$tmp/serve.out"; fail "serve wrote no $dir/outbox/one.epd in 30 s"; }
  kill -TERM "$serve_pid"
  local status=0
  wait "$serve_pid" || status=$?
  [ "$status" -eq 0 ] || { cat "$tmp/serve.out"; fail "serve exited $status on SIGTERM"; }
  serve_pid=
  check_analysed "$dir/outbox/one.epd"
  grep -q 'is finished' "$log" || fail "$log does not log the finished job"
}

mkdir "$tmp/x"
analyse "" "$root/usr/bin/epdd" "$root/etc/epdd/epdd.toml" "$tmp/x"
# The installed configuration with its /var paths moved into the root.
sed -e "s|\"/var/lib/epdd/|\"$root/var/lib/epdd/|" -e "s|\"/var/log/epdd/|\"$root/var/log/epdd/|" \
  "$root/etc/epdd/epdd.toml" > "$tmp/x/epdd.toml"
[ "$(grep -c "$root/var/" "$tmp/x/epdd.toml")" -eq 3 ] || fail "store, spool and log are not all under /var in the packaged configuration"
mkdir -p "$root/var/lib/epdd" "$root/var/log/epdd"
spool "" "$root/usr/bin/epdd" "$tmp/x/epdd.toml" "$root/var/lib/epdd/spool" "$root/var/log/epdd/epdd.log"

# --- 5. dpkg -i and --purge, as root
if [ "$(id -u)" -ne 0 ]; then
  echo "SKIP dpkg -i and --purge: not root (CI is)"
  exit 77
fi
if dpkg -s epdd > /dev/null 2>&1 || [ -e /var/lib/epdd ] || [ -e /var/log/epdd ] || [ -e /etc/epdd ]; then
  echo "SKIP dpkg -i: epdd is installed here or its directories exist; nothing of it is touched"
  exit 77
fi
root_part=1
getent passwd epdd > /dev/null || made_user=1

step "dpkg -i"
dpkg -i "$deb" > "$tmp/dpkg.log" 2>&1 || { cat "$tmp/dpkg.log"; fail "dpkg -i"; }
getent passwd epdd > /dev/null || fail "no user epdd after dpkg -i"
for d in /var/lib/epdd /var/log/epdd; do
  [ "$(stat -c %U:%G "$d")" = epdd:epdd ] || fail "$d is owned by $(stat -c %U:%G "$d"), not epdd"
done
/usr/bin/epdd --version | head -n1
# The unit as systemd reads it (without systemd running): keys, ExecStart's binary, the
# Documentation= pages when the package has them.
if command -v systemd-analyze > /dev/null; then
  man=no
  [ "$man_pages" -gt 0 ] && command -v man > /dev/null && man=yes
  systemd-analyze verify --man=$man /usr/lib/systemd/system/epdd.service || fail "systemd-analyze verify epdd.service"
  echo "systemd-analyze verify (--man=$man): ok"
fi
mkdir "$tmp/i"
chown epdd:epdd "$tmp/i"
analyse "runuser -u epdd --" /usr/bin/epdd /etc/epdd/epdd.toml "$tmp/i"
spool "setpriv --reuid=epdd --regid=epdd --init-groups --" /usr/bin/epdd /etc/epdd/epdd.toml /var/lib/epdd/spool /var/log/epdd/epdd.log
[ "$(stat -c %U /var/lib/epdd/epdd.db)" = epdd ] || fail "the daemon's store is not the user epdd's"

step "dpkg -i again (the upgrade path)"
dpkg -i "$deb" > "$tmp/dpkg.log" 2>&1 || { cat "$tmp/dpkg.log"; fail "dpkg -i a second time"; }
[ -f /var/lib/epdd/epdd.db ] || fail "a reinstall lost the store"

# An administrator's `systemctl enable epdd` (it works without a running systemd: it makes the
# [Install] link) is undone by the purge.
wants=/etc/systemd/system/multi-user.target.wants/epdd.service
if command -v systemctl > /dev/null; then
  systemctl enable epdd.service > /dev/null 2>&1 || fail "systemctl enable epdd.service"
  [ -L "$wants" ] || fail "systemctl enable made no $wants"
fi

step "dpkg -r (remove, not purge)"
dpkg -r epdd > "$tmp/dpkg.log" 2>&1 || { cat "$tmp/dpkg.log"; fail "dpkg -r"; }
for f in /usr/bin/epdd /usr/lib/systemd/system/epdd.service; do [ ! -e "$f" ] || fail "$f is still there after dpkg -r"; done
for f in /etc/epdd/epdd.toml /var/lib/epdd/epdd.db; do [ -e "$f" ] || fail "dpkg -r removed $f (only a purge does)"; done
# The unit masked while its enablement links wait for a purge (debhelper's way).
mask=/etc/systemd/system/epdd.service
if command -v deb-systemd-helper > /dev/null; then
  [ "$(readlink "$mask")" = /dev/null ] || fail "dpkg -r did not mask epdd.service: $(ls -l "$mask" 2>&1)"
fi

step "dpkg --purge"
dpkg --purge epdd > "$tmp/dpkg.log" 2>&1 || { cat "$tmp/dpkg.log"; fail "dpkg --purge"; }
for f in /usr/bin/epdd /usr/lib/systemd/system/epdd.service /etc/epdd/epdd.toml /etc/epdd /var/lib/epdd /var/log/epdd \
         "$wants" "$mask"; do
  { [ ! -e "$f" ] && [ ! -L "$f" ]; } || fail "$f is still there after dpkg --purge"
done
if status=$(dpkg -s epdd 2>&1); then fail "dpkg -s epdd after the purge: $status"; fi
echo "dpkg -s epdd: $status"
getent passwd epdd > /dev/null || fail "the purge removed the user epdd, which is kept by design"

step "dpkg -i after the purge"
dpkg -i "$deb" > "$tmp/dpkg.log" 2>&1 || { cat "$tmp/dpkg.log"; fail "dpkg -i after the purge"; }
[ "$(stat -c %U /var/lib/epdd)" = epdd ] || fail "/var/lib/epdd not made again"
runuser -u epdd -- /usr/bin/epdd --version > /dev/null
dpkg --purge epdd > /dev/null
echo "ok"
