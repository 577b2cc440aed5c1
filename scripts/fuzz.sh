#!/usr/bin/env bash
# Builds the fuzz targets of tests/fuzz with clang's libFuzzer (+ ASan/UBSan) into build-fuzz/ and
# runs each for SECONDS (default 120) on its corpus, which grows in place (tests/fuzz/corpus/NAME;
# commit the new inputs that matter: the normal build replays them as tests).
# Usage: bash scripts/fuzz.sh [SECONDS] [TARGET ...]   targets: spec scenario network_file ibnet trace
set -euo pipefail
cd "$(dirname "$0")/.."
seconds=${1:-120}
shift || true
targets=("$@")
[ ${#targets[@]} -eq 0 ] && targets=(spec scenario network_file ibnet trace)
bash scripts/setup.sh
CC=clang CXX=clang++ cmake -S . -B build-fuzz -DCMAKE_BUILD_TYPE=RelWithDebInfo -DMAPSIM_FUZZ=ON >/dev/null
cmake --build build-fuzz -j"$(nproc)" --target $(printf 'fuzz_%s ' "${targets[@]}")
export UBSAN_OPTIONS=halt_on_error=1:print_stacktrace=1 ASAN_OPTIONS=detect_leaks=0
for t in "${targets[@]}"; do
  mkdir -p "build-fuzz/findings/$t"
  echo "== fuzz_$t for ${seconds}s"
  build-fuzz/tests/fuzz/fuzz_"$t" -max_total_time="$seconds" -max_len=4096 -rss_limit_mb=4096 -timeout=10 \
    -artifact_prefix="build-fuzz/findings/$t/" "tests/fuzz/corpus/$t"
done
