#!/usr/bin/env bash
# A Slurm cluster's link speeds set in a scenario (issue 49 item 1): in the spec string, in the map form, in
# model: and by --set, run from another folder than the scenario's (relative paths are rewritten, link values
# are not), all give the same makespan, a faster one than the default speeds. file: networks keep theirs.
#   tests/network_link_values_test.sh MAPSIM
set -euo pipefail
mapsim=$(realpath "$1")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
mkdir -p "$tmp/cluster" "$tmp/elsewhere"
cat >"$tmp/cluster/topology.conf" <<'CONF'
SwitchName=s0 Nodes=n[0-3]
SwitchName=s1 Nodes=n[4-7]
SwitchName=top Switches=s[0-1]
CONF
body="workload: {process: 'ring:8', pattern: 'exchange:size=1MiB'}
mapping: random"
printf 'network: slurm:topology.conf,link_bandwidth=100Gbps,node_bandwidth=100Gbps\n%s\nmodel: flow\n' "$body" >"$tmp/cluster/string.yaml"
printf 'network: {name: slurm, path: topology.conf, link_bandwidth: 100Gbps, node_bandwidth: 100Gbps}\n%s\nmodel: flow\n' "$body" >"$tmp/cluster/map.yaml"
printf 'network: slurm:topology.conf\n%s\nmodel: {name: flow, link_bandwidth: 100Gbps, node_bandwidth: 100Gbps}\n' "$body" >"$tmp/cluster/model.yaml"
printf 'network: slurm:topology.conf\n%s\nmodel: flow\n' "$body" >"$tmp/cluster/plain.yaml"
makespan() {  # SCENARIO [--set ...]: sim_makespan of replicate 0
  local out="$tmp/out-$RANDOM"
  (cd "$tmp/elsewhere" && "$mapsim" --no-progress run "../cluster/$1" -o "$out" "${@:2}" >/dev/null) || fail "$1 ${*:2} did not run"
  python3 -c 'import csv,sys; print(next(csv.DictReader(open(sys.argv[1])))["sim_makespan"])' "$out/results.csv"
}
slow=$(makespan plain.yaml)
fast=$(makespan string.yaml)
[ "$(makespan map.yaml)" = "$fast" ] || fail "map form differs from the string form"
[ "$(makespan model.yaml)" = "$fast" ] || fail "model: link values differ from the string form"
[ "$(makespan plain.yaml --set network=slurm:topology.conf,link_bandwidth=100Gbps,node_bandwidth=100Gbps)" = "$fast" ] ||
  fail "--set differs from the string form"
python3 -c 'import sys; a, b = map(float, sys.argv[1:]); sys.exit(0 if b < a / 5 else 1)' "$slow" "$fast" ||
  fail "100 Gbit/s links should be over 5x faster than the default 10 Gbit/s: $slow vs $fast"
# A network file's links are its own: model: cannot override them, said in one line at the key.
"$mapsim" topo slurm:"$tmp/cluster/topology.conf" --export json -o "$tmp/cluster/net.json" 2>/dev/null
printf 'network: file:net.json\n%s\nmodel: {name: flow, link_bandwidth: 100Gbps}\n' "$body" >"$tmp/cluster/file.yaml"
if err=$(cd "$tmp/elsewhere" && "$mapsim" --no-progress run ../cluster/file.yaml -o "$tmp/out-file" 2>&1); then fail "file: took model link values"; fi
echo "$err" | grep -q "file.yaml:4:8: model link parameters (link_bandwidth=100Gbps, ...) cannot override the link values of a file network; set them in the file" ||
  fail "unexpected message: $err"
echo "network link values: ok ($slow s at 10 Gbit/s, $fast s at 100 Gbit/s)"
