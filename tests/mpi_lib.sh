# Shared set-up of the MPI test scripts: `source "$(dirname "$0")/mpi_lib.sh" WHAT [open-mpi]` exits 77
# (skipped, saying WHAT test skipped) when no mpirun (or, with open-mpi, no Open MPI mpirun) is
# installed; gives $tmp (removed at exit), $root (mpirun's flag to run as root, when root) and
# check NAME CONDITION..., which prints ok/FAIL and sets failed=1 on a failure.
set -uo pipefail
if ! command -v mpirun >/dev/null || { [ "${2:-}" = open-mpi ] && ! mpirun --version 2>&1 | grep -q "Open MPI"; }; then
  which="mpirun"
  [ "${2:-}" = open-mpi ] && which="Open MPI's mpirun"
  echo "$which not found: $1 test skipped"
  exit 77
fi
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
root=()
[ "$(id -u)" -eq 0 ] && root=(--allow-run-as-root)
failed=0
check() {  # check NAME CONDITION...
  local name=$1; shift
  if "$@"; then echo "ok: $name"; else failed=1; echo "FAIL: $name" >&2; fi
}
