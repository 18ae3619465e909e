#!/usr/bin/env bash
# tools/fuzz.sh: run epdd's libFuzzer targets (tests/fuzz) on seeds from the shared data.
#
#   tools/fuzz.sh [TARGET] [SECONDS]
#     TARGET   fen, san, epd, pgn, pgc, chesslive, uci (engine output lines), toml (engine and
#              daemon configuration), sidecar (spool sidecars), jobjson (job specs, requests and
#              analyses as the store keeps them), or all (default all)
#     SECONDS  how long each target runs (default 30)
#   e.g.  tools/fuzz.sh pgn 600      ten minutes of PGN import
#         tools/fuzz.sh              every target for 30 s
#
# Configures and builds the clang tree (build-fuzz/, -DEPDD_FUZZ=ON; the main build stays gcc)
# when needed, splits ../shared/data, examples/epdd.toml and the configuration tests' TOML into
# per-target seed folders under it (the data is read in place, never copied into the
# repository; the uci seeds are what the engines in /usr/games print for `uci` and a search of
# depth 8, captured then), replays tests/fuzz/regressions/TARGET/ (the inputs
# of earlier findings), then fuzzes each target with its dictionary tests/fuzz/TARGET.dict.
# Prints the executions and the outcome per target. Exit 0 when nothing was found, 1 on a
# finding (its input is kept as tests/fuzz/regressions/TARGET/KIND-WHAT-HASH, the log beside it
# in the build folder), 2 on a usage or build error.
# Environment: EPDD_FUZZ_BUILD (default ROOT/build-fuzz), EPDD_SHARED_DATA (default
# ROOT/../shared/data), CMAKE_CXX_COMPILER_LAUNCHER (ccache, if set, is passed on). The seeds
# are made once: remove BUILD/fuzz-seeds to make them again from changed data.
set -uo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
BUILD=${EPDD_FUZZ_BUILD:-$ROOT/build-fuzz}
DATA=${EPDD_SHARED_DATA:-$ROOT/../shared/data}
ALL=(fen san epd pgn pgc chesslive uci toml sidecar jobjson)
TARGET=${1:-all}
SECONDS_EACH=${2:-30}

usage() { sed -n '2,23p' "$0" | sed 's/^# \{0,1\}//'; exit 2; }
[[ $TARGET == -h || $TARGET == --help ]] && usage
[[ $SECONDS_EACH =~ ^[0-9]+$ && $SECONDS_EACH -gt 0 ]] || { echo "fuzz.sh: SECONDS must be a positive number, not '$SECONDS_EACH'" >&2; usage; }
if [[ $TARGET == all ]]; then targets=("${ALL[@]}")
elif [[ " ${ALL[*]} " == *" $TARGET "* ]]; then targets=("$TARGET")
else echo "fuzz.sh: unknown target '$TARGET' (one of: ${ALL[*]} all)" >&2; exit 2; fi
[[ -d $DATA ]] || { echo "fuzz.sh: no shared data at $DATA (set EPDD_SHARED_DATA)" >&2; exit 2; }

# ---- build ----
if ! command -v clang++-14 >/dev/null || ! ls /usr/lib/llvm-14/lib/clang/*/lib/linux/libclang_rt.fuzzer-x86_64.a >/dev/null 2>&1; then
  echo "fuzz.sh: needs Debian's clang 14 and its libFuzzer runtime:" \
       "apt-get install -y --no-install-recommends clang-14 libclang-rt-14-dev" >&2
  exit 2
fi
if [[ ! -f $BUILD/build.ninja ]]; then
  cmake -S "$ROOT" -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DCMAKE_CXX_COMPILER=clang++-14 \
    -DEPDD_FUZZ=ON -DEPDD_BUILD_TESTS=OFF -DEPDD_BUILD_BENCH=OFF -DEPDD_SHARED_DATA="$DATA" >/dev/null ||
    { echo "fuzz.sh: configuring $BUILD failed" >&2; exit 2; }
fi
cmake --build "$BUILD" --target fuzz_seeds "${targets[@]/%/_fuzz}" -j2 >"$BUILD/fuzz-build.log" 2>&1 ||
  { tail -30 "$BUILD/fuzz-build.log"; echo "fuzz.sh: build failed (log: $BUILD/fuzz-build.log)" >&2; exit 2; }
BIN=$BUILD/tests/fuzz

# ---- seeds: the shared data split into records and games ----
# What each installed engine prints for `uci` and a search of depth 8 (two lines, WDL shown),
# one distinct line a seed (the engines run in parallel, about 3 s).
engine_seeds() {  # DIR
  local e
  mkdir -p "$1"
  for e in /usr/games/stockfish /usr/games/ethereal-chess /usr/games/fairy-stockfish /usr/games/toga2 /usr/games/glaurung; do
    [[ -x $e ]] || continue
    { printf 'uci\nsetoption name UCI_ShowWDL value true\nsetoption name MultiPV value 2\nisready\n'
      printf 'position startpos moves e2e4\ngo depth 8\n'; sleep 3; printf 'quit\n'; } |
      timeout 10 "$e" 2>/dev/null | head -n 400 |
      awk -v out="$1/$(basename "$e")-" '!seen[$0]++ { f = out NR; printf "%s", $0 > f; close(f) }' &
  done
  wait
  compgen -G "$1/*" >/dev/null || { echo "fuzz.sh: no engine in /usr/games printed anything" >&2; return 1; }
}

SEEDS=$BUILD/fuzz-seeds
if [[ ! -d $SEEDS ]]; then
  shopt -s nullglob
  files=("$DATA"/suites/*.epd "$DATA"/perft/*.epd "$DATA"/pgn/*.pgn "$DATA"/pgn/edge-cases/*.pgn "$DATA"/books/*.pgn
         "$ROOT"/examples/*.toml "$ROOT"/tests/unit/daemon/engine_config_file_test.cpp)
  rm -rf "$SEEDS.tmp"
  ASAN_OPTIONS=detect_leaks=0 "$BIN/fuzz_seeds" "$SEEDS.tmp" "${files[@]}" >/dev/null &&
    engine_seeds "$SEEDS.tmp/uci" && mv "$SEEDS.tmp" "$SEEDS" ||
    { rm -rf "$SEEDS.tmp"; echo "fuzz.sh: making seeds failed" >&2; exit 2; }
fi

# A finding's name: what it was (the property violated, or the sanitizer's report), then a hash.
finding_name() {  # LOG ARTIFACT
  local what kind
  kind=$(basename "$2" | cut -d- -f1)  # crash, leak, timeout, oom, slow-unit
  what=$(grep -aoE "PROPERTY VIOLATED: .*|ERROR: (AddressSanitizer|LeakSanitizer): [a-z-]+|runtime error: .*|throwing an instance of '[^']+'" "$1" | head -1)
  # A UBSan report may start with the value ("1e+104 is outside the range ..."): without it.
  what=$(sed -E "s/^throwing an instance of '(.*::)?([^']+)'\$/uncaught \2/; s/^runtime error: [-+0-9][^ ]* /runtime error: /" <<<"$what" |
         sed -E 's/^(PROPERTY VIOLATED|ERROR|runtime error): //; s/[^A-Za-z0-9]+/-/g; s/^-|-$//g' | cut -c1-60)
  echo "$kind-${what:-unknown}-$(sha1sum "$2" | cut -c1-8)"
}

status=0
for t in "${targets[@]}"; do
  log=$BUILD/fuzz-logs/$t.log findings=$BUILD/fuzz-findings/$t corpus=$BUILD/fuzz-corpus/$t
  mkdir -p "$(dirname "$log")" "$findings" "$corpus" "$SEEDS/$t"
  regressions=$ROOT/tests/fuzz/regressions/$t
  # Earlier findings first: each must now pass.
  if compgen -G "$regressions/*" >/dev/null; then
    if ! "$BIN/${t}_fuzz" "$regressions"/* >"$log.regressions" 2>&1; then
      printf '%-10s REGRESSION: an input of %s fails again (log: %s)\n' "$t" "$regressions" "$log.regressions"
      status=1
      continue
    fi
  fi
  rm -f "$findings"/*
  # Seeds we wrote by hand where there is no data to make them from.
  written_seeds=()
  [[ -d $ROOT/tests/fuzz/seeds/$t ]] && written_seeds=("$ROOT/tests/fuzz/seeds/$t")
  "$BIN/${t}_fuzz" -max_total_time="$SECONDS_EACH" -timeout=10 -print_final_stats=1 \
    -dict="$ROOT/tests/fuzz/$t.dict" -artifact_prefix="$findings/" "$corpus" "$SEEDS/$t" "${written_seeds[@]}" >"$log" 2>&1
  rc=$?
  execs=$(grep -aoE 'stat::number_of_executed_units: *[0-9]+' "$log" | grep -oE '[0-9]+$' | tail -1)
  artifact=$(find "$findings" -type f | head -1)
  if [[ $rc -eq 0 && -z $artifact ]]; then
    printf '%-10s %12s executions in %ss, corpus %s: no finding\n' "$t" "${execs:-?}" "$SECONDS_EACH" "$(ls "$corpus" | wc -l)"
  else
    status=1
    if [[ -n $artifact ]]; then
      mkdir -p "$regressions"
      name=$(finding_name "$log" "$artifact")
      cp "$artifact" "$regressions/$name"
      printf '%-10s %12s executions: FINDING kept as tests/fuzz/regressions/%s/%s (log: %s)\n' "$t" "${execs:-?}" "$t" "$name" "$log"
    else
      printf '%-10s FAILED (exit %s) without an input (log: %s)\n' "$t" "$rc" "$log"
    fi
  fi
done
exit $status
