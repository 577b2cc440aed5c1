#!/usr/bin/env bash
# Regression tests of hostile input, issue 29 items 7-9: no silent wrong results (lost output, ignored
# documents, wrapped numbers, phantom links, overflowing times), no unbounded runs, clear messages.
# Usage: hostile_input_more_test.sh MAPSIM SOURCE_DIR
set -uo pipefail
mapsim=$(realpath "$1")
src=$(realpath "$2")
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
cd "$tmp" || exit 1
passed=0 failed=0
check() {  # check NAME CONDITION...
  local name=$1; shift
  if "$@"; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL: $name" >&2; fi
}
# refused NAME PATTERN ARGS...: non-zero exit, one line on stderr matching PATTERN (grep -E), nothing on stdout.
refused() {
  local name=$1 pattern=$2; shift 2
  timeout 60 "$mapsim" "$@" >out.txt 2>err.txt
  local rc=$?
  check "$name: exit code" test "$rc" -ne 0 -a "$rc" -ne 124
  check "$name: one line" test "$(wc -l <err.txt)" -eq 1
  check "$name: message" grep -qE -- "$pattern" err.txt
  check "$name: no stdout" test ! -s out.txt
  [ "$(wc -l <err.txt)" -eq 1 ] && grep -qE -- "$pattern" err.txt || cat err.txt >&2
}

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
refused "traffic: spray on the flow model" "--path-selection spray: path selection spray chooses paths per packet.*not flow" \
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
check "one error of every replicate: the others counted" grep -q "7 more mapper run(s) failed with an error shown above" err.txt
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

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
