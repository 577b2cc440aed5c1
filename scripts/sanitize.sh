#!/usr/bin/env bash
# Builds mapsim and its tests with AddressSanitizer and UndefinedBehaviorSanitizer into
# build-sanitize/ and runs every test suite there (the MPI tracer is built uninstrumented: it is
# preloaded into MPI programs that are not). Slower than scripts/test.sh: about 15 minutes on 2 cores.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/setup.sh --tests
cmake -S . -B build-sanitize -DCMAKE_BUILD_TYPE=RelWithDebInfo -DMAPSIM_SANITIZE=ON >/dev/null
cmake --build build-sanitize -j"$(nproc)"
export ASAN_OPTIONS=detect_leaks=0:abort_on_error=1 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1
cd build-sanitize && ctest --output-on-failure -j"$(nproc)"
