# Red-team cases, sourced by scripts/red_team.sh: emitted batch scripts and launch files (issue 46 items
# 1-2). The checks run what was emitted -- sweep.slurm as array task 0, jobs.txt, with bash -- and read
# the #SBATCH options as sbatch does (sbatch_options.py); a canary that running them creates, or an
# option more than the five mapsim writes, is a security finding (exit 99).

# Checks (run with bash in the case's folder; the emitted folder is "out ...").
EMIT_SLURM_CHECK='shopt -s globstar nullglob; s=(out*/sweep.slurm); [ ${#s[@]} = 1 ] || exit 1
bash -n "${s[0]}" || exit 1
python3 '"$cases_dir"'/sbatch_options.py "${s[0]}" >opts.txt || exit 99
[ "$(wc -l <opts.txt)" = 5 ] && grep -q "^--output=.*/logs/point-%a\.log$" opts.txt || exit 99
SLURM_ARRAY_TASK_ID=0 bash "${s[0]}" >/dev/null 2>&1
c=(**/CANARY_*); [ ${#c[@]} = 0 ] || exit 99
p=(out*/points/*.json); [ ${#p[@]} = 1 ]'
EMIT_PARALLEL_CHECK='shopt -s globstar nullglob; j=(out*/jobs.txt); [ ${#j[@]} = 1 ] && [ "$(wc -l <"${j[0]}")" = 2 ] || exit 1
bash "${j[0]}" >/dev/null 2>&1
c=(**/CANARY_*); [ ${#c[@]} = 0 ] || exit 99
p=(out*/points/*.json); [ ${#p[@]} = 2 ]'
emit_sweep() {  # emit_sweep NAME_VALUE: a two-point sweep file named NAME_VALUE (YAML-quoted) in the case's folder
  printf 'name: %s\nscenario: %s\nvary: {seed: [1, 2]}\n' "$(yq "$1")" "$SWEEP_SCEN" >"$W/sw.yaml"
}
SBATCH_PL=" --error=/tmp/rt-pwn --export=ALL,LD_PRELOAD=/tmp/rt.so #c %u %j \\"

emit_sweep "n $PL$SBATCH_PL"
T "emit slurm ok: payloads in the name, the folder and --set" ok -c "$EMIT_SLURM_CHECK" -- \
  sweep "$W/sw.yaml" --emit slurm -o "$W/out $PL %u %j #c" --set "name=$PL"
emit_sweep "n $PL$SBATCH_PL"
T "emit parallel ok: payloads in the name, the folder and --set" ok -c "$EMIT_PARALLEL_CHECK" -- \
  sweep "$W/sw.yaml" --emit parallel -o "$W/out $PL\\" --set "name=$PL"
# (a YAML double-quoted \n: a newline in a single-quoted scalar folds into a space)
printf 'name: "n --job-name=x\\n#SBATCH --export=ALL,LD_PRELOAD=/tmp/rt.so"\nscenario: %s\n' "$SWEEP_SCEN" >"$W/sw.yaml"
T "emit slurm: a newline in name:" error -m sw.yaml -- sweep "$W/sw.yaml" --emit slurm -o "$W/out"
printf 'name: "n\\ntouch %s"\nscenario: %s\n' "$CAN" "$SWEEP_SCEN" >"$W/sw.yaml"
T "emit parallel: a newline in name:" error -m sw.yaml -- sweep "$W/sw.yaml" --emit parallel -o "$W/out"
printf 'scenario: %s\noutput: "o\\ttouch %s"\nvary: {seed: [1, 2]}\n' "$SWEEP_SCEN" "$CAN" >"$W/sw.yaml"
T "emit slurm: a tab in output:" error -m sw.yaml -- sweep "$W/sw.yaml" --emit slurm
T "emit slurm: a newline in -o" error -m "output folder" -- sweep "$fx/sw.yaml" --emit slurm -o "$W/o"$'\ntouch '"$CAN"
T "emit parallel: a newline in -o" error -m "output folder" -- sweep "$fx/sw.yaml" --emit parallel -o "$W/o"$'\ntouch '"$CAN"
T "emit parallel: a newline in --set" error -m --set -- sweep "$fx/sw.yaml" --emit parallel -o "$W/o" --set $'name=a\ntouch '"$CAN"
T "emit slurm: a carriage return in --set" error -m --set -- sweep "$fx/sw.yaml" --emit slurm -o "$W/o" --set $'name=a\rb'
T "emit slurm: a backslash in the folder (turns off %a)" error -m "%a" -- sweep "$fx/sw.yaml" --emit slurm -o "$W/o\\x"
T "emit slurm --resume: payload folder" ok -c "$EMIT_SLURM_CHECK" -- sweep "$fx/sw.yaml" --emit slurm --resume -o "$W/out $PLW %x"

# Launch files: node names each launcher reads as syntax, from a network file.
launch_net() {  # launch_net NAME: a network file in the case's folder whose first node is NAME
  printf 'switches: [s0]\nnodes:\n  - {name: %s, switch: s0}\n  - {name: n1, switch: s0}\nlinks: []\n' "$(yq "$1")" >"$W/net.yaml"
}
for probe in 'machinefile|-oProxyCommand=touch${IFS}%CAN%' 'hostlist|-F/etc/passwd' 'machinefile|root@evil' 'hostlist|n#1' \
  'machinefile|n:4' 'slurm-hostfile|gpu*4' 'slurm-hostfile|n[1-4]' 'slurm-hostfile|_n' 'slurm-hostfile|a,b' 'cpu-bind|-x' \
  'rankfile|+n0' 'rankfile|n#1' 'rankfile|slot' 'rankfile|007' 'rankfile|1.x' 'rankfile|a=b' 'rankfile|a/*b' \
  'rankfile|$(touch${IFS}%CAN%)' 'machinefile|`touch${IFS}%CAN%`' 'slurm-hostfile|%PLW%'; do
  format=${probe%%|*} name=${probe#*|}
  name=${name//%PLW%/$PLW} name=${name//%CAN%/$CAN}
  launch_net "$name"
  T "launch $format: node '${name:0:24}'" error -m "$format.out" -- map --topology "file:$W/net.yaml" --process ring:2 --launch "$format=$W/$format.out"
done
launch_net 'n#1'
T "launch run --launch rankfile: node 'n#1'" error -m rankfile -- run "$fx/s.yaml" --set "network=file:$W/net.yaml" --set workload.process=ring:2 -o "$W/r" --launch rankfile
launch_net 'cn01.cluster-a_2'
T "launch ok: an ordinary name in every format" ok \
  -c 'grep -qx "rank 0=cn01.cluster-a_2 slot=0" l.rf && grep -qx "cn01.cluster-a_2:1" l.m && grep -qx cn01.cluster-a_2 l.s' -- \
  map --topology "file:$W/net.yaml" --process ring:2 --launch rankfile="$W/l.rf" --launch machinefile="$W/l.m" --launch slurm-hostfile="$W/l.s" \
  --launch hostlist="$W/l.h" --launch cpu-bind="$W/l.c"
