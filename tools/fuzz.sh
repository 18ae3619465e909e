#!/usr/bin/env bash
# tools/fuzz.sh: run epdd's libFuzzer targets (tests/fuzz) on seeds from the shared data.
#
#   tools/fuzz.sh [--jobs N] [--runs N] [TARGET] [SECONDS]
#     TARGET   fen, san, epd, pgn, pgc, chesslive, uci (engine output lines), toml (engine and
#              daemon configuration), sidecar (spool sidecars), jobjson (job specs, requests and
#              analyses as the store keeps them); several with commas (fen,san), or all (default)
#     SECONDS  how long each target runs (default 30)
#     --jobs N how many targets run at once (default 1; CI uses one per core)
#     --runs N each target stops after N executions, if that comes before SECONDS
#   e.g.  tools/fuzz.sh pgn 600      ten minutes of PGN import
#         tools/fuzz.sh              every target for 30 s, one after the other
#         tools/fuzz.sh --jobs 2     the same, two at a time (what ./dev.sh test runs)
#         tools/fuzz.sh --runs 10000000 all 3600    the campaign: 10 million or an hour each
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
usage() { awk 'NR > 1 && !/^#/ { exit } NR > 1 { sub(/^# ?/, ""); print }' "$0"; exit 2; }
JOBS=1 RUNS=-1 positional=()
while [[ $# -gt 0 ]]; do
  case $1 in
    -h | --help) usage ;;
    -j | --jobs) [[ ${2:-} =~ ^[1-9][0-9]*$ ]] || { echo "fuzz.sh: --jobs needs a positive number" >&2; usage; }
      JOBS=$2; shift 2 ;;
    --jobs=*) JOBS=${1#--jobs=}; [[ $JOBS =~ ^[1-9][0-9]*$ ]] || { echo "fuzz.sh: --jobs needs a positive number" >&2; usage; }
      shift ;;
    --runs) [[ ${2:-} =~ ^[1-9][0-9]*$ ]] || { echo "fuzz.sh: --runs needs a positive number" >&2; usage; }
      RUNS=$2; shift 2 ;;
    -*) echo "fuzz.sh: unknown option '$1'" >&2; usage ;;
    *) positional+=("$1"); shift ;;
  esac
done
[[ ${#positional[@]} -le 2 ]] || { echo "fuzz.sh: too many arguments: ${positional[*]}" >&2; usage; }
TARGET=${positional[0]:-all}
SECONDS_EACH=${positional[1]:-30}
[[ $SECONDS_EACH =~ ^[0-9]+$ && $SECONDS_EACH -gt 0 ]] || { echo "fuzz.sh: SECONDS must be a positive number, not '$SECONDS_EACH'" >&2; usage; }
if [[ $TARGET == all ]]; then targets=("${ALL[@]}")
else
  IFS=, read -ra targets <<<"$TARGET"
  for t in "${targets[@]}"; do
    [[ " ${ALL[*]} " == *" $t "* ]] || { echo "fuzz.sh: unknown target '$t' (one of: ${ALL[*]} all)" >&2; exit 2; }
  done
fi
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

# run_target T: replays T's regressions, fuzzes it, writes its one-line outcome to
# $BUILD/fuzz-logs/T.outcome; exit 0 when nothing was found.
run_target() {
  local t=$1 log findings corpus regressions rc execs artifact name started
  log=$BUILD/fuzz-logs/$t.log findings=$BUILD/fuzz-findings/$t corpus=$BUILD/fuzz-corpus/$t
  mkdir -p "$(dirname "$log")" "$findings" "$corpus" "$SEEDS/$t"
  regressions=$ROOT/tests/fuzz/regressions/$t
  exec >"$log.outcome"
  # Earlier findings first: each must now pass.
  if compgen -G "$regressions/*" >/dev/null; then
    if ! "$BIN/${t}_fuzz" "$regressions"/* >"$log.regressions" 2>&1; then
      printf '%-10s REGRESSION: an input of %s fails again (log: %s)\n' "$t" "$regressions" "$log.regressions"
      return 1
    fi
  fi
  rm -f "$findings"/*
  # Seeds we wrote by hand where there is no data to make them from.
  local written_seeds=()
  [[ -d $ROOT/tests/fuzz/seeds/$t ]] && written_seeds=("$ROOT/tests/fuzz/seeds/$t")
  started=$(date +%s)
  "$BIN/${t}_fuzz" -max_total_time="$SECONDS_EACH" -runs="$RUNS" -timeout=10 -print_final_stats=1 \
    -dict="$ROOT/tests/fuzz/$t.dict" -artifact_prefix="$findings/" "$corpus" "$SEEDS/$t" "${written_seeds[@]}" >"$log" 2>&1
  rc=$?
  execs=$(grep -aoE 'stat::number_of_executed_units: *[0-9]+' "$log" | grep -oE '[0-9]+$' | tail -1)
  artifact=$(find "$findings" -type f | head -1)
  if [[ $rc -eq 0 && -z $artifact ]]; then
    printf '%-10s %12s executions in %ss, corpus %s: no finding\n' "$t" "${execs:-?}" "$(($(date +%s) - started))" "$(ls "$corpus" | wc -l)"
    return 0
  fi
  if [[ -n $artifact ]]; then
    mkdir -p "$regressions"
    name=$(finding_name "$log" "$artifact")
    cp "$artifact" "$regressions/$name"
    printf '%-10s %12s executions: FINDING kept as tests/fuzz/regressions/%s/%s (log: %s)\n' "$t" "${execs:-?}" "$t" "$name" "$log"
  else
    printf '%-10s FAILED (exit %s) without an input (log: %s)\n' "$t" "$rc" "$log"
  fi
  return 1
}

# At most JOBS targets at once; the outcomes are printed in the targets' order.
status=0 pids=()
for i in "${!targets[@]}"; do
  while [[ $(jobs -rp | wc -l) -ge $JOBS ]]; do wait -n || true; done
  run_target "${targets[$i]}" &
  pids[$i]=$!
done
for i in "${!targets[@]}"; do
  wait "${pids[$i]}" || status=1
  cat "$BUILD/fuzz-logs/${targets[$i]}.log.outcome"
done
exit $status
