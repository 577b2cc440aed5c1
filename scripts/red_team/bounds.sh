# Red-team cases of issue 46 item 5 (sourced by scripts/red_team.sh): tiny inputs that hung or blew
# up. Bounds are checked before the memory is taken, ranks that never act cost nothing; the framework
# classifies a timeout as hang and memory near its limit as blowup.

# Background traffic: patterns that send nothing, durations that would draw for minutes.
bgjob() {  # bgjob NAME EXPECT BACKGROUND [START] [-- CHECK]: one job on a 4x4 mesh beside BACKGROUND
  printf 'network: mesh:4x4\nmodel: store-and-forward\njobs:\n  - {name: a, workload: {process: ring:4, pattern: "exchange:size=64"}, start: %s}\nbackground: %s\n' \
    "${4:-0s}" "$3" >"$W/s.yaml"
  T "bounds background $1" "$2" -m s.yaml -- run "$W/s.yaml" -o "$W/o"
}
bgjob "shift by 0, 1-byte messages, load 1" error '{name: shift, by: 0, load: 1, message: 1B}'
bgjob "shift by the node count" error '{name: shift, by: 16, load: 1, message: 1B}'
bgjob "shift by 2^30 - 16" error '{name: shift, by: 1073741808, load: 1, message: 1B}'
bgjob "tornado on every node to a job's node" either '{name: tornado, load: 1, message: 1B}'
bgjob "next to a job at 600 s" error '{name: uniform, load: 0.5}' 600s
bgjob "next to a job at 1e6 s, 1-byte messages" error '{name: uniform, load: 1, message: 1B}' 1000000s
bgjob "duration 1000 s" error '"uniform:load=1,duration=1000s"'
bgjob "duration 1 h of 1-byte messages at load 1e-9" ok '"uniform:load=0.000000001,message=1B,duration=3600s"'
bgjob "uniform, 1 ms of 1-byte messages" error '"uniform:load=1,message=1B,duration=1ms"'
bgjob "uniform, 10 us of 64-byte messages" ok '"uniform:load=0.5,message=64B,duration=10us"'

# Jobs together stream their workloads as one job does (they were built whole: 3.5 GB for one job).
printf 'network: mesh:2x2\nmodel: store-and-forward\njobs:\n  - {name: a, workload: {process: ring:2, pattern: "exchange:size=8,iterations=30000"}}\n  - {name: b, workload: {process: ring:2, pattern: "exchange:size=8,iterations=30000"}}\n' >"$W/s.yaml"
T "bounds two jobs of 300000 actions" ok -c 'test -s o/results.csv' -- run "$W/s.yaml" -o "$W/o"

# Traces naming ranks that never act: refused before a table, file or process per rank.
for r in 4194303 4194304 1000000 2147483647 99999999999999999999; do
  printf '%s compute 1\n' "$r" >"$W/t.txt"
  T "bounds trace convert, one line of rank $r" error -m t.txt -- trace convert "$W/t.txt" -o "$W/conv"
  printf '%s compute 1\n' "$r" >"$W/t.txt"
  T "bounds simulate, one line of rank $r" error -m t.txt -- simulate --topology mesh:2x2 --trace "$W/t.txt"
done
printf '0 init\n4194303 init\n' >"$W/t.txt"
T "bounds trace convert --shared, ranks 0 and 4194303" error -m t.txt -- trace convert "$W/t.txt" --shared -o "$W/one.txt"
printf '0 init\n4194303 init\n' >"$W/t.txt"
T "bounds trace stats, ranks 0 and 4194303" error -m t.txt -- trace stats "$W/t.txt"
printf 't.txt\n' >"$W/index.txt"; printf '3000000 init\n' >"$W/t.txt"
T "bounds a one-line index naming a sparse trace" error -m t.txt -- simulate --topology mesh:2x2 --trace "$W/index.txt"
printf 'network: mesh:2x2\nworkload: {trace: t.txt}\nmapping: [default]\n' >"$W/s.yaml"; printf '4000000 init\n' >"$W/t.txt"
T "bounds scenario workload.trace of a sparse rank" error -m t.txt -- run "$W/s.yaml" -o "$W/o"
printf 'network: mesh:2x2\nworkload: {process: "trace:t.txt"}\nmapping: [default]\n' >"$W/s.yaml"; printf '4000000 init\n' >"$W/t.txt"
T "bounds process trace: of a sparse rank" error -m t.txt -- run "$W/s.yaml" -o "$W/o"

# topology.conf: long names multiplied by ranges, in bytes before the memory is taken.
slurmf() {  # slurmf NAME EXPECT LINE...
  local name=$1 expect=$2; shift 2
  printf '%s\n' "$@" >"$W/topology.conf"
  T "bounds topology.conf $name" "$expect" -m topology.conf -- topo "slurm:$W/topology.conf"
}
long=$(head -c 100000 /dev/zero | tr '\0' n)
slurmf "100 KB name x 100000" error "SwitchName=s Nodes=${long}[1-100000]"
slurmf "100 KB name x 1000 x 1000" error "SwitchName=s Nodes=${long}[1-1000][1-1000]"
slurmf "1 KB name x 999999" error "SwitchName=s Nodes=${long:0:1000}[1-999999]"
slurmf "100 KB switch names x 100000" error "SwitchName=s Switches=${long}[1-100000]"
for i in $(seq 10); do printf 'SwitchName=s%d Nodes=%s%d[1-3000]\n' "$i" "${long:0:10000}" "$i"; done >"$W/topology.conf"
T "bounds topology.conf lines of 10 KB names x 3000" error -m topology.conf -- topo "slurm:$W/topology.conf"
slurmf "1000 nodes of 1 KB names" ok "SwitchName=s Nodes=${long:0:1000}[1-1000]"
slurmf "nested brackets of a million" error "SwitchName=s Nodes=n[1-1000][1-1001]"

# Streamed workloads: the documented bound is what runs in bounded time.
for it in 100000000 2147483647 9223372036854775807; do
  T "bounds simulate exchange:iterations=$it on 4 ranks" error -- simulate --topology mesh:2x2 --process ring:4 --workload "exchange:iterations=$it"
done
T "bounds simulate alltoall:iterations=100000000 on 64 ranks" error -- simulate --topology mesh:8x8 --process ring:64 --workload "alltoall:iterations=100000000"
printf 'network: mesh:2x2\nworkload: {process: ring:4, pattern: "exchange:iterations=100000000"}\nmapping: [default]\n' >"$W/s.yaml"
T "bounds run exchange:iterations=100000000 on 4 ranks" error -m s.yaml -- run "$W/s.yaml" -o "$W/o"
