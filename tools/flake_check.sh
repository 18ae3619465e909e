#!/usr/bin/env bash
# tools/flake_check.sh: runs tests again and again on a loaded machine, to find the ones that
# pass or fail by the scheduler's whim.
#
#   tools/flake_check.sh [--build DIR] [--jobs N] [N] [REGEX]
#     N         runs of each test (default 20)
#     REGEX     the ctest names to run (ctest -R); default: every test labelled multiprocess
#               (those that start more than one process at a time: daemons, engine pools,
#               PostgreSQL, chromium, a process killed and restarted)
#     --build   the build folder whose tests run (default ROOT/build, as ./dev.sh test makes it)
#     --jobs N  tests run at once, as ctest -j (default 1: each test alone beside the load)
#   e.g.  tools/flake_check.sh                 the multiprocess tests, 20 times each
#         tools/flake_check.sh 50 'two epdd serve'
#
# While the tests run, two busy loops (one per core of the 2-core machine epdd is made on; as
# many as the machine has cores, at least two) keep every core at 100%. Each round runs every
# selected test once; at the end a table gives each test's passes out of N. The output of each
# failed run is kept in DIR/flake-check/ (the folder is named at the end). Exit 0 when every test
# passed every time, 1 when one did not, 2 on a usage error.
set -uo pipefail

ROOT=$(cd "$(dirname "$0")/.." && pwd)
usage() { awk 'NR > 1 && !/^#/ { exit } NR > 1 { sub(/^# ?/, ""); print }' "$0"; exit 2; }
BUILD=$ROOT/build JOBS=1 positional=()
while [[ $# -gt 0 ]]; do
  case $1 in
    -h | --help) usage ;;
    --build) [[ -n ${2:-} ]] || usage; BUILD=$2; shift 2 ;;
    --jobs) [[ ${2:-} =~ ^[1-9][0-9]*$ ]] || { echo "flake_check.sh: --jobs needs a positive number" >&2; usage; }
      JOBS=$2; shift 2 ;;
    -*) echo "flake_check.sh: unknown option '$1'" >&2; usage ;;
    *) positional+=("$1"); shift ;;
  esac
done
[[ ${#positional[@]} -le 2 ]] || { echo "flake_check.sh: too many arguments: ${positional[*]}" >&2; usage; }
RUNS=${positional[0]:-20}
[[ $RUNS =~ ^[1-9][0-9]*$ ]] || { echo "flake_check.sh: N must be a positive number, not '$RUNS'" >&2; usage; }
select_args=(-L '^multiprocess$')
[[ ${#positional[@]} -lt 2 ]] || select_args=(-R "${positional[1]}")
[[ -f $BUILD/CTestTestfile.cmake ]] ||
  { echo "flake_check.sh: no tests in $BUILD: build them first (./dev.sh test, or --build DIR)" >&2; exit 2; }

mapfile -t tests < <(ctest --test-dir "$BUILD" -N "${select_args[@]}" | sed -n 's/^ *Test *#[0-9]*: //p')
[[ ${#tests[@]} -gt 0 ]] || { echo "flake_check.sh: no test matches ${select_args[*]}" >&2; exit 2; }
echo "flake_check.sh: ${#tests[@]} tests, $RUNS runs each, beside busy loops on every core"

# The load: one busy loop per core (at least two), ended whatever way this script ends.
loops=()
cores=$(nproc)
((cores >= 2)) || cores=2
for ((i = 0; i < cores; i++)); do
  (while :; do :; done) &
  loops+=($!)
done
trap 'kill "${loops[@]}" 2>/dev/null' EXIT

logs=$BUILD/flake-check
rm -rf "$logs"
mkdir -p "$logs"
declare -A passed
for t in "${tests[@]}"; do passed[$t]=0; done
started=$SECONDS
failed_list=$BUILD/Testing/Temporary/LastTestsFailed.log
for ((run = 1; run <= RUNS; run++)); do
  out=$logs/run-$run.log
  rm -f "$failed_list"
  ctest --test-dir "$BUILD" "${select_args[@]}" -j "$JOBS" --output-on-failure > "$out" 2>&1
  # ctest lists each test that failed, timed out or did not run as "NUMBER:NAME".
  declare -A failed_now=()
  [[ -f $failed_list ]] && while IFS= read -r line; do failed_now[${line#*:}]=1; done < "$failed_list"
  for t in "${tests[@]}"; do
    [[ -n ${failed_now[$t]+x} ]] || passed[$t]=$((passed[$t] + 1))
  done
  failed=${#failed_now[@]}
  unset failed_now
  [[ $failed -gt 0 ]] || rm -f "$out"
  echo "run $run/$RUNS: $((SECONDS - started)) s so far, $failed failed this run"
done

echo
echo "passes  test"
status=0
for t in "${tests[@]}"; do
  printf '%2d/%-3d  %s\n' "${passed[$t]}" "$RUNS" "$t"
  [[ ${passed[$t]} -eq $RUNS ]] || status=1
done
if [[ $status -eq 0 ]]; then
  echo "every test passed $RUNS times out of $RUNS under load ($((SECONDS - started)) s)"
  rmdir "$logs" 2>/dev/null
else
  echo "not every test passed every time: the failed runs' output is in $logs"
fi
exit $status
