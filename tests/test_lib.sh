# Shared set-up of the shell test scripts: `source "$(dirname "$0")/test_lib.sh" MAPSIM` gives $mapsim
# (absolute), works in a temporary folder removed at exit, counts check results (check, refused); finish prints
# "N passed, N failed" and returns non-zero on a failure.
set -uo pipefail
mapsim=$(realpath "$1")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
passed=0 failed=0
check() {  # check NAME CONDITION...
  local name=$1; shift
  if "$@"; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL: $name" >&2; fi
}
# refused NAME PATTERN ARGS...: non-zero exit, one line on stderr matching PATTERN (grep -E), nothing on stdout.
refused() {
  local name=$1 pattern=$2; shift 2
  timeout 60 "$mapsim" "$@" >out.txt 2>err.txt
  local rc=$?
  check "$name: exit code" test "$rc" -ne 0 -a "$rc" -ne 124
  check "$name: one line" test "$(wc -l <err.txt)" -eq 1
  check "$name: message" grep -qE -- "$pattern" err.txt
  check "$name: no stdout" test ! -s out.txt
  [ "$(wc -l <err.txt)" -eq 1 ] && grep -qE -- "$pattern" err.txt || cat err.txt >&2
}
finish() {
  echo "$passed passed, $failed failed"
  [ "$failed" -eq 0 ]
}
