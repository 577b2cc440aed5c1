#!/usr/bin/env bash
# Regression tests of hostile input (issue 29): no command runs from a name, no output overwrites an
# input, no name writes extra lines into a launch file. Usage: hostile_input_test.sh MAPSIM
source "$(dirname "$0")/test_lib.sh" "$1"
# refused NAME INPUT ARGS...: non-zero exit, one line naming the input, INPUT unchanged.
refused() {
  local name=$1 input=$2; shift 2
  local before; before=$(sha1sum <"$input")
  "$mapsim" "$@" >out.txt 2>err.txt
  local rc=$?
  check "$name: exit code" test "$rc" -ne 0
  check "$name: message" grep -q "that this command reads; choose another output" err.txt
  check "$name: one line" test "$(wc -l <err.txt)" -eq 1
  check "$name: input kept" test "$before" = "$(sha1sum <"$input")"
}

# 1. Names reach gnuplot and Graphviz as data or quoted, never as script text.
printf 'mapper,x,y\nrandom,1,2\nrandom,2,3\nrandom,3,5\n' >r.csv
evil="x'; system('touch PWNED1'); '\`touch PWNED2\`\".svg"
"$mapsim" plot r.csv --x x --y y -o "$evil" --script "$evil.gp" --title "'\`touch PWNED3\`" 2>/dev/null
check "plot: a quoted output name is written" test -s "$evil"
check "plot: no command ran" test ! -e PWNED1 -a ! -e PWNED2 -a ! -e PWNED3
check "plot: no partial file left" test ! -e "$evil.partial"
if command -v gnuplot >/dev/null; then
  (gnuplot "$evil.gp" 2>/dev/null)
  check "plot: the saved script reruns without running a command" test ! -e PWNED1 -a ! -e PWNED2 -a ! -e PWNED3
fi
"$mapsim" plot r.csv --x x --y y -o "o'brien.svg" --title "'quoted" --xlabel "a\"b" 2>/dev/null
check "plot: o'brien.svg and a leading quote in a title" test -s "o'brien.svg"
cat >s.yaml <<'YAML'
name: s
network: mesh:2x2
workload: {process: ring:4, pattern: exchange:size=64}
mapping: [default]
replicates: 1
YAML
rdir="r'; system('touch PWNED4'); '\`touch PWNED5\`"
"$mapsim" run s.yaml -o "$rdir" >/dev/null 2>&1
"$mapsim" report "$rdir" >/dev/null 2>&1
check "report: a quoted folder name is reported" test -s "$rdir/report.html"
check "report: no command ran" test ! -e PWNED4 -a ! -e PWNED5
"$mapsim" run s.yaml -o drawn --draw "n'\`touch PWNED6\`.svg" >/dev/null 2>&1
check "run --draw: a quoted picture name is drawn" test -s "n'\`touch PWNED6\`.svg"
check "run --draw: no command ran" test ! -e PWNED6

# 2. An output that resolves to an input is refused, the input kept.
refused "plot --script onto the CSV" r.csv plot r.csv --x x --y y -o f.svg --script r.csv
ln -s r.csv link.svg
refused "plot -o through a symlink to the CSV" r.csv plot r.csv --x x --y y -o link.svg
refused "report -o onto results.csv" "$rdir/results.csv" report "$rdir" -o "$rdir/results.csv"
refused "report -o onto summary.json" "$rdir/summary.json" report "$rdir" -o "$rdir/summary.json"
ln "$rdir/results.csv" hard.html
refused "report -o onto a hard link of results.csv" "$rdir/results.csv" report "$rdir" -o hard.html
"$mapsim" topo mesh:2x2 --export json -o net.json 2>/dev/null
refused "topo --export -o onto the network file" net.json topo file:net.json --export json -o net.json
mkdir sub
refused "topo --export -o onto it through sub/.." net.json topo file:net.json --export dot -o ./sub/../net.json
"$mapsim" map --topology mesh:2x2 --process ring:4 -o place.txt >/dev/null 2>&1
refused "map --rankfile onto the placement" place.txt map --topology mesh:2x2 --process ring:4 --mapper placement:place.txt --rankfile place.txt
printf 'node-0\nnode-1\nnode-2\nnode-3\n' >nodes.txt
refused "map --hostlist onto the node list" nodes.txt map --topology mesh:2x2 --process ring:4 --allocation list:nodes.txt --hostlist nodes.txt
refused "map -o onto the node list" nodes.txt map --topology mesh:2x2 --process ring:4 --allocation list:nodes.txt -o nodes.txt
"$mapsim" simulate --topology mesh:2x2 --process ring:4 --workload exchange:size=64 --write-trace tr >/dev/null 2>&1
"$mapsim" trace convert tr/index.txt --shared -o shared.txt >/dev/null 2>&1
refused "trace matrix onto the shared trace" shared.txt trace matrix shared.txt -o shared.txt

# 3. Node and switch names are plain words: no newline, space or control character into a launch file.
cat >inject.yaml <<'YAML'
switches: [s0]
nodes:
  - {name: n0, switch: s0}
  - {name: "n1 slot=0\nrank 99=evil", switch: s0}
links: []
YAML
"$mapsim" map --topology file:inject.yaml --process ring:2 --rankfile rf.txt >out.txt 2>err.txt
check "injected node name: refused" test $? -ne 0
check "injected node name: file and line named" grep -q "inject.yaml:4.*expected printable ASCII without spaces" err.txt
check "injected node name: no rankfile" test ! -e rf.txt
sed -i 's/"n1 slot=0\\nrank 99=evil"/"n 1"/' inject.yaml
"$mapsim" topo file:inject.yaml >out.txt 2>err.txt
check "node name with a space: refused" grep -q "inject.yaml:4.*node name 'n 1'" err.txt
sed -i 's/"n 1"/n1/; s/\[s0\]/["s 0"]/; s/switch: s0/switch: "s 0"/g' inject.yaml
"$mapsim" topo file:inject.yaml >out.txt 2>err.txt
check "switch name with a space: refused" grep -q "inject.yaml:1.*switch name 's 0'" err.txt

finish
