#!/usr/bin/env bash
# Installs the Debian packages mapsim needs, if any is missing. Idempotent; quiet when all is present.
#   bash scripts/setup.sh           what building and running mapsim need
#   bash scripts/setup.sh --tests   also what only some tests need: MPI (the PMPI tracer and its test; it
#                                   comes with libsimgrid-dev anyway), pajeng (reads timelines back) and
#                                   chromium (report screenshots), GNU Parallel (runs an emitted jobs.txt),
#                                   pytest and matplotlib (the Python module's tests and examples)
set -euo pipefail
packages=(g++ cmake make pkg-config libsimgrid-dev libboost-dev libyaml-cpp-dev libspdlog-dev libfmt-dev doctest-dev
          libcli11-dev nlohmann-json3-dev libscotch-dev libmetis-dev libqhull-dev libotf2-trace-dev graphviz
          libcsv-dev gnuplot-nox libhwloc-dev python3-dev pybind11-dev python3-numpy python3-pandas)
if [ "${1:-}" = --tests ]; then packages+=(libopenmpi-dev openmpi-bin pajeng chromium parallel python3-pytest python3-matplotlib); fi  # MPI: already there with libsimgrid-dev
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0
echo "setup: installing ${missing[*]}" >&2
sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
