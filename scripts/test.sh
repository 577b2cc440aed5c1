#!/usr/bin/env bash
# Sets up (with what only tests need: MPI, pajeng, chromium), builds and runs every test suite.
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh --tests
cd build && ctest --output-on-failure -j"$(nproc)"
