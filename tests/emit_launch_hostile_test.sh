#!/usr/bin/env bash
# Regression tests of issue 46 items 1-2 through the CLI: an emitted sweep.slurm / jobs.txt whose sweep
# name, folder and --set values hold shell and sbatch syntax runs the point it names and nothing else
# (run here with bash, as the array task and GNU Parallel would); control characters are refused; launch
# files refuse node names their launcher reads as syntax, naming the node and the file.
# Usage: emit_launch_hostile_test.sh MAPSIM
here=$(cd "$(dirname "$0")" && pwd)
source "$here/test_lib.sh" "$1"
# refused_error NAME PATTERN ARGS...: test_lib.sh's refused, the line being mapsim's own error.
refused_error() {
  local name=$1 pattern=$2; shift 2
  refused "$name" "^mapsim: error: .*$pattern" "$@"
}

printf 'network: mesh:2x2\nworkload: {process: ring:4}\nmapping: [default]\nmodel: none\nreplicates: 1\n' >base.yaml
payload="x --error=$tmp/pwn --export=ALL,LD_PRELOAD=$tmp/e.so 'q' \"d\" #c %u \$(touch $tmp/CANARY) \`touch $tmp/CANARY\`; touch $tmp/CANARY"
yaml_quoted() { local t=${1//\'/\'\'}; printf "'%s'" "$t"; }
printf 'name: %s\nscenario: base.yaml\nvary: {seed: [1, 2]}\n' "$(yaml_quoted "$payload")" >sw.yaml
out="$tmp/o $payload"

# 1. sweep.slurm: bash parses it, and array task 1 runs point 1 into the folder as named.
"$mapsim" sweep sw.yaml --emit slurm -o "$out" >emitted.txt 2>err.txt
check "emit slurm: exit 0" test $? -eq 0
check "emit slurm: names the script" test "$(cat emitted.txt)" = "$out/sweep.slurm"
check "emit slurm: bash -n" bash -n "$out/sweep.slurm"
# sbatch reads exactly five options, the job name whole (its #SBATCH split, as scripts/red_team/sbatch_options.py does it)
python3 "$here/../scripts/red_team/sbatch_options.py" "$out/sweep.slurm" >options.txt
check "emit slurm: five #SBATCH options" test "$(wc -l <options.txt)" -eq 5
check "emit slurm: the job name whole" test "$(head -1 options.txt)" = "--job-name=mapsim-$payload"
SLURM_ARRAY_TASK_ID=1 bash "$out/sweep.slurm" >task.txt 2>&1
check "emit slurm: the task runs its point" test "$(ls "$out/points" 2>/dev/null | wc -l)" -eq 1
check "emit slurm: nothing else ran" test ! -e "$tmp/CANARY" -a ! -e "$tmp/pwn"
# 2. jobs.txt: each line one job; bash runs them all, as GNU Parallel would.
"$mapsim" sweep sw.yaml --emit parallel -o "$out" >/dev/null 2>err.txt
check "emit parallel: exit 0" test $? -eq 0
check "emit parallel: one line per point" test "$(wc -l <"$out/jobs.txt")" -eq 2
bash "$out/jobs.txt" >jobs.log 2>&1
check "emit parallel: both points ran" test "$(ls "$out/points" | wc -l)" -eq 2
check "emit parallel: nothing else ran" test ! -e "$tmp/CANARY"
"$mapsim" sweep sw.yaml -o "$out" --merge >/dev/null 2>&1
check "emit: the points merge" test -s "$out/results.csv"
# 3. Control characters: refused with the file and line, or naming the flag; no script written.
printf 'name: "a\\ntouch %s/CANARY"\nscenario: base.yaml\n' "$tmp" >nl.yaml
refused_error "a newline in name:" "nl.yaml:1:7: name: expected text without control characters" sweep nl.yaml --emit slurm -o o-nl
check "a newline in name: no script" test ! -e o-nl
refused_error "a newline in -o" "the sweep's output folder '.*' holds a newline" sweep sw.yaml --emit parallel -o $'o\ntouch CANARY'
refused_error "a tab in --set" "--set 'seed=1..touch CANARY' holds a tab" sweep sw.yaml --emit slurm -o o-set --set $'seed=1\ttouch CANARY'
refused_error "a backslash in the Slurm folder" "holds '.', which turns off sbatch's %a" sweep sw.yaml --emit slurm -o 'o\x'

# 4. Launch files: a node name its launcher reads as syntax is refused, naming node and file; none written.
net() { printf 'switches: [s0]\nnodes:\n  - {name: %s, switch: s0}\n  - {name: n1, switch: s0}\nlinks: []\n' "$(yaml_quoted "$1")" >net.yaml; }
net '-oProxyCommand=touch${IFS}CANARY'
refused_error "machinefile: a leading -" "m.hosts: machinefile: node '-oProxyCommand=touch\\\$\\{IFS\\}CANARY' \\(rank 0\\) begins with '-'" \
  map --topology file:net.yaml --process ring:2 --launch machinefile=m.hosts
check "machinefile: a leading -: no file" test ! -e m.hosts
net 'gpu*4'
refused_error "slurm-hostfile: HOST*COUNT" "s.hosts: slurm-hostfile: node 'gpu\\*4' \\(rank 0\\) holds '\\*'" \
  map --topology file:net.yaml --process ring:2 --launch slurm-hostfile=s.hosts
net '+n0'
refused_error "rankfile: +n0" "r.rf: rankfile: node '\\+n0' \\(rank 0\\) begins with '\\+'" map --topology file:net.yaml --process ring:2 --rankfile r.rf
net 'n#1'
refused_error "rankfile: n#1" "node 'n#1' \\(rank 0\\) holds '#'" run base.yaml --set network=file:net.yaml --set workload.process=ring:2 -o r --launch rankfile
net 'node-0.a'
"$mapsim" map --topology file:net.yaml --process ring:2 --launch machinefile=ok.hosts --rankfile ok.rf >/dev/null 2>&1
check "an ordinary name is written" grep -qx 'node-0.a:1' ok.hosts
check "nothing ran" test ! -e CANARY -a ! -e "$tmp/CANARY"

finish
