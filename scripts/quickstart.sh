#!/usr/bin/env bash
# Sets up, builds and runs the default scenario (configs/default.yaml: moh2001 section 5.1).
set -euo pipefail
cd "$(dirname "$0")/.."
bash scripts/build.sh >/dev/null
build/mapsim run configs/default.yaml
