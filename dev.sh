#!/usr/bin/env bash
# dev.sh: the two commands of the README.
#   ./dev.sh run              install what is missing, build epdd (only the executable and its
#                             libraries), run epdd's main job
#   ./dev.sh test             install what is missing, build everything, run every test
#   ./dev.sh test --sanitize  one clang 14 build (build-asan/) with AddressSanitizer,
#                             UndefinedBehaviorSanitizer and libFuzzer's coverage: the tests
#                             under the sanitizers but those whose time is a real engine's search,
#                             a browser or a package, then every fuzz target for 30 s
# Works as root or as a user with sudo on a fresh Debian 12; installing is idempotent.
# EPDD_TIMES=FILE: each stage's seconds are appended to FILE (.ci/run prints them as a table);
# EPDD_CTEST_JOBS: tests run at once (default: twice the cores; see ctest_labelled below).
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
  lld                        # ld.lld for that clang build (its big test executables link faster)
  man-db groff-base          # the generated man pages rendered and checked (man -l, groff -ww)
)

usage() {
  awk 'NR > 1 && !/^#/ { exit } NR > 1 { sub(/^# ?/, ""); print }' "$0"
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

# timed STAGE COMMAND...: runs COMMAND; its wall time is printed and appended to $EPDD_TIMES.
timed() {
  local stage=$1 start=$SECONDS status=0
  shift
  "$@" || status=$?
  echo "dev.sh: $stage: $((SECONDS - start)) s" >&2
  [ -z "${EPDD_TIMES:-}" ] || printf '%s\t%s\n' "$stage" "$((SECONDS - start))" >> "$EPDD_TIMES"
  return $status
}

configure() {  # configure DIR [cmake options...]
  local dir=$1
  shift
  cmake -S . -B "$dir" -G Ninja -DEPDD_WERROR=ON "$@" >/dev/null
}

# ctest_labelled STAGE DIR [ctest options...]: every test of DIR, the time of each label
# (ctest's "Label Time Summary", seconds of test time) appended to $EPDD_TIMES beside the wall
# time of the whole run. Tests run EPDD_CTEST_JOBS at once: most of a test's time is waiting on
# engines and daemons, and the tests that need the cores declare it (PROCESSORS, RESOURCE_LOCK in
# tests/), so that ctest never runs more of them than the machine holds.
ctest_labelled() {
  local stage=$1 dir=$2 status=0
  shift 2
  local log="$dir/ctest.log"
  timed "$stage" ctest --test-dir "$dir" --output-on-failure -j "${EPDD_CTEST_JOBS:-$((2 * $(nproc)))}" "$@" 2>&1 |
    tee "$log" || status=$?
  if [ -n "${EPDD_TIMES:-}" ]; then
    awk -v stage="$stage" '/^Label Time Summary:/ { on = 1; next }
      on && /sec\*proc/ { sub(/ +=/, ""); printf "%s, label %s\t%s\n", stage, $1, $2 }
      NF == 0 { on = 0 }' "$log" >> "$EPDD_TIMES"
  fi
  return $status
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
    timed "install (apt-get)" install_missing "${PACKAGES[@]}"
    timed "configure" configure build -DCMAKE_BUILD_TYPE=Release
    # Only what the main job runs: the epdd executable and the modules it links. The tests,
    # benchmarks and man pages are built by ./dev.sh test (or cmake --build build).
    timed "build epdd" cmake --build build --target epdd
    # epdd's main job on its embedded defaults: Debian's Stockfish runs the project's own
    # suite, results in ./epdd.db (a second run answers from it).
    exec build/cli/epdd suite examples/tactics.epd --movetime 500 --concurrency 2
    ;;
  test)
    timed "install (apt-get)" install_missing "${PACKAGES[@]}" "${TEST_PACKAGES[@]}"
    if [ $sanitize -eq 1 ]; then
      # One clang build for both: every module and test with ASan and UBSan (asserts on), and
      # libFuzzer's coverage, so that the fuzz targets link against the same libraries.
      timed "configure (sanitized, clang)" configure build-asan -DCMAKE_BUILD_TYPE=Debug \
        -DCMAKE_CXX_COMPILER=clang++-14 -DEPDD_SANITIZE=ON -DEPDD_FUZZ=ON -DEPDD_BUILD_BENCH=OFF
      timed "build (sanitized, clang)" cmake --build build-asan
      status=0
      # Left out (labels): engine-bound (Stockfish's search is the time, epdd's code the same as
      # in the fake-engine tests), browser (chromium), package (the .deb of the release build).
      ctest_labelled "ctest (sanitized)" build-asan -LE '^(engine-bound|browser|package)$' || status=$?
      # Every parser's fuzz target for 30 s on its seeds (tests/fuzz/README.md), one per core,
      # built above in the same tree.
      EPDD_FUZZ_BUILD=$PWD/build-asan timed "fuzz (10 targets, 30 s each)" tools/fuzz.sh --jobs "$(nproc)" all 30 || status=1
      exit $status
    fi
    timed "configure (release)" configure build -DCMAKE_BUILD_TYPE=Release
    timed "build (release)" cmake --build build
    ctest_labelled "ctest (release)" build
    ;;
  *) usage ;;
esac
