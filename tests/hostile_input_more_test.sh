#!/usr/bin/env bash
# Regression tests of hostile input, issue 29 items 7-9: no silent wrong results (lost output, ignored
# documents, wrapped numbers, phantom links, overflowing times), no unbounded runs, clear messages.
# Usage: hostile_input_more_test.sh MAPSIM SOURCE_DIR
src=$(realpath "$2")
source "$(dirname "$0")/test_lib.sh" "$1"

cat >s.yaml <<'YAML'
name: s
network: mesh:2x2
workload: {process: ring:4, pattern: exchange:size=64}
mapping: [default]
replicates: 1
YAML

# 7. Silent wrong results.
# Standard output that fails: a full disk or a closed descriptor fails the command.
"$mapsim" topo mesh:2x2 >/dev/full 2>err.txt
check "stdout on a full disk: exit code" test $? -eq 1
check "stdout on a full disk: message" grep -qx "mapsim: error: standard output: No space left on device" err.txt
"$mapsim" components >/dev/full 2>err.txt  # more than one buffer
check "long stdout on a full disk: exit code" test $? -eq 1
check "long stdout on a full disk: message" grep -qx "mapsim: error: standard output: No space left on device" err.txt
"$mapsim" topo mesh:2x2 >&- 2>err.txt
check "closed stdout: exit code" test $? -eq 1
check "closed stdout: message" grep -qx "mapsim: error: standard output: Bad file descriptor" err.txt
"$mapsim" topo mesh:2x2 --export json -o net.json >&- 2>/dev/null
check "closed stdout: an output file gets no stray text" python3 -c "import json; json.load(open('net.json'))"
"$mapsim" topo mesh:2x2 >/dev/null 2>err.txt
check "stdout that works: exit 0" test $? -eq 0
# One YAML document per file: a second one is refused, not dropped.
printf -- '---\n' | cat s.yaml - >two.yaml && echo 'replicates: 500' >>two.yaml
refused "scenario with a second document" "two.yaml:6: a second YAML document; expected one" run two.yaml -o r-two
printf 'switches: [a]\nnodes: [{name: n, switch: a}]\nlinks: []\n---\nswitches: [b]\n' >net2.yaml
refused "network file with a second document" "net2.yaml:4: a second YAML document; expected one" topo file:net2.yaml
# Numbers out of range: refused, not rounded or wrapped.
printf '0 send 1 0 100000000000000000000000\n1 recv 0 0 100000000000000000000000\n' >big.txt
refused "a count above 2^64" "big.txt:1: size '100000000000000000000000' is above 2\^53" trace stats big.txt
refused "traffic seed -1" "--seed: expected a whole number >= 0, got '-1'" traffic --topology mesh:2x2 --seed -1
refused "allocation seed -1" "seed must be >= 0, got -1" map --topology mesh:4x4 --process ring:4 --allocation random:seed=-1
# 0 is no hidden default in traffic.
refused "traffic --message 0" "message size must be above 0 bytes" traffic --topology mesh:2x2 --message 0
refused "traffic --measure 0" "measurement window must be above 0" traffic --topology mesh:2x2 --measure 0
# Per-packet path choices need a model with queues: refused before anything runs, naming the key.
refused "traffic: spray on the flow model" "--path-selection: model.path_selection: path selection spray chooses paths per packet.*not flow" \
  traffic --topology mesh:2x2 --path-selection spray --model flow
refused "simulate: adaptive on the flow model" "--path-selection: model.path_selection: path selection adaptive" \
  simulate --topology mesh:2x2 --process ring:4 --model flow --path-selection adaptive
refused "run --set: spray on the flow model" "--set model.path_selection=spray: model.path_selection" \
  run s.yaml -o r-spray --set model.path_selection=spray
check "run --set: nothing written" test ! -e r-spray
# ibnetdiscover lists every link at both ends; the forwarding tables must not loop.
ibnet=$src/configs/networks/example.ibnet
grep -v '^\[36\]	"S-7cfe900300a1b2c0"\[36\]' "$ibnet" >one-end.ibnet
refused "ibnet: a link listed at one end" "one-end.ibnet:14: link S-7cfe900300a1b2c0\[36\] - S-7cfe900300a1b3d0\[36\] is listed at this end only" \
  topo ibnet:one-end.ibnet
sed 's/^\[36\]\t"S-7cfe900300a1b2c0"\[36\]/[36]\t"S-7cfe900300a1b2c0"[34]/' "$ibnet" >ports.ibnet
refused "ibnet: ends that disagree" "ports.ibnet:14: .* disagrees with line 24" topo ibnet:ports.ibnet
sed 's/^0x000d 001 :/0x000d 035 :/' "$src/configs/networks/example.lft" >loop.lft
refused "lft: a forwarding loop" "loop.lft:21: switch 'leaf-b' forwards its own cn03 to port 35.*a forwarding loop" \
  topo "ibnet:$ibnet,lft=loop.lft"
# Times and bandwidths whose products overflow are refused.
refused "t_p=1.7e308s" "bad time '1.7e308s': above 1e6 s" simulate --topology mesh:2x2,t_p=1.7e308s --process ring:4
refused "1e-311 B/s" "bad bandwidth '1e-311': expected 1 B/s \(8bps\) to 1e18 B/s" \
  simulate --topology mesh:2x2,link_bandwidth=1e-311 --process ring:4
# 1-byte messages: the default windows span many latencies; a shorter explicit one is refused.
"$mapsim" traffic --topology mesh:2x2 --message 1 --format csv -o one.csv 2>/dev/null
check "1-byte messages: accepted throughput above 0" python3 -c "
import csv; row = next(csv.DictReader(open('one.csv'))); assert float(row['accepted']) > 0.4, row"
refused "a window shorter than the latencies" "measurement window 100ns is shorter than 4 zero-load latencies" \
  traffic --topology mesh:2x2 --message 1 --measure 100ns
# A trace written over a previous one leaves none of its rank files; a folder of other files is refused.
"$mapsim" simulate --topology mesh:2x2 --process ring:4 --write-trace tr >/dev/null 2>&1
"$mapsim" simulate --topology mesh:2x2 --process ring:2 --write-trace tr >/dev/null 2>&1
check "--write-trace over a previous trace: its extra rank files go" test ! -e tr/rank-2.txt -a ! -e tr/rank-3.txt -a -e tr/rank-1.txt
"$mapsim" simulate --topology mesh:2x2 --process ring:4 --write-trace tr4 >/dev/null 2>&1
"$mapsim" trace convert tr4/index.txt -o conv >/dev/null 2>&1
"$mapsim" trace convert tr/index.txt -o conv >/dev/null 2>&1
check "trace convert over a previous trace: its extra rank files go" test ! -e conv/rank-2.txt -a -e conv/rank-1.txt
before=$(cat tr4/* | sha1sum)
"$mapsim" simulate --topology mesh:2x2 --trace tr4/index.txt --write-trace tr4 >/dev/null 2>err.txt
check "--write-trace onto the trace it reads: refused" grep -q "that this command reads; choose another output" err.txt
check "--write-trace onto the trace it reads: the trace kept" test "$before" = "$(cat tr4/* | sha1sum)"
mkdir notes && echo mine >notes/notes.txt
refused "--write-trace into a folder of other files" "notes: holds 'notes.txt', which is no part of a trace" \
  simulate --topology mesh:2x2 --process ring:4 --write-trace notes
check "--write-trace into a folder of other files: nothing written" test ! -e notes/index.txt -a ! -e notes/rank-0.txt

# 8. Bounded runs: large networks are sampled and say so; unbounded traffic is refused up front.
start=$(date +%s)
timeout 60 "$mapsim" topo mesh:100x100 >mesh.txt 2>/dev/null
check "topo mesh:100x100: done" test $? -eq 0
check "topo mesh:100x100: in seconds" test $(($(date +%s) - start)) -lt 30
check "topo mesh:100x100: says what was sampled" grep -qE "^sample +[0-9]+ of 1e\+08 routes" mesh.txt
check "topo mesh:100x100: exact diameter" grep -q "^diameter       198 switch hops" mesh.txt
check "topo mesh:100x100: a confidence interval" grep -qE "^route hops     avg 66\.[0-9]+ \+- 0\.[0-9]+" mesh.txt
refused "traffic --message 1GB" "above the limit of 67108864" traffic --topology mesh:2x2 --message 1GB
refused "traffic --measure 1000s" "above the limit of 67108864" traffic --topology mesh:2x2 --measure 1000s

# 9. Clear messages.
refused "a full disk, with the reason" "/dev/full: cannot write file \(No space left on device\)" \
  topo mesh:2x2 --export json -o /dev/full
touch afile
refused "a folder that is a file: no internal error" "^mapsim: error: afile/out: cannot create directories: Not a directory" \
  simulate --topology mesh:2x2 --process ring:4 -o afile/out
refused "a trace folder that is a file" "afile: is a file, not a folder" simulate --topology mesh:2x2 --process ring:4 --write-trace afile
# An error every replicate shares is printed once.
cat >rep.yaml <<'YAML'
network: mesh:2x2
workload: {process: ring:4, pattern: exchange:size=32MiB}
mapping: [random, default]
model: {name: packet, mtu: 1}
replicates: 4
YAML
timeout 60 "$mapsim" run rep.yaml -o r-rep >/dev/null 2>err.txt
check "one error of every replicate: printed once" test "$(grep -c 'above the limit of 16777216 per message' err.txt)" -le 2
check "one error of every replicate: the others counted" grep -q "no mapper ran: .*above the limit of 16777216 per message.* (7 more mapper run(s) failed alike)" err.txt
# A UTF-8 byte-order mark is skipped, not quoted invisibly.
{ printf '\xef\xbb\xbf'; cat s.yaml; } >bom.yaml
"$mapsim" run bom.yaml -o r-bom >/dev/null 2>&1
check "byte-order mark: scenario" test -s r-bom/results.csv
printf '\xef\xbb\xbf0 0\n1 1\n2 2\n3 3\n' >bom-place.txt
"$mapsim" map --topology mesh:2x2 --process ring:4 --mapper placement:bom-place.txt >/dev/null 2>&1
check "byte-order mark: placement file" test $? -eq 0
printf '\xef\xbb\xbf0 send 1 0 8\n1 recv 0 0 8\n' >bom-trace.txt
"$mapsim" trace stats bom-trace.txt >/dev/null 2>&1
check "byte-order mark: trace" test $? -eq 0
{ printf '\xef\xbb\xbf'; cat "$ibnet"; } >bom.ibnet
"$mapsim" topo ibnet:bom.ibnet >/dev/null 2>&1
check "byte-order mark: ibnet" test $? -eq 0
printf '\xef\xbb\xbfmapper,x,y\nrandom,1,2\nrandom,2,3\n' >bom.csv
"$mapsim" plot bom.csv --x x --y y --table >/dev/null 2>&1
check "byte-order mark: CSV header" test $? -eq 0
# A file that is not the input it was named as is quoted 40 bytes at most; one an index names, not at all.
printf 'root:x:0:0:root:/root:/bin/bash-with-a-long-line-SECRET-TAIL\n' >passwd
refused "ibnet:passwd quotes 40 bytes" "passwd:1: unrecognised line 'root:x:0:0:root:/root:/bin/bash-with-a-l...' \(40 of 60 bytes shown\)" \
  topo ibnet:passwd
check "ibnet:passwd: not the rest" test "$(grep -c SECRET err.txt)" -eq 0
printf 'root:$6$SECRETSALT$hash:19000:0:99999:7:::\ndaemon:*:19000:0:99999:7:::\n' >shadow
printf '%s\n%s\n' "$tmp/shadow" "$tmp/shadow" >index.txt
refused "an index naming another file: not quoted" "shadow:1: expected 'RANK ACTION ...' \(the line is not shown: .*index.txt:1 names this file" \
  trace stats index.txt
check "an index naming another file: its text stays out" test "$(grep -c SECRETSALT err.txt)" -eq 0
printf '%s\n' "$tmp/shadow" >one-line-index.txt
refused "a one-line index naming another file: not quoted" "shadow:1: names no trace file \(the name is not shown" \
  trace stats one-line-index.txt
check "a one-line index naming another file: its text stays out" test "$(grep -c SECRETSALT err.txt)" -eq 0

# 10. Red-team round 3: each damaged input is one line naming the file and what was expected.
"$mapsim" run s.yaml -o r-base --timeline >/dev/null 2>&1
damage() {  # damage FILE CONTENT: rd is a copy of the run folder r-base with FILE replaced by CONTENT
  rm -rf rd && cp -r r-base rd && printf '%s' "$2" >"rd/$1"
}
damage summary.json '{'
refused "report: summary.json cut short" "^mapsim: error: rd/summary.json: not JSON \(line 1, column 2\): unexpected end of input" report rd
check "report: no library text" test "$(grep -c 'json.exception\|nlohmann' err.txt)" -eq 0
damage summary.json ''
refused "report: summary.json empty" "rd/summary.json: empty file; expected a JSON object" report rd
damage summary.json "$(head -c 50000 /dev/zero | tr '\0' '[')"
refused "report: summary.json nested 50000 deep" "rd/summary.json: nested more than 64 levels deep" report rd
damage summary.json $'\xff\xfe{}'
refused "report: summary.json binary" "rd/summary.json: not JSON \(line 1, column 1\): invalid literal" report rd
damage summary.json '{"mappers": 5}'
refused "report: summary.json mappers a number" 'rd/summary.json: "mappers": expected an object \(mapper -> metrics\), got a number' report rd
damage summary.json '{"mappers": {"x": []}}'
refused "report: summary.json mapper a list" 'rd/summary.json: "mappers.x": expected an object \(metric -> statistics\), got a list' report rd
damage summary.json '{"mappers": {}, "portfolio": {"best": [{"replicate": 0}]}}'
refused "report: portfolio entry without its fields" 'rd/summary.json: portfolio.best\[0\]: no "objective"' report rd
damage links.csv $'\x01junk\n'
refused "report: links.csv junk" "rd/links.csv: no column 'replicate'; expected mapsim run's link loads" report rd
damage timeline.csv $'mapper,rank,state,start,end\ndefault,18446744073709551616,compute,0,1\n'
refused "report: timeline.csv rank 2^64" "rd/timeline.csv:2: rank is '18446744073709551616'; expected a rank number" report rd
damage portfolio.csv $'replicate,mapper,candidate,objective,score,sim_makespan,chosen\n0,best,x,congestion,abc,,1\n'
refused "report: portfolio.csv score not a number" "rd/portfolio.csv:2: score is 'abc'; expected a number" report rd
check "report: nothing written for damaged inputs" test ! -e rd/report.html
printf 'scenario: s.yaml\nvary: {seed: [1, 2]}\n' >sw.yaml
"$mapsim" sweep sw.yaml -o sd -j 1 >/dev/null 2>&1
printf 'garbage' >sd/aggregate.csv
refused "report: sweep aggregate.csv garbage" "sd/aggregate.csv:1: starts with 'garbage'; expected mapsim sweep's aggregate table" report sd
# Output names: an empty one is an error, not a library's text.
printf '0 send 1 0 8\n1 recv 0 0 8\n' >pair.txt
refused "trace convert -o ''" "^mapsim: error: trace convert -o: expected a folder for the converted trace, got an empty name" \
  trace convert pair.txt -o ""
refused "trace convert --shared -o ''" "trace convert -o: expected a file name" trace convert pair.txt --shared -o ""
# run --draw onto an input, through a link: refused before anything runs.
ln -s s.yaml s.svg
refused "run --draw through a symlink to the scenario" "s.svg: is the YAML file s.yaml that this command reads" run s.yaml -o r-draw --draw s.svg
check "run --draw onto an input: nothing written" test ! -e r-draw
# traffic checks its -o before simulating: no progress line before the error.
refused "traffic -o into a missing folder" "nodir/x.csv: cannot write file \(No such file or directory\)" \
  traffic --topology mesh:2x2 --load 0.1 --format csv -o nodir/x.csv
# Inputs that were accepted: an unknown shape family, a negative communicator size, METIS format
# fields and negative weights, a NUL byte in a number.
printf 'shape: {family: bogus}\nswitches: [a]\nnodes: [{name: n, switch: a}]\nlinks: []\n' >bogus.yaml
refused "network file: unknown shape family" "bogus.yaml:1:17: unknown shape family 'bogus'; expected one of file, irregular, hypercube, mesh" \
  topo file:bogus.yaml
printf 'shape: {family: mesh, dims: [4, 4]}\nswitches: [a]\nnodes: [{name: n, switch: a}]\nlinks: []\n' >dims.yaml
refused "network file: dims that disagree" "dims.yaml:1:8: shape: a mesh of dims \[4, 4\] has 16 switches, the file declares 1" topo file:dims.yaml
printf '0 comm_size -1\n0 send 1 0 100\n1 recv 0 0 100\n' >cs.txt
refused "trace: comm_size -1" "cs.txt:1: expected a communicator size of at least 1, got '-1'" trace check cs.txt
printf '4 4 999\n2 1\n1 1 3 1\n2 1 4 1\n3 1\n' >fmt.graph
refused "METIS: format field 999" "fmt.graph:1: METIS format field '999'" map --topology mesh:2x2 --process graph:fmt.graph
printf '4 3 1\n2 -5\n1 -5 3 1\n2 1 4 1\n3 1\n' >neg.graph
refused "METIS: a negative weight" "neg.graph:2: the weight of the edge to neighbour 2 is -5; expected a volume >= 0" \
  map --topology mesh:2x2 --process graph:neg.graph
printf 'mapper,x,y\nrandom,1,2\0\0\n' >nul.csv
refused "plot: a NUL byte in a number" "nul.csv: row 1: y is '2.*not a finite number" plot nul.csv --x x --y y --table
# The file at fault is named: a sweep's scenario that is no map, a --set key, a trace's unmatched send.
cp /etc/passwd passwd.txt
printf 'scenario: passwd.txt\nvary: {seed: [1, 2]}\n' >pw.yaml
refused "sweep: a scenario that is no map" "passwd.txt:1:1: expected a scenario: a map with network" sweep pw.yaml -o r-pw
refused "--set model.bogus=1 is --set's" "^mapsim: error: --set model.bogus=1: unknown key 'bogus'" run s.yaml -o r-set --set model.bogus=1
printf '0 send 1 0 10\n1 init\n' >unmatched.txt
refused "simulate: an unmatched send names the trace" "unmatched.txt: inconsistent trace: a send from rank 0 to rank 1 tag 0 was never received" \
  simulate --topology mesh:2x2 --trace unmatched.txt
# A SIGTERM to simulate alone (timeout, a batch system) ends its simulation child too.
long_sim=(simulate --topology irregular:nodes=256,switches=64 --process mesh:16x16 --workload exchange:iterations=4000 --model store-and-forward)
setsid "$mapsim" "${long_sim[@]}" >/dev/null 2>&1 &
pid=$!
sleep 1.5
kill -TERM $pid
wait $pid
check "simulate SIGTERM: ends by the signal" test $? -eq 143
sleep 0.3
check "simulate SIGTERM: no simulation left running" test -z "$(ps -s $pid -o stat=,pid= 2>/dev/null | grep -v '^ *Z')"
pkill -KILL -s $pid 2>/dev/null
# run (which keeps finished replicates) stops at once, not after the running simulation.
printf 'network: irregular:nodes=256,switches=64\nworkload: {process: mesh:16x16, pattern: "exchange:iterations=4000"}\nmodel: store-and-forward\n' >long.yaml
setsid "$mapsim" run long.yaml -o r-long >/dev/null 2>&1 &
pid=$!
sleep 1.5
start=$(date +%s%N)
kill -TERM $pid
wait $pid
check "run SIGTERM: exit 130" test $? -eq 130
check "run SIGTERM: within a second" test $(( ($(date +%s%N) - start) / 1000000 )) -lt 1000
check "run SIGTERM: no simulation left running" test -z "$(ps -s $pid -o stat=,pid= 2>/dev/null | grep -v '^ *Z')"
pkill -KILL -s $pid 2>/dev/null

# Issue 46, item 6: silent wrong results and unclear messages.
# (a) node: paths are relative to the scenario, wherever mapsim runs.
(cd / && "$mapsim" run "$src/configs/nodes/two-socket-run.yaml" -o "$OLDPWD/ts" --set model=none --set 'mapping=[default]' >/dev/null 2>err.txt)
check "node: beside the scenario, run from another folder" test -s ts/results.csv
# (b) Two runs into one folder: the second is refused while the first holds it; no lock file is left.
printf 'network: irregular:nodes=256,switches=64\nworkload: {process: mesh:16x16, pattern: "exchange:iterations=4000"}\nmodel: store-and-forward\n' >busy.yaml
setsid "$mapsim" run busy.yaml -o shared --no-progress >/dev/null 2>&1 &
pid=$!
for _ in $(seq 200); do [ -e shared/.mapsim.lock ] && break; sleep 0.05; done
refused "a second run into a folder in use" "^mapsim: error: shared: another mapsim command is writing this folder" run s.yaml -o shared
kill -TERM $pid
wait $pid
check "the first run goes on to its interrupt (130)" test $? -eq 130
check "no lock file left" test ! -e shared/.mapsim.lock
"$mapsim" run s.yaml -o shared >/dev/null 2>&1
check "a run after it takes the folder" test $? -eq 0 -a -s shared/summary.json -a ! -e shared/.mapsim.lock
# (c) Mappers whose names make one file name: one picture each.
printf '0 0\n1 1\n2 2\n3 3\n' >p.1
printf '0 3\n1 2\n2 1\n3 0\n' >p-1
printf 'network: mesh:2x2\nworkload: {process: ring:4, pattern: exchange:size=64}\nmapping: ["placement:p.1", "placement:p-1"]\nmodel: none\n' >pics.yaml
"$mapsim" run pics.yaml -o pics --draw pics/net.dot >/dev/null 2>err.txt
check "--draw: two pictures announced" test "$(grep -c '^picture: ' err.txt)" -eq 2 -a "$(grep '^picture: ' err.txt | sort -u | wc -l)" -eq 2
check "--draw: two pictures written" test "$(ls pics/net-*.dot | wc -l)" -eq 2
# (d) Jobs late in time: makespans counted from each job's start (exact slowdowns of 1 for jobs alone in time).
cat >late.yaml <<'YAML'
network: fattree:k=4,levels=2
jobs:
  - {name: a, workload: {process: ring:4, pattern: "exchange:size=64KiB"}, start: 999999s}
  - {name: b, workload: {process: ring:4, pattern: "exchange:size=64KiB"}, after: a}
model: flow
YAML
"$mapsim" run late.yaml -o late >/dev/null 2>&1
check "jobs at 999999 s, one after the other: slowdowns exactly 1" python3 -c "
import csv, sys
rows = list(csv.DictReader(open('late/results.csv')))
assert len(rows) == 2
for r in rows:
    for k in ('sim_slowdown', 'sim_slowdown_with_a', 'sim_slowdown_with_b'):
        assert float(r[k]) == 1.0, (k, r[k])
"
# (e) Keys that would do nothing.
printf 'network: mesh:4x4\nfailures: {links: 1, at: 1us}\nworkload: {process: ring:4, pattern: exchange:size=64}\nmodel: none\n' >fat.yaml
refused "failures.at without a model" "^mapsim: error: fat.yaml:2:26: failures.at: links failing during the run need a simulation model" run fat.yaml -o fat
printf 'network: mesh:2x2\njobs:\n  - {workload: {process: ring:4, pattern: exchange:size=64}}\nbackground: uniform:load=0.5\n' >nofree.yaml
refused "background with no free node" "^mapsim: error: nofree.yaml:4:13: background: needs at least 2 nodes that no job holds; the jobs leave 0 of the 4 free" run nofree.yaml -o nofree
check "no folder left by a refused run" test ! -e nofree
# (f) A routing failure the failures cause is said at the failures (the intact network routes).
printf 'network: irregular:nodes=16,switches=12,ports=6,seed=58\nfailures: {links: 1, seed: 58}\nworkload: {process: ring:4, pattern: exchange:size=64}\nmodel: none\n' >unrouted.yaml
refused "failures that leave the network unroutable" "^mapsim: error: unrouted.yaml:2:11: failures: the network left cannot be routed: updn: " run unrouted.yaml -o unrouted
# (g) libhwloc's own lines stay out of stderr: mapsim's one line says it.
printf '<?xml version="1.0"?>\n<topology version="2.0">\n<object type="Machine" os_index="0" cpuset="0x1" complete_cpuset="0x1" gp_index="1">\n<object type="Core" os_index="0" cpuset="0x1" complete_cpuset="0x1" gp_index="2"><object type="PU" os_index="0" cpuset="0x1" complete_cpuset="0x1" gp_index="3"/></object>\n</object>\n</topology>\n' >nonuma.xml
printf 'hwloc: nonuma.xml\nlevels:\n  - {name: machine, bandwidth: 10GB/s, latency: 400ns}\n  - {name: core}\n' >nonuma.yaml
refused "an hwloc file hwloc aborts on" "^mapsim: error: nonuma.yaml:1:1: nonuma.xml: not an hwloc XML topology" topo mesh:2x1,node=nonuma.yaml
# (h) plot's figure and script on one file.
refused "plot --script onto -o" "^mapsim: error: -o and --script name the same file \./fig\.svg$" plot late/results.csv --x replicate --y sim_makespan -o fig.svg --script ./fig.svg
ln -sf fig2.svg figlink.svg
refused "plot --script through a link onto -o" "^mapsim: error: -o and --script name the same file figlink\.svg$" plot late/results.csv --x replicate --y sim_makespan -o fig2.svg --script figlink.svg
# (i) Open-loop traffic on a network of one node.
refused "traffic on one node" "^mapsim: error: --topology: network: open-loop traffic needs a network of at least 2 nodes, got 1$" traffic --topology mesh:1

finish
