#!/usr/bin/env bash
# Sets up, then configures and builds mapsim (Release) into build/.
#   bash scripts/build.sh [--tests]   --tests: also installs what only some tests need (scripts/setup.sh)
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh "$@"
# MPI may have been installed since the last configure: look for it again (it builds the tracer).
cmake -S . -B build -DCMAKE_BUILD_TYPE="${BUILD_TYPE:-Release}" -U 'MPI_*' >/dev/null
cmake --build build -j"$(nproc)"
