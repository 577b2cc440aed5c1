#!/usr/bin/env bash
# Sets up, builds and runs the main job: the papers' default network (moh2001 section 5.1).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh >/dev/null
build/mapsim topo irregular:nodes=256,switches=75,ports=8,connectivity=0.75,seed=1
