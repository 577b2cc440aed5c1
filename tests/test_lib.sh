# Shared set-up of the shell test scripts: `source "$(dirname "$0")/test_lib.sh" MAPSIM` gives $mapsim
# (absolute), works in a temporary folder removed at exit, and counts check results; finish prints
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
finish() {
  echo "$passed passed, $failed failed"
  [ "$failed" -eq 0 ]
}
