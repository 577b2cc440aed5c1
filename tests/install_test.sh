#!/usr/bin/env bash
# cmake --install into a scratch prefix; then the C++ example is built against the installed package
# twice (CMake find_package(mapsim), and pkg-config) and run: its makespans equal `mapsim simulate`'s.
#   tests/install_test.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
build=$(realpath "$1") src=$(realpath "$2")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
cmake --install "$build" --prefix "$tmp/prefix" >"$tmp/install.log" || { cat "$tmp/install.log"; fail "cmake --install"; }
for f in bin/mapsim include/mapsim/mapsim.h include/mapsim/error.h lib/cmake/mapsim/mapsimConfig.cmake lib/pkgconfig/mapsim.pc; do
  [ -e "$tmp/prefix/$f" ] || fail "not installed: $f"
done
ls "$tmp/prefix"/lib*/libmapsim.so >/dev/null 2>&1 || ls "$tmp/prefix"/lib/*/libmapsim.so >/dev/null 2>&1 || fail "libmapsim.so not installed"
# The public headers stand alone: no internal header, no yaml-cpp or nlohmann type.
if grep -rlE '#include "|yaml-cpp|nlohmann' "$tmp/prefix/include/mapsim"; then fail "a public header includes internals"; fi
# 1. CMake package.
cmake -S "$src/examples/cpp" -B "$tmp/example" -DCMAKE_PREFIX_PATH="$tmp/prefix" >"$tmp/configure.log" ||
  { cat "$tmp/configure.log"; fail "find_package(mapsim)"; }
cmake --build "$tmp/example" >"$tmp/build.log" || { cat "$tmp/build.log"; fail "building the example against mapsim::mapsim"; }
# 2. pkg-config.
pc_dir=$(dirname "$(find "$tmp/prefix" -name mapsim.pc | head -1)")
lib_dir=$(dirname "$(find "$tmp/prefix" -name 'libmapsim.so' | head -1)")
# shellcheck disable=SC2046
c++ -o "$tmp/example-pc" "$src/examples/cpp/compare_mappers.cpp" $(PKG_CONFIG_PATH="$pc_dir" pkg-config --cflags --libs mapsim) ||
  fail "building the example with pkg-config"
# Run both; the installed library only (not the build tree's).
net="fattree:nodes=64,radix=16,levels=2,oversubscription=2"
out1=$(LD_LIBRARY_PATH="$lib_dir" "$tmp/example/compare_mappers" "$net")
out2=$(LD_LIBRARY_PATH="$lib_dir" "$tmp/example-pc" "$net")
[ "$out1" = "$out2" ] || fail "the two builds differ: $out1 / $out2"
echo "$out1"
echo "$out1" | grep -q "^64 nodes, " || fail "expected 64 nodes: $out1"
for mapper in default random scotch; do
  want=$("$tmp/prefix/bin/mapsim" simulate --topology "$net" --process mesh:8x8 --workload exchange:size=64KiB,iterations=2 \
         --allocation random --mapper "$mapper" --model packet --json 2>/dev/null |
         python3 -c 'import json,sys; print("%.9g" % json.load(sys.stdin)["makespan"])')
  echo "$out1" | grep -q "^$mapper *makespan $want s," || fail "$mapper: expected makespan $want as the CLI gives, got: $out1"
done
# A bad spec: mapsim::Error with the CLI's message, exit 1.
if err=$(LD_LIBRARY_PATH="$lib_dir" "$tmp/example/compare_mappers" "fattree:radix=x" 2>&1); then fail "a bad spec was accepted"; fi
cli=$("$tmp/prefix/bin/mapsim" topo "fattree:radix=x" 2>&1 || true)
[ "compare_mappers: ${cli#mapsim: error: }" = "$err" ] || fail "the library's message differs from the CLI's: '$err' vs '$cli'"
echo "install: ok"
