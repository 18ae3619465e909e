#!/usr/bin/env bash
# epdd --version names the libraries epdd was built with, and the versions agree with the Debian
# packages that provided their headers (issue 22):
#   version_test.sh EPDD PROJECT_VERSION
# The oracle is dpkg: the package that owns each library's version header (dpkg -S), which must
# be the -dev package epdd builds with or the one it depends on (libboost-dev ->
# libboost1.74-dev), and the upstream part of its version (epoch, Debian revision and a
# +ds repack suffix dropped). The schema version is read from a store that epdd created.
set -euo pipefail
epdd=$1
project_version=$2
fail() { echo "FAIL: $*" >&2; exit 1; }

out=$("$epdd" --version) || fail "epdd --version exited $?"
printf '%s\n' "$out"
[ "$(head -n1 <<< "$out")" = "epdd $project_version" ] || fail "first line is not 'epdd $project_version'"

# upstream PACKAGE: the upstream part of an installed package's version.
upstream() {
  local v
  v=$(dpkg-query -W -f='${Version}' "$1")
  v=${v#*:}                               # epoch
  [[ $v == *-* ]] && v=${v%-*}            # Debian revision
  echo "${v%%+*}"                         # +ds, +dfsg ... repacks
}
# printed NAME: the version epdd prints for library NAME ("  NAME VERSION[, running X]").
printed() {
  local line
  while IFS= read -r line; do
    [[ $line == "  $1 "* ]] && { echo "${line#"  $1 "}"; return; }
  done <<< "$out"
  fail "no line for $1"
}
# header_package HEADER DEV_PACKAGE: the package owning HEADER, checked to be DEV_PACKAGE or one
# that DEV_PACKAGE depends on.
header_package() {
  local owner
  owner=$(dpkg -S "$1" | head -n1 | cut -d: -f1)
  if [ "$owner" != "$2" ]; then
    dpkg-query -W -f='${Depends}' "$2" | tr ',' '\n' | grep -qE "^ *$owner( |$)" ||
      fail "$1 belongs to $owner, which $2 does not depend on"
  fi
  echo "$owner"
}

checked=0
while IFS='|' read -r name header dev; do
  pkg=$(header_package "$header" "$dev")
  want=$(upstream "$pkg")
  got=$(printed "$name")
  got=${got%%, running *}
  [ "$got" = "$want" ] || fail "$name: epdd says $got, $pkg (for $dev) is $want"
  echo "ok $name $got = $pkg $(dpkg-query -W -f='${Version}' "$pkg")"
  checked=$((checked + 1))
done <<'TABLE'
Boost|/usr/include/boost/version.hpp|libboost-dev
toml++|/usr/include/toml++/impl/version.h|libtomlplusplus-dev
spdlog|/usr/include/spdlog/version.h|libspdlog-dev
SQLite|/usr/include/sqlite3.h|libsqlite3-dev
fmt|/usr/include/fmt/core.h|libfmt-dev
nlohmann json|/usr/include/nlohmann/json.hpp|nlohmann-json3-dev
CLI11|/usr/include/CLI/Version.hpp|libcli11-dev
TABLE
[ "$checked" -eq 7 ] || fail "checked $checked libraries, not 7"

# The running SQLite: said only when it is not the one compiled against.
runtime_pkg=$(dpkg -S "$(readlink -f /usr/lib/*/libsqlite3.so.0 | head -n1)" | head -n1 | cut -d: -f1)
running=$(upstream "$runtime_pkg")
sqlite=$(printed SQLite)
if [ "$running" = "${sqlite%%, running *}" ]; then
  [ "$sqlite" = "$running" ] || fail "SQLite: '$sqlite' though the running library is the compiled one"
else
  [ "$sqlite" = "${sqlite%%, running *}, running $running" ] || fail "SQLite: '$sqlite' does not name the running $running"
fi
# libpqxx: its header's macro, which Debian's 6.4.5 leaves at 6.4.4; the major.minor must agree.
pqxx=$(printed libpqxx)
[ "${pqxx%.*}" = "$(upstream libpqxx-dev | cut -d. -f1,2)" ] || fail "libpqxx: $pqxx, libpqxx-dev is $(upstream libpqxx-dev)"

# The schema version: the user_version of a store this epdd creates.
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
printf '4k3/8/8/8/8/8/8/4K3 w - - id "kings";\n' > "$tmp/one.epd"
"$epdd" submit analyse "$tmp/one.epd" --store "$tmp/s.db" --engine stockfish --depth 1 > /dev/null
schema=$(sqlite3 "$tmp/s.db" 'PRAGMA user_version')
[ "$(printed 'store schema version')" = "$schema" ] || fail "store schema version: epdd says $(printed 'store schema version'), a new store has $schema"
echo "ok store schema version $schema, SQLite running $running, libpqxx $pqxx"
