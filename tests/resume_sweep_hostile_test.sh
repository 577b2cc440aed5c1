#!/usr/bin/env bash
# Regression tests of hostile input (issue 29, items 5 and 6): an output folder that is a file, a
# device or an empty name, and damaged checkpoint or point folders, are one-line errors (exit 1);
# resume and merge check every row they read back and run again, or leave out, what is not the
# scenario's. Usage: resume_sweep_hostile_test.sh MAPSIM
source "$(dirname "$0")/test_lib.sh" "$1"
# refused NAME PATTERN ARGS...: exit 1 with one line on stderr matching PATTERN, no internal error.
refused() {
  local name=$1 pattern=$2; shift 2
  "$mapsim" "$@" >out.txt 2>err.txt
  local rc=$?
  check "$name: exit 1 (got $rc)" test "$rc" -eq 1
  check "$name: message" grep -q -- "^mapsim: error: $pattern" err.txt
  check "$name: one line" test "$(wc -l <err.txt)" -eq 1
}
# warned NAME FILE: one warning line (not one per file) names FILE, damaged, and what happens to it.
warned() {
  check "$1: one warning names the file" test "$(grep -c "^mapsim: warning: $2: .*; .*\(again\|not merged\)" err.txt)" -eq 1
}
rows() { tail -n +2 "$1" | wc -l; }

cat >s.yaml <<'YAML'
network: mesh:2x2
workload: {process: ring:4, pattern: exchange:size=64}
mapping: [default, random]
model: none
replicates: 3
YAML
cat >sw.yaml <<'YAML'
scenario: s.yaml
vary:
  workload.pattern.size: [64, 128]
  slots: [1, 2]
YAML
touch afile

# 5. Output folders that are not folders.
for o in afile /dev/null afile/sub; do
  what="is a file, not a folder"
  [ "$o" = /dev/null ] && what="is a device or pipe, not a folder"
  [ "$o" = afile/sub ] && what="afile is a file, not a folder"
  refused "run -o $o" "$o: $what; expected a folder" run s.yaml -o "$o"
  refused "sweep -o $o" "$o: $what; expected a folder" sweep sw.yaml -o "$o" -j 1
  refused "sweep --point -o $o" "$o: $what; expected a folder" sweep sw.yaml -o "$o" --point 0
  refused "sweep --merge -o $o" "$o: $what; expected a folder" sweep sw.yaml -o "$o" --merge
  refused "sweep --emit -o $o" "$o: $what; expected a folder" sweep sw.yaml -o "$o" --emit slurm
done
refused "run -o ''" "-o: expected a folder for the run's results, got an empty name" run s.yaml -o ""
refused "sweep -o ''" "-o: expected a folder for the sweep's results, got an empty name" sweep sw.yaml -o ""
check "an empty -o writes no default folder" test ! -e results
printf 'scenario: s.yaml\noutput: ""\nvary: {slots: [1]}\n' >empty-output.yaml
refused "sweep output: ''" "empty-output.yaml:2:9: output: expected a folder" sweep empty-output.yaml

# 5. Damaged sweep folders: a file for points/ or logs/, a folder for a point file.
mkdir d1 && echo garbage >d1/points
refused "points/ is a file: --resume" "d1/points: is a file, not a folder; expected a folder" sweep sw.yaml -o d1 --resume
refused "points/ is a file: run" "d1/points: is a file, not a folder" sweep sw.yaml -o d1
refused "points/ is a file: --point" "d1/points: is a file, not a folder" sweep sw.yaml -o d1 --point 1
refused "points/ is a file: --merge" "d1/points: is a file, not a folder" sweep sw.yaml -o d1 --merge
refused "points/ is a file: --emit --resume" "d1/points: is a file, not a folder" sweep sw.yaml -o d1 --emit parallel --resume
mkdir d2 && echo garbage >d2/logs
refused "logs/ is a file: --emit" ".*/d2/logs: is a file, not a folder; expected a folder for the job array's logs" sweep sw.yaml -o d2 --emit slurm
"$mapsim" sweep sw.yaml -o ref -j 2 >/dev/null 2>&1
check "reference sweep: 4 points x 3 replicates x 2 mappers" test "$(rows ref/results.csv)" -eq 24
cp -r ref d3 && f=$(ls d3/points/*.json | head -1) && rm "$f" && mkdir "$f"
refused "a folder for a point file: --resume" "$f: is a folder; expected a point file" sweep sw.yaml -o d3 --resume
refused "a folder for a point file: run" "$f: is a folder; expected a point file" sweep sw.yaml -o d3
refused "a folder for a point file: --merge" "$f: is a folder; expected a point file" sweep sw.yaml -o d3 --merge

# 6. Point files that were edited, truncated or swapped are not merged, and run again on --resume.
edit() {  # edit NAME PYTHON: a copy of ref/ whose first point file (or all, as `files`) PYTHON edits
  rm -rf e && cp -r ref e
  python3 - "$2" e/points/*.json <<'PY'
import json, sys
code, files = sys.argv[1], sorted(sys.argv[2:])
f = files[0]
text = open(f).read()
exec(code)
PY
  "$mapsim" sweep sw.yaml -o e --merge >out.txt 2>err.txt
  check "$1: --merge exits 2" test $? -eq 2
  check "$1: --merge counts the point as not run" grep -q "3 of 4 points done, 1 not run" out.txt
  warned "$1: --merge" "e/points/.*json"
  check "$1: --merge leaves the point out" test "$(rows e/results.csv)" -eq 18
  check "$1: --merge has only the scenario's mappers" test -z "$(cut -d, -f6 e/results.csv | tail -n +2 | grep -v -x -e default -e random)"
  "$mapsim" sweep sw.yaml -o e --resume -j 2 >out.txt 2>err.txt
  check "$1: --resume exits 0" test $? -eq 0
  warned "$1: --resume" "e/points/.*json"
  check "$1: --resume runs the point again" grep -q "4 of 4 points done (3 from before)" out.txt
  check "$1: --resume gives the scenario's rows" cmp -s e/results.csv ref/results.csv
  check "$1: --resume gives the scenario's aggregate" cmp -s e/aggregate.csv ref/aggregate.csv
}
J='j = json.loads(text)'
W='open(f, "w").write(json.dumps(j))'
edit "a foreign mapper" "$J; j['rows'][0][2] = 'evil'; $W"
edit "a row added" "$J; j['rows'].append(j['rows'][0]); $W"
edit "a row of another mapper added" "$J; r = list(j['rows'][-1]); r[2] = 'default'; j['rows'].append(r); $W"
edit "a row removed" "$J; j['rows'].pop(); $W"
edit "a replicate out of range" "$J; j['rows'][-1][0] = 3; $W"
edit "a seed not the replicate's" "$J; j['rows'][0][1] = 99; $W"
edit "rows reordered" "$J; j['rows'].reverse(); $W"
edit "a column dropped" "$J; j['columns'].pop(); $W"
edit "a column name with a comma" "$J; j['columns'][0] = 'a,b'; $W"
edit "a value that is text" "$J; j['rows'][0][4] = '1'; $W"
edit "a truncated file" "open(f, 'w').write(text[:len(text) // 2])"
edit "garbage" "open(f, 'w').write('garbage')"
edit "another point's file" "open(f, 'w').write(open(files[1]).read())"
rm -rf e && cp -r ref e && a=$(ls e/points/*.json | sed -n 1p) && b=$(ls e/points/*.json | sed -n 2p)
mv "$a" e/x && mv "$b" "$a" && mv e/x "$b"
"$mapsim" sweep sw.yaml -o e --merge >out.txt 2>err.txt
check "two point files swapped: --merge merges neither" grep -q "2 of 4 points done, 2 not run" out.txt
warned "two point files swapped" "e/points/.*json"
"$mapsim" sweep sw.yaml -o e --emit parallel --resume >/dev/null 2>err.txt
check "two point files swapped: --emit --resume lists both again" test "$(wc -l <e/jobs.txt)" -eq 2
"$mapsim" sweep sw.yaml -o e --resume >out.txt 2>/dev/null
check "two point files swapped: --resume runs both again" grep -q "4 of 4 points done (2 from before)" out.txt
check "two point files swapped: --resume gives the scenario's rows" cmp -s e/results.csv ref/results.csv
# A point shared with an older version of the sweep keeps this version's index and values.
cat >sw-old.yaml <<'YAML'
scenario: s.yaml
output: old
vary:
  slots: [2]
  workload.pattern.size: [128]
YAML
"$mapsim" sweep sw-old.yaml >/dev/null 2>&1
cp old/points/*.json ref/points/ 2>/dev/null
rm -rf e && mkdir -p e/points && cp old/points/*.json e/points/
"$mapsim" sweep sw.yaml -o e --merge >/dev/null 2>&1
check "a point from an older sweep: this sweep's index and values" \
  test "$(grep -c '^3,128,2,' e/results.csv)" -eq 6 -a "$(rows e/results.csv)" -eq 6

# 5 and 6. Checkpoints of an interrupted run.
cat >long.yaml <<'YAML'
network: irregular:nodes=64,switches=16
workload: {process: mesh:4x4x4, pattern: "exchange:iterations=40"}
mapping: [default, adjacency, random]
model: store-and-forward
replicates: 8
YAML
"$mapsim" run long.yaml -o full >/dev/null 2>&1
check "full run: 8 replicates x 2 mappers (adjacency does not fit)" test "$(rows full/results.csv)" -eq 16
"$mapsim" run long.yaml -o cut --no-progress >/dev/null 2>&1 &
pid=$!
for _ in $(seq 500); do [ -e cut/partial/replicate-2.json ] && break; sleep 0.01; done
kill -INT $pid
wait $pid
check "interrupted run exits 130" test $? -eq 130
check "interrupted run keeps replicates 0..2" test -e cut/partial/replicate-2.json -a ! -e cut/summary.json
resumed() {  # resumed NAME PYTHON [FILE]: a copy of cut/ whose checkpoint FILE (default replicate-1) PYTHON edits
  rm -rf e && cp -r cut e
  python3 - "$2" "e/partial/${3:-replicate-1.json}" e/partial/replicate-0.json <<'PY'
import json, sys
code, f, f0 = sys.argv[1], sys.argv[2], sys.argv[3]
text = open(f).read()
exec(code)
PY
  "$mapsim" run long.yaml -o e --resume >/dev/null 2>err.txt
  check "$1: exit 2 (adjacency)" test $? -eq 2
  warned "$1" "e/partial/replicate-[01].json"
  check "$1: the scenario's rows" cmp -s e/results.csv full/results.csv
  check "$1: the scenario's links" cmp -s e/links.csv full/links.csv
}
resumed "checkpoint: a foreign mapper" "$J; j['rows'][0]['mapper'] = 'evil'; $W"
resumed "checkpoint: a row added" "$J; j['rows'].append(j['rows'][0]); $W"
resumed "checkpoint: a row removed" "$J; j['rows'].pop(); $W"
resumed "checkpoint: a seed not the replicate's" "$J; j['rows'][0]['seed'] = 99; $W"
resumed "checkpoint: a column renamed" "$J; j['rows'][0]['values'][0][0] = 'x'; $W"
resumed "checkpoint: a failed mapper dropped from its replicate" "$J; j['failures'] = []; $W" replicate-0.json
resumed "checkpoint: a line injected into links.csv" "$J; j['rows'][0]['links_csv'] += 'link,0,a,b,1,2,3,4,5\\nx,y\\n'; $W"
resumed "checkpoint: truncated" "open(f, 'w').write(text[:len(text) // 2])"
resumed "checkpoint: another replicate's" "open(f, 'w').write(open(f0).read())"
rm -rf e && cp -r cut e && mv e/partial/replicate-1.json e/x && mv e/partial/replicate-2.json e/partial/replicate-1.json &&
  mv e/x e/partial/replicate-2.json
"$mapsim" run long.yaml -o e --resume >/dev/null 2>err.txt
warned "checkpoints swapped" "e/partial/replicate-1.json"
check "checkpoints swapped: the scenario's rows" cmp -s e/results.csv full/results.csv
rm -rf e && cp -r cut e && rm -r e/partial && echo garbage >e/partial
refused "partial/ is a file" "e/partial: is a file, not a folder; expected a folder" run long.yaml -o e --resume
rm -rf e && cp -r cut e && rm e/partial/replicate-1.json && mkdir e/partial/replicate-1.json
refused "a folder for a checkpoint" "e/partial/replicate-1.json: is a folder; expected a checkpoint file" run long.yaml -o e --resume

# Issue 46, item 4: every field read back is held against its replicate; launch files and pictures come
# from checked placements and loads, never from a checkpoint's text.
"$mapsim" run long.yaml -o fullx --launch rankfile --draw fullx/net.dot >/dev/null 2>&1
resumed_launch() {  # resumed_launch NAME PYTHON [WARN]: replicate 0's checkpoint edited, then --launch and --draw
  rm -rf e && cp -r cut e
  python3 - "$2" e/partial/replicate-0.json e/partial/replicate-1.json <<'PY'
import json, sys
code, f, f0 = sys.argv[1], sys.argv[2], sys.argv[3]
text = open(f).read()
exec(code)
PY
  timeout 120 "$mapsim" run long.yaml -o e --resume --launch rankfile --draw e/net.dot >/dev/null 2>err.txt
  check "$1: exit 2 (adjacency)" test $? -eq 2
  if [ -n "${3-}" ]; then
    check "$1: one warning names the file and the field" \
      test "$(grep -c "^mapsim: warning: e/partial/replicate-0.json: $3.*; replicate 0 runs again" err.txt)" -eq 1
  else
    check "$1: the checkpoint kept" test "$(grep -c 'warning: e/partial' err.txt)" -eq 0
  fi
  check "$1: the scenario's rows" cmp -s e/results.csv fullx/results.csv
  for f in default.rankfile random.rankfile net-default.dot net-random.dot; do
    check "$1: $f as an uninterrupted run's" cmp -s "e/$f" "fullx/$f"
  done
}
resumed_launch "checkpoint: a placement on node 10^9" "$J; j['rows'][0]['placement'][3] = 10**9; $W" "rows.0.placement: task 3 is placed on node 1000000000"
resumed_launch "checkpoint: a placement on node -5" "$J; j['rows'][0]['placement'][3] = -5; $W" "rows.0.placement: task 3 is placed on node -5"
resumed_launch "checkpoint: 3 ranks placed of 64" "$J; j['rows'][0]['placement'] = j['rows'][0]['placement'][:3]; $W" \
  "rows.0.placement: placement has 3 entries for 64 tasks"
resumed_launch "checkpoint: two ranks swapped onto one node" "$J; p = j['rows'][1]['placement']; p[1] = p[0]; $W" "rows.1.placement: task 1 overfills"
resumed_launch "checkpoint: a link line another link's" \
  "$J; l = j['rows'][0]['links_csv'].split('\\n'); l[0], l[1] = l[1], l[0]; j['rows'][0]['links_csv'] = '\\n'.join(l); $W" \
  "rows.0.links_csv line 1: expected the link"
resumed_launch "checkpoint: a formula for a load" \
  "$J; l = j['rows'][0]['links_csv'].split('\\n'); g = l[2].split(','); g[5] = '=1+1'; l[2] = ','.join(g); j['rows'][0]['links_csv'] = '\\n'.join(l); $W" \
  "rows.0.links_csv line 3: field 6 is not a number"
resumed_launch "checkpoint: a timeline of rank 99" "$J; j['rows'][0]['timeline_csv'] = '99,compute,0,1\\n'; $W" \
  "rows.0.timeline_csv line 1: rank 99 is not one of the job's 0..63"
resumed_launch "checkpoint: a negative time" "$J; j['rows'][1]['map_seconds'] = -1; $W" "rows.1: map_seconds and sim_seconds"
# A stored picture is not read: a hostile one (links to run, files to show) is drawn again from the loads.
resumed_launch "checkpoint: a picture of its own" \
  "$J; j['rows'][0]['network_dot'] = 'digraph { a [URL=\"javascript:alert(1)\", image=\"/etc/passwd\"] }'; $W"
check "a checkpoint holds no picture" test "$(grep -c network_dot cut/partial/replicate-0.json)" -eq 0

finish
