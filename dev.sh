#!/usr/bin/env bash
# dev.sh: the two commands of the README.
#   ./dev.sh run              install what is missing, build, run epdd's main job
#   ./dev.sh test             install what is missing, build, run every test, then every
#                             fuzz target for 30 s (clang 14, in build-fuzz/)
#   ./dev.sh test --sanitize  the tests again under AddressSanitizer + UndefinedBehaviorSanitizer,
#                             but those whose time is a real engine's search, a browser or a package
# Works as root or as a user with sudo on a fresh Debian 12; installing is idempotent.
set -euo pipefail
cd "$(dirname "$0")"

# Every dependency is a Debian 12 package (see shared/design/CONVENTIONS.md).
PACKAGES=(
  g++ cmake ninja-build      # toolchain
  libexpected-dev            # tl::expected (core)
  libcli11-dev libfmt-dev    # command line, formatting (daemon)
  libboost-dev libboost-filesystem-dev   # Boost.Process 1.74 (uci: spawning engines)
  libtomlplusplus-dev        # engine configuration files (daemon)
  libspdlog-dev              # logging (daemon)
  libsqlite3-dev             # the store: jobs, work items, analysis cache (daemon)
  libpqxx-dev                # the store on PostgreSQL (a queue shared by many machines)
  postgresql postgresql-common   # pg_virtualenv: the store tests' throwaway PostgreSQL cluster
  nlohmann-json3-dev         # analysis results as JSON (daemon)
  catch2                     # tests
  stockfish                  # the default engine; the perft and uci benchmarks' peer
  ethereal-chess             # a second real engine for the end-to-end tests
  toga2                      # an engine that ignores go nodes (tests that epdd stops it)
  polyglot                   # Polyglot books: dump-book reads the book module's .bin (integration test)
  pgn-extract                # the PGN benchmark's peer
  sqlite3                    # the kill test reads the store's counters
)
# Only the tests need these.
TEST_PACKAGES=(
  chromium                   # the HTML pages loaded in a real browser (headless)
  fonts-dejavu-core          # the chess glyphs of the board diagrams in that browser
  python3                    # the browser and escape tests read the DOM and files with it
  dpkg-dev lintian           # the Debian package: cpack's dpkg-shlibdeps, and its check
  clang-14 libclang-rt-14-dev   # the fuzz targets: clang with libFuzzer, ASan and UBSan
  man-db groff-base          # the generated man pages rendered and checked (man -l, groff -ww)
)

usage() {
  sed -n '2,8p' "$0" | sed 's/^# \{0,1\}//'
  exit 2
}

install_missing() {  # install_missing PACKAGE...
  local missing=()
  for p in "$@"; do
    [ "$(dpkg-query -W -f='${db:Status-Status}' "$p" 2>/dev/null)" = installed ] || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  echo "dev.sh: installing ${missing[*]}"
  local sudo=()
  [ "$(id -u)" -eq 0 ] || sudo=(sudo)
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get update -qq
  "${sudo[@]}" env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}"
}

build() {  # build DIR [cmake options...]
  local dir=$1
  shift
  cmake -S . -B "$dir" -G Ninja -DEPDD_WERROR=ON "$@" >/dev/null
  cmake --build "$dir"
}

command=${1:-}
shift || true
sanitize=0
for arg in "$@"; do
  case $arg in
    --sanitize) sanitize=1 ;;
    *) usage ;;
  esac
done

case $command in
  run)
    install_missing "${PACKAGES[@]}"
    build build -DCMAKE_BUILD_TYPE=Release
    # epdd's main job on its embedded defaults: Debian's Stockfish runs the project's own
    # suite, results in ./epdd.db (a second run answers from it).
    exec build/cli/epdd suite examples/tactics.epd --movetime 500 --concurrency 2
    ;;
  test)
    install_missing "${PACKAGES[@]}" "${TEST_PACKAGES[@]}"
    if [ $sanitize -eq 1 ]; then
      build build-asan -DCMAKE_BUILD_TYPE=Debug -DEPDD_SANITIZE=ON -DEPDD_BUILD_BENCH=OFF
      # Left out (labels): engine-bound (Stockfish's search is the time, epdd's code the same as
      # in the fake-engine tests), browser (chromium), package (the .deb of the release build).
      exec ctest --test-dir build-asan --output-on-failure -j "$(nproc)" -LE '^(engine-bound|browser|package)$'
    fi
    build build -DCMAKE_BUILD_TYPE=Release
    status=0
    ctest --test-dir build --output-on-failure -j "$(nproc)" || status=$?
    # Every parser's fuzz target for 30 s on its seeds (tests/fuzz/README.md), one per core.
    tools/fuzz.sh --jobs "$(nproc)" all 30 || status=1
    exit $status
    ;;
  *) usage ;;
esac
