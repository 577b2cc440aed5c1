# Red-team cases, sourced by scripts/red_team.sh: edited checkpoints and the run's folder, names,
# keys and imports (issue 46 items 4 and 6). A checkpoint field that is not its replicate's must not
# reach a launch file, a picture or a table: the replicate runs again (exit 0) and the outputs are
# the scenario's own.

# A checkpoint of replicate 0 to edit: a run of eight replicates killed after its first.
cat >"$fx/cp.yaml" <<'YAML'
network: irregular:nodes=64,switches=16
workload: {process: mesh:4x4x4, pattern: "exchange:iterations=40"}
mapping: [default, random]
model: store-and-forward
replicates: 8
YAML
"$M" run "$fx/cp.yaml" -o "$fx/cp" --no-progress >/dev/null 2>&1 &
cp_pid=$!
for _ in $(seq 1000); do [ -e "$fx/cp/partial/replicate-0.json" ] && break; sleep 0.01; done
kill -KILL $cp_pid 2>/dev/null; wait $cp_pid 2>/dev/null
[ -e "$fx/cp/partial/replicate-0.json" ] || echo "red-team: no checkpoint to edit: the checkpoint cases will fail" >&2
checkpoint() {  # checkpoint PYTHON: the case's o/partial/replicate-0.json, edited by PYTHON (j: its JSON; r0: its first row)
  mkdir -p "$W/o/partial" && cp "$fx/cp/partial/replicate-0.json" "$W/o/partial/" 2>/dev/null
  python3 - "$W/o/partial/replicate-0.json" "$1" <<'PY'
import json, sys
path, code = sys.argv[1], sys.argv[2]
j = json.load(open(path)); r0 = j['rows'][0]
exec(code)
json.dump(j, open(path, 'w'))
PY
}
# The edited replicate runs again: one warning names the file and the field, 64 ranks are launched.
CP_LAUNCH_CHECK='grep -q "^mapsim: warning: .*partial/replicate-0.json: rows\.0\..*; replicate 0 runs again" "$err" &&
  [ "$(grep -c "^rank " o/default.rankfile)" = 64 ] && [ "$(grep -c "^rank " o/random.rankfile)" = 64 ]'
checkpoint "r0['placement'][3] = 10**9"
T "item46 checkpoint placement on node 10^9, --launch rankfile" ok -c "$CP_LAUNCH_CHECK" -- run "$fx/cp.yaml" -o "$W/o" --resume --launch rankfile
checkpoint "r0['placement'][3] = -5"
T "item46 checkpoint placement on node -5, --launch rankfile" ok -c "$CP_LAUNCH_CHECK" -- run "$fx/cp.yaml" -o "$W/o" --resume --launch rankfile
checkpoint "r0['placement'][5] = 2**31 - 1"
T "item46 checkpoint placement on node 2^31-1, --launch hostlist" ok -c 'grep -q "rows\.0\.placement" "$err"' -- \
  run "$fx/cp.yaml" -o "$W/o" --resume --launch hostlist
checkpoint "r0['placement'] = r0['placement'][:3]"
T "item46 checkpoint 3 ranks placed of 64, --launch rankfile" ok -c "$CP_LAUNCH_CHECK" -- run "$fx/cp.yaml" -o "$W/o" --resume --launch rankfile
checkpoint "r0['placement'] = r0['placement'] * 2"
T "item46 checkpoint 128 ranks placed of 64, --launch rankfile" ok -c "$CP_LAUNCH_CHECK" -- run "$fx/cp.yaml" -o "$W/o" --resume --launch rankfile
checkpoint "r0['placement'] = [r0['placement'][0]] * 64"
T "item46 checkpoint every rank on one node, --launch rankfile" ok -c "$CP_LAUNCH_CHECK" -- run "$fx/cp.yaml" -o "$W/o" --resume --launch rankfile
checkpoint "r0['cores'] = [10**9] * 64"
T "item46 checkpoint cores it never had, --launch rankfile" ok -c '[ "$(grep -c "^rank " o/default.rankfile)" = 64 ] && ! grep -q 1000000000 o/default.rankfile' -- \
  run "$fx/cp.yaml" -o "$W/o" --resume --launch rankfile
# A stored picture is never drawn: the pictures come from the kept link loads.
checkpoint "r0['network_dot'] = 'digraph { a [URL=\"javascript:alert(1)\", image=\"/etc/passwd\"] }'"
T "item46 checkpoint picture with a javascript: link and image=/etc/passwd, --draw" ok \
  -c '! grep -q "javascript\|passwd" o/net-default.dot && grep -q "^graph\|^digraph" o/net-default.dot' -- \
  run "$fx/cp.yaml" -o "$W/o" --resume --draw "$W/o/net.dot"
checkpoint "l = r0['links_csv'].split('\n'); f = l[1].split(','); f[5] = '=HYPERLINK(1)'; l[1] = ','.join(f); r0['links_csv'] = '\n'.join(l)"
T "item46 checkpoint link line with a formula for bytes" ok -c '! grep -q HYPERLINK o/links.csv && grep -q "rows\.0\.links_csv line 2" "$err"' -- \
  run "$fx/cp.yaml" -o "$W/o" --resume
checkpoint "r0['links_csv'] = r0['links_csv'].replace('sw-0', 'evil', 1)"
T "item46 checkpoint link line naming a switch not there" ok -c '! grep -q evil o/links.csv' -- run "$fx/cp.yaml" -o "$W/o" --resume
checkpoint "r0['links_csv'] += 'link,0,sw-0,sw-1,1,2,3,4,5\n'"
T "item46 checkpoint link line added" ok -c '[ "$(grep -c "^0,default,link,0," o/links.csv)" = 1 ]' -- run "$fx/cp.yaml" -o "$W/o" --resume
checkpoint "r0['timeline_csv'] = '99,compute,0,1\n2,<script>,0,1\n'"
T "item46 checkpoint timeline of rank 99 and a state of markup" ok -c '! grep -q "^default,99," o/timeline.csv 2>/dev/null && ! grep -q script o/timeline.csv 2>/dev/null' -- \
  run "$fx/cp.yaml" -o "$W/o" --resume
checkpoint "r0['map_seconds'] = -1e300"
T "item46 checkpoint negative map time" ok -c '! grep -q e+300 o/timings.csv' -- run "$fx/cp.yaml" -o "$W/o" --resume
# The run's folder is locked: a second run is refused, a planted lock file is not followed.
mkdir -p "$W/o"; ln -s "$fx/s.yaml" "$W/o/.mapsim.lock"
T "item46 run -o a folder whose lock file is a link to an input" error -m .mapsim.lock -- run "$fx/s.yaml" -o "$W/o"
mkdir -p "$W/o"; mkfifo "$W/o/.mapsim.lock"
T "item46 run -o a folder whose lock file is a FIFO" error -m .mapsim.lock -- run "$fx/s.yaml" -o "$W/o"
mkdir -p "$W/o/.mapsim.lock"
T "item46 run -o a folder whose lock file is a folder" error -m .mapsim.lock -- run "$fx/s.yaml" -o "$W/o"
mkdir -p "$W/o"; echo stale >"$W/o/.mapsim.lock"
T "item46 run -o a folder with a lock file a killed run left" ok -c 'test -s o/summary.json -a ! -e o/.mapsim.lock' -- run "$fx/s.yaml" -o "$W/o"
T "item46 run -o a new folder leaves no lock file" ok -c 'test -s o/sub/summary.json -a ! -e o/sub/.mapsim.lock' -- run "$fx/s.yaml" -o "$W/o/sub"
# A second run into a folder that a first one is writing (the check holds the first in the background).
printf 'network: irregular:nodes=256,switches=64\nworkload: {process: mesh:16x16, pattern: "exchange:iterations=4000"}\nmodel: store-and-forward\n' >"$W/busy.yaml"
printf '%s\n' 'setsid "$M" run busy.yaml -o shared --no-progress >/dev/null 2>&1 & p=$!' \
  'for _ in $(seq 200); do [ -e shared/.mapsim.lock ] && break; sleep 0.05; done' \
  '"$M" run busy.yaml -o shared --set workload.pattern=exchange:iterations=1 >/dev/null 2>second.err; echo $? >second.rc' \
  'kill -TERM $p; wait $p; echo $? >first.rc' >"$W/second.sh"
T "item46 run -o a folder another run is writing" ok -t 40 -c 'bash second.sh; [ "$(cat second.rc)" = 1 ] && [ "$(cat first.rc)" = 130 ] &&
  grep -q "^mapsim: error: shared: another mapsim command is writing this folder" second.err && [ "$(wc -l <second.err)" = 1 ] &&
  [ ! -e shared/.mapsim.lock ]' -- run "$fx/s.yaml" -o "$W/first"

# Pictures of mappers whose names make one file name: one each.
printf '0 0\n1 1\n2 2\n3 3\n' >"$W/p.1"; printf '0 3\n1 2\n2 1\n3 0\n' >"$W/p-1"
printf 'network: mesh:2x2\nworkload: {process: ring:4, pattern: exchange:size=64}\nmapping: ["placement:p.1", "placement:p-1"]\nmodel: none\n' >"$W/pics.yaml"
T "item46 run --draw, two mappers of one file name" ok -c '[ "$(ls o/net-*.dot | wc -l)" = 2 ] && [ "$(grep "^picture: " "$err" | sort -u | wc -l)" = 2 ]' -- \
  run "$W/pics.yaml" -o "$W/o" --draw "$W/o/net.dot"

# Keys that would do nothing, and errors said at the key that caused them.
printf 'network: mesh:4x4\nfailures: {links: 1, at: 1us}\nworkload: {process: ring:4, pattern: exchange:size=64}\nmodel: none\n' >"$W/s.yaml"
T "item46 failures.at with model none" error -m "s.yaml:2:26: failures.at" -- run "$W/s.yaml" -o "$W/o"
printf 'network: mesh:2x2\njobs:\n  - {workload: {process: ring:4, pattern: exchange:size=64}}\nbackground: uniform:load=0.5\n' >"$W/s.yaml"
T "item46 background with every node a job's" error -m "s.yaml:4:13: background" -- run "$W/s.yaml" -o "$W/o"
printf 'network: mesh:2x2\njobs:\n  - {workload: {process: ring:3, pattern: exchange:size=64}}\nbackground: uniform:load=0.5\n' >"$W/s.yaml"
T "item46 background with one free node" error -m "s.yaml:4:13: background" -- run "$W/s.yaml" -o "$W/o"
printf 'network: irregular:nodes=16,switches=12,ports=6,seed=58\nfailures: {links: 1, seed: 58}\nworkload: {process: ring:4, pattern: exchange:size=64}\nmodel: none\n' >"$W/s.yaml"
T "item46 failures that leave the network unroutable" error -m "s.yaml:2:11: failures: the network left cannot be routed" -- run "$W/s.yaml" -o "$W/o"
T "item46 traffic on a network of one node" error -m "--topology" -- traffic --topology mesh:1
T "item46 traffic on a network of one node, JSON" error -m "--topology" -- traffic --topology mesh:1x1 --format json
printf 'network: mesh:1\nworkload: {traffic: uniform}\n' >"$W/s.yaml"
T "item46 run open-loop traffic on one node" error -m s.yaml -- run "$W/s.yaml" -o "$W/o"
T "item46 plot --script onto -o" error -m fig.svg -- plot "$fx/run/results.csv" --x replicate --y cardinality -o "$W/fig.svg" --script "$W/./fig.svg"
ln -s fig2.svg "$W/link.svg"
T "item46 plot --script through a link onto -o" error -m link.svg -- plot "$fx/run/results.csv" --x replicate --y cardinality -o "$W/fig2.svg" --script "$W/link.svg"

# node: paths beside the scenario, whatever the working folder.
mkdir -p "$W/sub"; printf 'levels:\n  - {name: machine, bandwidth: 10GB/s, latency: 400ns}\n  - {name: core, count: 8}\n' >"$W/sub/n.yaml"
printf 'network: {name: fattree, k: 2, levels: 2, node: n.yaml}\nworkload: {process: ring:16, pattern: exchange:size=64}\nslots: 8\nmodel: none\n' >"$W/sub/s.yaml"
T "item46 node: beside the scenario, run from another folder" ok -c 'test -s o/results.csv' -- run "$W/sub/s.yaml" -o "$W/o"
printf 'network: {name: fattree, k: 2, levels: 2, node: ../../../../../../../../../etc/passwd}\nworkload: {process: ring:4, pattern: exchange:size=64}\nmodel: none\n' >"$W/s.yaml"
T "item46 node: /etc/passwd by a relative path" error -m passwd -- run "$W/s.yaml" -o "$W/o"
# libhwloc's own "aborting!" line stays off stderr.
printf '<?xml version="1.0"?>\n<topology version="2.0">\n<object type="Machine" os_index="0" cpuset="0x1" complete_cpuset="0x1" gp_index="1">\n<object type="Core" os_index="0" cpuset="0x1" complete_cpuset="0x1" gp_index="2"><object type="PU" os_index="0" cpuset="0x1" complete_cpuset="0x1" gp_index="3"/></object>\n</object>\n</topology>\n' >"$W/x.xml"
printf 'hwloc: x.xml\nlevels:\n  - {name: machine, bandwidth: 10GB/s, latency: 400ns}\n  - {name: core}\n' >"$W/n.yaml"
T "item46 hwloc XML without a NUMA node (hwloc aborts)" error -m x.xml -- topo "mesh:2x1,node=$W/n.yaml"

# Jobs late in time: slowdowns exact for jobs alone in their time.
printf 'network: fattree:k=4,levels=2\nmodel: flow\njobs:\n  - {name: a, workload: {process: ring:4, pattern: "exchange:size=64KiB"}, start: 999999s}\n  - {name: b, workload: {process: ring:4, pattern: "exchange:size=64KiB"}, after: a}\n  - {name: c, workload: {process: ring:4, pattern: "exchange:size=64KiB"}, start: 900000s}\n' >"$W/s.yaml"
T "item46 jobs at 999999 s and 900000 s, slowdowns" ok -c 'python3 -c "
import csv
for r in csv.DictReader(open(\"o/results.csv\")):
    for k, v in r.items():
        assert not k.startswith(\"sim_slowdown\") or float(v) == 1.0, (k, v)
"' -- run "$W/s.yaml" -o "$W/o"
