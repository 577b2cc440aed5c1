#!/usr/bin/env bash
# Red-team battery: well over a thousand hostile or malformed inputs to every mapsim command, each
# run in its own folder under a time and memory limit and classified by what happened:
#   security      a canary file was created (a payload in a name, path, title or value ran as a
#                 command), a file the case reads changed (sha1 before and after), or markup from an
#                 input reached an SVG or HTML output unescaped
#   crash         killed by a signal, or 'Segmentation fault' / 'Aborted' / sanitizer text
#   uncaught      exit code 3, or 'internal error', 'terminate called', 'filesystem error', 'std::',
#                 'nlohmann' (or json.exception), 'what():', a libstdc++ filesystem text on stderr
#   hang          the timeout fired
#   blowup        memory beyond the limit (allocation failure under ulimit -v, or peak RSS near it)
#   silent-wrong  an "error" case that exited 0, or exited non-zero but left an output that looks
#                 complete (summary.json, results.csv, report.html, index.txt, a picture); an "ok"
#                 case that failed or whose output fails its check
#   unclear       an "error" case whose stderr is not exactly one 'mapsim: error:' line, printable,
#                 under MAXLEN (600) bytes, naming the file at fault (or --set, when the value came
#                 from there), or that printed something on stdout
#   handled       everything else
# Expectations: "error" (refused cleanly), "ok" (exit 0, and the output passes the case's check),
# "either" (validity arguable, e.g. a truncated file that may still parse: exit 0, or a clean
# error), "any" (only the first five classes count).
#
# Usage: bash scripts/red_team.sh MAPSIM [OUTDIR] [--report-only]
#   Prints one line per case not handled (class, name: reason | stderr), a count per class and
#   'red-team: N cases, N handled, ...'. Exit status 1 when a case is not handled, else 0; always 0
#   with --report-only. OUTDIR (created if missing) receives cases.tsv (every case) and, per case not
#   handled, ID/{cmd,stdout,stderr}.
#   Environment: RED_TEAM_JOBS (cases at once, default 2), RED_TEAM_TIMEOUT (seconds per case,
#   default 20; SIGKILL 5 s later), RED_TEAM_FILTER (extended regex on case names: run only those;
#   the interrupt cases are named 'signal ...'), RED_TEAM_KEEP_ALL=1 (OUTDIR gets every case's
#   cmd, stdout and stderr, to audit the handled ones).
# Works in a mktemp -d folder (in /dev/shm when there is one and TMPDIR is unset: the cases make many
# small files), removed at exit; the binary is copied there first, so a relink of build/mapsim during
# the run does not matter. Memory: ulimit -v 4 GB per case.
set -uo pipefail
shopt -s globstar nullglob
cases_dir=$(cd "$(dirname "$0")" && pwd)/red_team

report_only=0 pos=()
for a in "$@"; do
  case $a in
    --report-only) report_only=1 ;;
    -h | --help) sed -n '2,/^set -uo/p' "$0" | sed '$d; s/^# \{0,1\}//'; exit 0 ;;
    *) pos+=("$a") ;;
  esac
done
[ ${#pos[@]} -ge 1 ] || { echo "usage: bash scripts/red_team.sh MAPSIM [OUTDIR] [--report-only]" >&2; exit 2; }
outdir=${pos[1]:-}
[ -z "$outdir" ] || outdir=$(realpath -m "$outdir")
JOBS=${RED_TEAM_JOBS:-2} TIMEOUT=${RED_TEAM_TIMEOUT:-20} FILTER=${RED_TEAM_FILTER:-}
MEM_KB=4194304 MAXLEN=600
start_time=$SECONDS

if [ -z "${TMPDIR:-}" ] && [ -d /dev/shm ] && [ -w /dev/shm ]; then tmp=$(mktemp -d -p /dev/shm red-team.XXXXXX); else tmp=$(mktemp -d); fi
trap 'rm -rf "$tmp"' EXIT
trap 'exit 130' INT TERM
fx=$tmp/fx cases=$tmp/c
mkdir -p "$fx" "$cases"
# The binary may be being relinked by someone else right now: retry the copy until it runs.
for _ in $(seq 120); do
  cp "${pos[0]}" "$tmp/mapsim" 2>/dev/null && "$tmp/mapsim" --version >/dev/null 2>&1 && break
  sleep 1
done
"$tmp/mapsim" --version >/dev/null 2>&1 || { echo "red-team: cannot run ${pos[0]}" >&2; exit $((report_only ? 0 : 2)); }
M=$tmp/mapsim; export M
cd "$tmp" || exit 2
have_time=0; [ -x /usr/bin/time ] && have_time=1

# ---------------------------------------------------------------------------------------------
# Case definitions. While cases are defined, $n is the next case's id, $W its (empty) folder, which
# is its working directory when it runs, and $CAN the canary file its payloads would create; $PL,
# $PLW (a plain word: no spaces) and $PLH (markup) are its payloads.
n=0
next_case() {
  if [ $((n % 400)) = 0 ]; then eval "mkdir -p \"\$cases\"/{$n..$((n + 399))}/w"; fi   # one fork per 400 cases
  W=$cases/$n/w CAN=CANARY_$n
  printf -v PL "x'; system('touch %s'); '\`touch %s\`\$(touch %s)\"; touch %s; \"" "$CAN" "$CAN" "$CAN" "$CAN"
  printf -v PLW '`touch${IFS}%s`$(touch${IFS}%s);touch${IFS}%s' "$CAN" "$CAN" "$CAN"
  printf -v PLH '<script>%s</script>' "$CAN"
}
next_case
# T NAME EXPECT [-m TEXT] [-i FILE] [-c CHECK] [-t SECONDS] -- ARGS...
#   EXPECT error|ok|either|any; -m a text the error message must contain (the file at fault);
#   -i an input to hash besides those found in ARGS (every existing file an argument names, also
#   after file:, lft=, ..., except the values of output flags); -c a bash check run in the case's
#   folder after an exit 0, with $out and $err the paths of its stdout and stderr (exit 0: pass, 1:
#   silent-wrong, 99: security); -t its own timeout.
T() {
  local name=$1 expect=$2 d=$cases/$n mention= check= t=$TIMEOUT a p prev= parts
  shift 2
  : >"$d/inputs"
  while [ $# -gt 0 ] && [ "$1" != -- ]; do
    case $1 in -m) mention=$2 ;; -i) printf '%s\n' "$2" >>"$d/inputs" ;; -c) check=$2 ;; -t) t=$2 ;; esac
    shift 2
  done
  shift
  printf '%s' "$name" >"$d/name"; printf '%s' "$expect" >"$d/expect"; printf '%s' "$mention" >"$d/mention"
  printf '%s' "$check" >"$d/check"; printf '%s' "$t" >"$d/timeout"
  if [ $# -gt 0 ]; then printf '%s\0' "$@" >"$d/args"; else : >"$d/args"; fi
  for a in "$@"; do
    case $prev in -o | --output | --csv | --rankfile | --hostlist | --write-graph | --timeline | --script | --draw | --write-trace) prev=$a; continue ;; esac
    prev=$a
    [ ${#a} -lt 4096 ] && [[ $a != *$'\n'* ]] || continue
    IFS=, read -r -a parts <<<"$a"
    for p in "${parts[@]}"; do
      p=${p##*=}; p=${p#*:}
      [ -n "$p" ] && [ -f "$p" ] && printf '%s\n' "$p" >>"$d/inputs"
    done
  done
  if [ -n "$FILTER" ] && ! [[ $name =~ $FILTER ]]; then : >"$d/skip"; fi
  n=$((n + 1)); next_case
}
yq() { local t=${1//\'/\'\'}; printf "'%s'" "$t"; }   # TEXT as a YAML single-quoted scalar
# sub TEXT OLD NEW, suball: TEXT with the first (every) literal OLD replaced by NEW. An OLD that is not
# there is a bug of this script (the mutation would be none), said on stderr.
sub() { local t=$1 r; r=${t/"$2"/"$3"}; [ "$r" != "$t" ] || echo "red-team: script bug: '${2:0:40}' not found" >&2; printf '%s' "$r"; }
suball() { local t=$1 r; r=${t//"$2"/"$3"}; [ "$r" != "$t" ] || echo "red-team: script bug: '${2:0:40}' not found" >&2; printf '%s' "$r"; }

# ---------------------------------------------------------------------------------------------
# Fixtures: valid inputs (checked below), and the bad kinds of file every input is tried as.
LONG=$(head -c 100000 /dev/zero | tr '\0' x)
BOM=$'\xef\xbb\xbf'
BIG=18446744073709551617   # 2^64 + 1
BOMB=$'a: &a [x,x,x,x,x,x,x,x,x,x]\nb: &b [*a,*a,*a,*a,*a,*a,*a,*a,*a,*a]\nc: &c [*b,*b,*b,*b,*b,*b,*b,*b,*b,*b]\nd: &d [*c,*c,*c,*c,*c,*c,*c,*c,*c,*c]\ne: &e [*d,*d,*d,*d,*d,*d,*d,*d,*d,*d]\nf: &f [*e,*e,*e,*e,*e,*e,*e,*e,*e,*e]\ng: &g [*f,*f,*f,*f,*f,*f,*f,*f,*f,*f]\n'
DEEP=$(head -c 100000 /dev/zero | tr '\0' '[')
cat >"$fx/net.yaml" <<'YAML'
defaults: {ports: 8}
switches: [s0, s1, {name: s2, ports: 6}]
nodes:
  - {name: n0, switch: s0}
  - {name: n1, switch: s0}
  - {name: n2, switch: s1}
  - {name: n3, switch: s2, bandwidth: 25Gbps}
links:
  - [s0, s1]
  - [s1, s2]
  - {a: s2, b: s0, bandwidth: 40Gbps, latency: 50ns}
YAML
cat >"$fx/ib.ibnet" <<'IB'
# two leaf switches, four HCAs (configs/networks/example.ibnet)
vendid=0x2c9
devid=0xc738
sysimgguid=0x7cfe900300a1b2c0
switchguid=0x7cfe900300a1b2c0(7cfe900300a1b2c0)
Switch	36 "S-7cfe900300a1b2c0"		# "leaf-a" enhanced port 0 lid 1 lmc 0
[1]	"H-248a0703009c0010"[1](248a0703009c0011) 		# "cn01 HCA-1" lid 11 4xEDR
[2]	"H-248a0703009c0020"[1](248a0703009c0021) 		# "cn02 HCA-1" lid 12 4xEDR
[35]	"S-7cfe900300a1b3d0"[35]		# "leaf-b" lid 2 4xEDR
[36]	"S-7cfe900300a1b3d0"[36]		# "leaf-b" lid 2 4xFDR

vendid=0x2c9
devid=0xc738
sysimgguid=0x7cfe900300a1b3d0
switchguid=0x7cfe900300a1b3d0(7cfe900300a1b3d0)
Switch	36 "S-7cfe900300a1b3d0"		# "leaf-b" enhanced port 0 lid 2 lmc 0
[1]	"H-248a0703009c0030"[1](248a0703009c0031) 		# "cn03 HCA-1" lid 13 4xEDR
[2]	"H-248a0703009c0040"[1](248a0703009c0041) 		# "cn04 HCA-1" lid 14 4xQDR
[35]	"S-7cfe900300a1b2c0"[35]		# "leaf-a" lid 1 4xEDR
[36]	"S-7cfe900300a1b2c0"[36]		# "leaf-a" lid 1 4xFDR

vendid=0x2c9
devid=0x1017
sysimgguid=0x248a0703009c0010
caguid=0x248a0703009c0010
Ca	1 "H-248a0703009c0010"		# "cn01 HCA-1"
[1](248a0703009c0011) 	"S-7cfe900300a1b2c0"[1]		# lid 11 lmc 0 "leaf-a" lid 1 4xEDR

vendid=0x2c9
devid=0x1017
sysimgguid=0x248a0703009c0020
caguid=0x248a0703009c0020
Ca	1 "H-248a0703009c0020"		# "cn02 HCA-1"
[1](248a0703009c0021) 	"S-7cfe900300a1b2c0"[2]		# lid 12 lmc 0 "leaf-a" lid 1 4xEDR

vendid=0x2c9
devid=0x1017
sysimgguid=0x248a0703009c0030
caguid=0x248a0703009c0030
Ca	1 "H-248a0703009c0030"		# "cn03 HCA-1"
[1](248a0703009c0031) 	"S-7cfe900300a1b3d0"[1]		# lid 13 lmc 0 "leaf-b" lid 2 4xEDR

vendid=0x2c9
devid=0x1017
sysimgguid=0x248a0703009c0040
caguid=0x248a0703009c0040
Ca	1 "H-248a0703009c0040"		# "cn04 HCA-1"
[1](248a0703009c0041) 	"S-7cfe900300a1b3d0"[2]		# lid 14 lmc 0 "leaf-b" lid 2 4xQDR
IB
cat >"$fx/ib.lft" <<'LFT'
Unicast lids [0x0-0xe] of switch DR path slid 0; dlid 0; 0 guid 0x7cfe900300a1b2c0 (leaf-a):
  Lid  Out   Destination
       Port     Info
0x0001 000 : (Switch portguid 0x7cfe900300a1b2c0: 'leaf-a')
0x0002 035 : (Switch portguid 0x7cfe900300a1b3d0: 'leaf-b')
0x000b 001 : (Channel Adapter portguid 0x248a0703009c0011: 'cn01 HCA-1')
0x000c 002 : (Channel Adapter portguid 0x248a0703009c0021: 'cn02 HCA-1')
0x000d 035 : (Channel Adapter portguid 0x248a0703009c0031: 'cn03 HCA-1')
0x000e 036 : (Channel Adapter portguid 0x248a0703009c0041: 'cn04 HCA-1')
6 valid lids dumped
Unicast lids [0x0-0xe] of switch DR path slid 0; dlid 0; 0 guid 0x7cfe900300a1b3d0 (leaf-b):
  Lid  Out   Destination
       Port     Info
0x0001 036 : (Switch portguid 0x7cfe900300a1b2c0: 'leaf-a')
0x0002 000 : (Switch portguid 0x7cfe900300a1b3d0: 'leaf-b')
0x000b 036 : (Channel Adapter portguid 0x248a0703009c0011: 'cn01 HCA-1')
0x000c 035 : (Channel Adapter portguid 0x248a0703009c0021: 'cn02 HCA-1')
0x000d 001 : (Channel Adapter portguid 0x248a0703009c0031: 'cn03 HCA-1')
0x000e 002 : (Channel Adapter portguid 0x248a0703009c0041: 'cn04 HCA-1')
6 valid lids dumped
LFT
printf '0 init\n1 init\n0 send 1 0 100\n1 recv 0 0 100\n0 bcast 64\n1 bcast 64\n0 finalize\n1 finalize\n' >"$fx/tr.txt"
mkdir -p "$fx/idx"
printf '0 send 1 0 100\n0 compute 1000\n' >"$fx/idx/rank-0.txt"
printf '1 recv 0 0 100\n1 compute 1000\n' >"$fx/idx/rank-1.txt"
printf 'rank-0.txt\nrank-1.txt\n' >"$fx/idx/index.txt"
printf '# rank node\n0 0\n1 1\n2 2\n3 3\n' >"$fx/place.txt"
printf 'node-0\nnode-1\nnode-2\nnode-3\n' >"$fx/nodes.txt"
printf 'node-0\nnode-1\n' >"$fx/nodes2.txt"
printf '4 4\n2 4\n1 3\n2 4\n1 3\n' >"$fx/g.graph"
printf 'mapper,x,y\nrandom,1,2\nrandom,2,3\nbinary,1,1\nbinary,2,2\n' >"$fx/r.csv"
# scen FILE [KEY VALUE]...: the base scenario with KEY (top level, workload.K or model.K) set to the
# YAML text VALUE (model VALUE: model as a scalar); the value @DEL removes the key.
scen() {
  local f=$1 k; shift
  local -A v=([name]=s [network]=mesh:2x2 [workload.process]=ring:4 [workload.pattern]=exchange:size=64
    [mapping]='[default]' [model.name]=flow [seed]=1 [replicates]=1)
  while [ $# -ge 2 ]; do v[$1]=$2; shift 2; done
  {
    for k in "${!v[@]}"; do [[ $k == *.* || $k == model || ${v[$k]} == @DEL ]] || printf '%s: %s\n' "$k" "${v[$k]}"; done
    printf 'workload:\n'
    for k in "${!v[@]}"; do [[ $k == workload.* && ${v[$k]} != @DEL ]] && printf '  %s: %s\n' "${k#workload.}" "${v[$k]}"; done
    if [ "${v[model]+x}" ]; then printf 'model: %s\n' "${v[model]}"; else
      printf 'model:\n'
      for k in "${!v[@]}"; do [[ $k == model.* && ${v[$k]} != @DEL ]] && printf '  %s: %s\n' "${k#model.}" "${v[$k]}"; done
    fi
  } >"$f"
}
scen "$fx/s.yaml"
SWEEP_SCEN='{network: mesh:2x2, workload: {process: ring:4}, mapping: [default], model: none}'
printf 'scenario: %s\nvary:\n  seed: [1, 2]\n' "$SWEEP_SCEN" >"$fx/sw.yaml"
# Bad kinds of file, each given as every kind of input.
mkdir "$fx/adir"
ln -s symloop "$fx/symloop"
mkfifo "$fx/afifo"
: >"$fx/empty.txt"
printf '\x7fELF\x02\x01\x01\x00\xff\xfe\x00\x00\x01\x9c\xe2\x28\xa1\n\x00\x00' >"$fx/junk.bin"
printf '%s\n' "$LONG" >"$fx/long.txt"
head -c 3000 /dev/zero >"$fx/nul.txt"
kt() { case $1 in */afifo) echo 8 ;; *) echo "$TIMEOUT" ;; esac; }   # a FIFO that blocks costs 8 s, not 20
KINDS=(/etc/passwd /dev/zero /dev/null "$fx/adir" "$fx/nosuchfile" "$fx/symloop" "$fx/afifo" "$fx/empty.txt"
  "$fx/junk.bin" "$fx/long.txt" "$fx/nul.txt")

# The valid fixtures must be accepted, or the cases built on them prove little: said on stderr (the
# cases still run; those that need a fixture's output then fail as they will).
fixture_ok() {
  local what=$1 rc; shift
  "$M" "$@" >"$tmp/fixture.out" 2>"$tmp/fixture.err"; rc=$?
  [ $rc = 0 ] && return 0
  echo "red-team: warning: the valid fixture $what fails (exit $rc): $(head -c 300 "$tmp/fixture.err" | tr '\n' ' ')" >&2
}
fixture_ok net.yaml topo "file:$fx/net.yaml"
fixture_ok ib.ibnet+lft topo "ibnet:$fx/ib.ibnet,lft=$fx/ib.lft"
fixture_ok tr.txt trace check "$fx/tr.txt"
fixture_ok idx/index.txt trace check "$fx/idx/index.txt"
fixture_ok place.txt map --topology mesh:2x2 --process ring:4 --mapper "placement:$fx/place.txt"
fixture_ok nodes.txt map --topology mesh:2x2 --process ring:4 --allocation "list:$fx/nodes.txt"
fixture_ok g.graph map --topology mesh:2x2 --process "graph:$fx/g.graph"
fixture_ok r.csv plot "$fx/r.csv" --x x --y y --table
fixture_ok s.yaml run "$fx/s.yaml" -o "$fx/run"
fixture_ok "s.yaml --timeline" run "$fx/s.yaml" -o "$fx/runt" --timeline
fixture_ok sw.yaml sweep "$fx/sw.yaml" -o "$fx/sweep" -j 2
rm -f "$tmp/fixture.out" "$tmp/fixture.err"

# ---------------------------------------------------------------------------------------------
# 1. Network specs: every generator with bad values of every parameter; routings; spec syntax.
BADINT=(-1 1e400 "$BIG" nan "" $'4\x01' 4.5 "$LONG")
BADREAL=(-1 1e400 nan inf "" $'4\x01' "$LONG")
declare -A GEN_KEYS=(
  [irregular]="nodes switches ports connectivity: seed duplicates" [hypercube]="dim nodes_per_router"
  [mesh:2x2]="nodes_per_router" [torus:2x2]="nodes_per_router" [hyperx:2x2]="nodes_per_router"
  [fattree]="k levels" [fattree/clos]="nodes radix oversubscription:" [dragonfly]="a p h g"
  [tree2]="switches nodes_per_switch up_bw: down_bw:" [suprenum]="c d alpha:" [xgft]="m w nodes")   # key: a real
declare -A GEN_BASE=([irregular]="nodes=16,switches=4" [hypercube]="dim=2" [fattree]="k=2,levels=2" [fattree/clos]="nodes=8,radix=4"
  [dragonfly]="a=2,p=1,h=1" [tree2]="switches=2,nodes_per_switch=2" [suprenum]="c=2,d=2" [xgft]="m=2x2,w=1x2")
for g in irregular hypercube mesh:2x2 torus:2x2 hyperx:2x2 fattree fattree/clos dragonfly tree2 suprenum xgft; do
  for k in ${GEN_KEYS[$g]}; do
    if [[ $k == *: ]]; then k=${k%:}; vals=("${BADREAL[@]}"); else vals=("${BADINT[@]}"); fi
    case $k in seed | duplicates | h) ;; *) vals+=(0) ;; esac   # 0 is valid for these three
    [ "$k" = duplicates ] && vals+=(2)
    base=$(tr , '\n' <<<"${GEN_BASE[$g]:-}" | grep -v "^$k=" | paste -sd,)
    for v in "${vals[@]}"; do
      if [[ $g == *:* ]]; then spec="$g${base:+,$base},$k=$v"; else spec="${g%/*}:${base:+$base,}$k=$v"; fi
      T "spec $g $k=${v:0:20}" error -- topo "$spec"
    done
  done
done
for v in 0x4 -1x4 4x 4xx4 1e400 "${BIG}x1" nanx2 ４x4 "" "2x2x2x2x2x2x2x2x2x2x2x2x2x2x2x2x2x2x2x2x2x2x2x2x2" "$LONG"; do
  for g in mesh torus hyperx; do T "spec $g dims '${v:0:20}'" error -- topo "$g:$v"; done
done
for k in link_bandwidth node_bandwidth; do
  for v in 0 -10Gbps 1e400Gbps nanGbps 10Gparsecs ""; do T "spec link key $k=$v" error -- topo "mesh:2x2,$k=$v"; done
done
for k in t_p t_r t_s node_latency; do
  for v in -1us 1e400s nan 10furlongs "" "${BIG}s"; do T "spec link key $k=$v" error -- topo "mesh:2x2,$k=$v"; done
done
for s in "" ":" mesh mesh: bogus:1 MESH:2x2 "mesh:2x2,," "mesh:2x2,=4" "mesh:2x2,nodes_per_router" \
  "mesh:2x2,nodes_per_router=1,nodes_per_router=2" "mesh:2x2,link_bw=1Gbps,link_bandwidth=2Gbps" hypercube: \
  irregular:nodez=4 "irregular:nodes=4,switches=9999999" "fattree:k=100,levels=10" "xgft:m=2x2,w=1" \
  "xgft:m=2x2,w=2x2" "dragonfly:a=3,h=2,g=5" "mesh:2x2,$PL" "$PL" "mesh:2x2,$LONG=1" file: ibnet: \
  "ibnet:$fx/ib.ibnet,bogus=1" $'mesh:2x2\n' "tree2:switches=16777216,nodes_per_switch=16777216" \
  "irregular:nodes=16777216,switches=16777216,ports=1" "file:$fx/net.yaml,t_s=1us"; do
  T "spec '${s:0:40}'" error -- topo "$s"
done
T "spec with a trailing space" either -- topo "mesh:2x2 "
T "spec ibnet with an empty lft=" either -- topo "ibnet:$fx/ib.ibnet,lft="
T "routing bogus" error -- topo mesh:2x2 --routing bogus
T "routing empty" either -- topo mesh:2x2 --routing ""
T "routing payload" error -- topo mesh:2x2 --routing "$PL"
for r in ecube dmodk suprenum minimal valiant ugal-l ugal-g dor lft; do T "routing $r on irregular" error -- topo irregular:nodes=16,switches=4 --routing "$r"; done
T "topo --export bogus" error -- topo mesh:2x2 --export bogus
T "topo ok: mesh" ok -c 'grep -q "routes legal *yes" "$out"' -- topo mesh:2x2
T "topo ok: hypercube dim=9" ok -c 'grep -q "\"routes_legal\": true" "$out"' -- topo hypercube:dim=9 --json

# 2. Network files (YAML).
netf() {  # netf NAME EXPECT CONTENT: a network file that reads CONTENT, given to topo
  printf '%s' "$3" >"$W/net.yaml"
  T "netfile $1" "$2" -m net.yaml -- topo "file:$W/net.yaml"
}
N=$(cat "$fx/net.yaml")
SW='switches: [s0, s1, {name: s2, ports: 6}]'
netf "unknown key" error "$N"$'\nswiches: []\n'
netf "duplicate key" error "$N"$'\nswitches: [s9]\n'
netf "second document" error "$N"$'\n---\nswitches: [x]\n'
netf "alias bomb" error "$BOMB$N"
netf "deep nesting" error "switches: $DEEP"
netf "unknown switch of a node" error "$(sub "$N" 'switch: s1}' 'switch: nope}')"
netf "link to an unknown switch" error "$(sub "$N" '- [s0, s1]' '- [s0, nope]')"
netf "self-loop link" error "$(sub "$N" '- [s0, s1]' '- [s0, s0]')"
netf "link of one end" error "$(sub "$N" '- [s0, s1]' '- [s0]')"
netf "link of three ends" error "$(sub "$N" '- [s0, s1]' '- [s0, s1, s2]')"
netf "duplicate switch" error "$(sub "$N" '[s0, s1,' '[s0, s0, s1,')"
netf "duplicate node" error "$(sub "$N" 'name: n1,' 'name: n0,')"
netf "switches a map" error "$(sub "$N" "$SW" 'switches: {s0: 1}')"
netf "switches a number" error "$(sub "$N" "$SW" 'switches: 5')"
netf "no switches" error $'switches: []\nnodes: []\nlinks: []\n'
netf "node without a switch" error "$(sub "$N" ', switch: s1}' '}')"
netf "disconnected" error "${N%%links:*}"$'links:\n  - [s0, s1]\n'
netf "ports exceeded" error "$(sub "$N" 'ports: 6' 'ports: 1')"
netf "both t_p and link_latency" error "$(sub "$N" 'defaults: {ports: 8}' 'defaults: {ports: 8, t_p: 20ns, link_latency: 30ns}')"
netf "shape of another network" error "$N"$'\nshape: {family: torus, dims: [4, 4]}\n'
netf "shape hypercube on 3 switches" error "$N"$'\nshape: {family: hypercube, dims: [2]}\n'
netf "shape fattree k=0" error "$N"$'\nshape: {family: fattree, k: 0, levels: 99}\n'
netf "shape bogus family" error "$N"$'\nshape: {family: bogus}\n'
netf "tab indentation" error "$(suball "$N" '  - ' $'\t- ')"
netf "json with trailing garbage" error '{"switches": ["a"], "nodes": [{"name": "n", "switch": "a"}], "links": []} }}'
netf "top level a list" error $'- a\n- b\n'
netf "top level a scalar" error $'hello\n'
for v in 0 -1 1e400 4294967304 nan 1.5 '""' '[]' "$BIG"; do netf "ports=${v:0:12}" error "$(sub "$N" 'ports: 6' "ports: $v")"; done
for v in 0 -1Gbps nan 1e400Gbps 10furlongs '""' '[]' '{}' "$LONG"; do
  netf "link bandwidth ${v:0:12}" error "$(sub "$N" 'bandwidth: 40Gbps' "bandwidth: $v")"
  netf "node bandwidth ${v:0:12}" error "$(sub "$N" 'bandwidth: 25Gbps' "bandwidth: $v")"
done
for v in -1ns nan .inf 1e400s '"20 furlongs"'; do
  netf "latency ${v:0:12}" error "$(sub "$N" 'latency: 50ns' "latency: $v")"
  netf "defaults t_r ${v:0:12}" error "$(sub "$N" 'defaults: {ports: 8}' "defaults: {ports: 8, t_r: $v}")"
done
for v in '"n 1"' '"n\x01"' '"ñ0"' '"n1\nrank 9=evil"' '""' '[]' "$(yq "$PL")"; do
  netf "node name ${v:0:16}" error "$(sub "$N" 'name: n1,' "name: $v,")"
  netf "switch name ${v:0:16}" error "$(sub "$N" '{name: s2, ports: 6}' "{name: $v, ports: 6}")"
done
netf "node name of 100 KB" either "$(sub "$N" 'name: n1,' "name: $LONG,")"
netf "BOM-prefixed" either "$BOM$N"
netf "CRLF line ends" either "$(suball "$N" $'\n' $'\r\n')"
RANDOM=4242
for i in 1 2 3 4 5 6; do netf "truncated #$i" either "${N:0:$((RANDOM % ${#N}))}"; done
suball "$N" 'name: n1,' "name: $(yq "$PLW")," >"$W/net.yaml"
# A launch writer refuses a node name its consumer would read as syntax (issue 46), naming the file.
T "netfile node named by a shell word: rankfile, hostlist" error -m r.txt -- \
  map --topology "file:$W/net.yaml" --process ring:4 --rankfile "$W/r.txt" --hostlist "$W/h.txt"
suball "$N" 'name: n1,' "name: $(yq "$PLH")," >"$W/net.yaml"
scen "$W/s.yaml" network "file:net.yaml"
T "netfile node named <script>: run --draw, report" ok -c "test -s d.svg || exit 1; ! grep -qF '<script>' d.svg || exit 99
  \"\$M\" report o -o r.html >/dev/null 2>&1 || exit 1; ! grep -qF '$PLH' r.html || exit 99" \
  -- run "$W/s.yaml" -o "$W/o" --draw "$W/d.svg" --draw-view nodes

# 3. ibnetdiscover files and forwarding tables.
IBT=$(cat "$fx/ib.ibnet") LFTT=$(cat "$fx/ib.lft")
ibf() { printf '%s\n' "$3" >"$W/f.ibnet"; T "ibnet $1" "$2" -m f.ibnet -- topo "ibnet:$W/f.ibnet"; }
lftf() { printf '%s\n' "$3" >"$W/f.lft"; T "lft $1" "$2" -m f.lft -- topo "ibnet:$fx/ib.ibnet,lft=$W/f.lft"; }
TAB=$'\t'
A2="[2]$TAB\"H-248a0703009c0020\"" SWA="Switch${TAB}36 \"S-7cfe900300a1b2c0\""
B35="[35]$TAB\"S-7cfe900300a1b2c0\"[35]" A35="[35]$TAB\"S-7cfe900300a1b3d0\"[35]"
mapfile -t IBL <<<"$IBT"
for cut in 4 8 10 16 20 26 33 40 45; do ibf "truncated after line $cut" error "$(printf '%s\n' "${IBL[@]:0:$cut}")"; done
for i in 1 2 3 4; do ibf "truncated mid-line #$i" either "${IBT:0:$((RANDOM % ${#IBT}))}"; done
for p in 0 99 -1 4294967297 abc "" 1e400; do ibf "switch port [$p]" error "$(sub "$IBT" "$A2" "[$p]$TAB\"H-248a0703009c0020\"")"; done
for c in 0 -1 "$BIG" abc; do ibf "switch port count $c" error "$(sub "$IBT" "$SWA" "Switch$TAB$c \"S-7cfe900300a1b2c0\"")"; done
ibf "switch port count 99999999" either "$(sub "$IBT" "$SWA" "Switch${TAB}99999999 \"S-7cfe900300a1b2c0\"")"
ibf "inconsistent peer ports" error "$(sub "$IBT" "$B35" "[35]$TAB\"S-7cfe900300a1b2c0\"[34]")"
ibf "peer port past its count" error "$(sub "$IBT" "$A35" "[35]$TAB\"S-7cfe900300a1b3d0\"[77]")"
ibf "self-loop" error "$(sub "$IBT" "$A35" "[35]$TAB\"S-7cfe900300a1b2c0\"[34]")"
ibf "unknown rate" error "$(sub "$IBT" 'lid 2 4xEDR' 'lid 2 4xZZZ')"
ibf "rate of width 0" error "$(sub "$IBT" 'lid 2 4xEDR' 'lid 2 0xEDR')"
ibf "rate of width 99999" error "$(sub "$IBT" 'lid 2 4xEDR' 'lid 2 99999xEDR')"
ibf "switch described twice" error "$IBT"$'\n\n'"$(printf '%s\n' "${IBL[@]:1:10}")"
ibf "peer never described" error "$(printf '%s\n' "${IBL[@]:0:40}")"
ibf "guid of 80 bits" either "$(suball "$IBT" 7cfe900300a1b2c0 1ffff7cfe900300a1b2c0)"
ibf "40 KB line" error "# $LONG"
ibf "only comments" error $'# nothing\n# here\n'
ibf "CRLF" either "$(suball "$IBT" $'\n' $'\r\n')"
ibf "control char in a description" either "$(sub "$IBT" '"leaf-a" enhanced' $'"leaf-\x01a" enhanced')"
ibf "description a shell payload" ok "$(suball "$IBT" 'cn01 HCA-1' "$PL")"
ibf "description a shell word" ok "$(suball "$IBT" 'cn02 HCA-1' "$PLW")"
ibf "switch description <script>" ok "$(sub "$IBT" '"leaf-a" enhanced' "\"$PLH\" enhanced")"
{ printf '%s\n' "${IBL[@]:0:8}"; printf '[3]\t"H-\0\0"[1]\n'; printf '%s\n' "${IBL[@]:8}"; } >"$W/f.ibnet"
T "ibnet NUL bytes in a line" error -m f.ibnet -- topo "ibnet:$W/f.ibnet"
mapfile -t LL <<<"$LFTT"
lftf "loop in the tables" error "$(sub "$LFTT" '0x000d 001 :' '0x000d 035 :')"
lftf "gap (a destination missing)" error "$(printf '%s\n' "${LL[@]}" | grep -v '^0x000e 036')"
lftf "unknown switch guid" error "$(sub "$LFTT" '; 0 guid 0x7cfe900300a1b3d0' '; 0 guid 0x1111111111111111')"
lftf "port without a link" error "$(sub "$LFTT" '0x000e 036 :' '0x000e 017 :')"
lftf "port 999" error "$(sub "$LFTT" '0x000e 036 :' '0x000e 999 :')"
lftf "port 0 toward an HCA" error "$(sub "$LFTT" '0x000e 036 :' '0x000e 000 :')"
lftf "LID of 80 bits" error "$(sub "$LFTT" '0x000e 036 :' '0xffffffffffffffffffff 036 :')"
lftf "unknown HCA port guid" error "$(sub "$LFTT" 'portguid 0x248a0703009c0041' 'portguid 0x9999999999999999')"
lftf "unrecognised line" error "$LFTT"$'\nhello world\n'
lftf "header only" error "${LL[0]}"
lftf "switch table twice" either "$LFTT"$'\n'"$LFTT"
lftf "40 KB line" error "$LONG"
for i in 1 2 3 4; do lftf "truncated #$i" either "${LFTT:0:$((RANDOM % ${#LFTT}))}"; done
T "lft naming the ibnet file itself" error -- topo "ibnet:$fx/ib.ibnet,lft=$fx/ib.ibnet"
T "lft routing without tables" error -- topo "ibnet:$fx/ib.ibnet" --routing lft
T "ibnet ok with tables" ok -c 'grep -q "routing *lft" "$out"' -- topo "ibnet:$fx/ib.ibnet,lft=$fx/ib.lft"

# 4. Every kind of bad file as every kind of input file.
for F in "${KINDS[@]}"; do
  b=$(basename "$F"); to=$(kt "$F")
  ki() { T "$b as $1" error -m "$b" -t "$to" -- "${@:2}"; }
  ki "network file" topo "file:$F"
  ki "ibnet file" topo "ibnet:$F"
  ki "lft file" topo "ibnet:$fx/ib.ibnet,lft=$F"
  ki "scenario" run "$F" -o "$W/o"
  ki "sweep" sweep "$F" -o "$W/o"
  printf 'scenario: %s\nvary: {seed: [1, 2]}\n' "$F" >"$W/sw.yaml"; ki "sweep's scenario" sweep "$W/sw.yaml" -o "$W/o"
  ki "trace (stats)" trace stats "$F"
  ki "trace (check)" trace check "$F"
  ki "trace (matrix)" trace matrix "$F" -o "$W/m.csv"
  ki "trace (convert)" trace convert "$F" -o "$W/conv"
  ki "trace (simulate)" simulate --topology mesh:2x2 --trace "$F"
  ki "trace (process)" map --topology mesh:2x2 --process "trace:$F"
  printf '%s\n' "$F" >"$W/index.txt"; ki "trace index entry" trace stats "$W/index.txt"
  printf '%s\n%s\n' "$fx/idx/rank-0.txt" "$F" >"$W/index.txt"; ki "rank file of an index" trace check "$W/index.txt"
  ki "graph" map --topology mesh:2x2 --process "graph:$F"
  ki "placement (mapper)" map --topology mesh:2x2 --process ring:4 --mapper "placement:$F"
  ki "placement (simulate)" simulate --topology mesh:2x2 --process ring:4 --placement "$F"
  ki "node list" map --topology mesh:2x2 --process ring:4 --allocation "list:$F"
  ki "ocs node list" simulate --topology tree2:switches=2,nodes_per_switch=2 --process ring:4 --model packet --ocs "ocs:pathways=1,nodes=list:$F"
  ki "plot csv" plot "$F" --x x --y y --table
  ki "report dir" report "$F" -o "$W/r.html"
  scen "$W/s.yaml" workload.process @DEL workload.pattern @DEL workload.trace "$F"; ki "scenario workload.trace" run "$W/s.yaml" -o "$W/o"
  scen "$W/s.yaml" network "file:$F"; ki "scenario network file" run "$W/s.yaml" -o "$W/o"
  scen "$W/s.yaml" mapping "[placement:$F]"; ki "scenario placement" run "$W/s.yaml" -o "$W/o"
  scen "$W/s.yaml" allocation "list:$F"; ki "scenario node list" run "$W/s.yaml" -o "$W/o"
  ln -s "$F" "$W/traces.otf2"; T "$b as OTF2 anchor" error -m traces.otf2 -t "$to" -- trace stats "$W/traces.otf2"
  mkdir -p "$W/rd"; cp "$fx/run/"* "$W/rd/"; rm "$W/rd/summary.json"; ln -s "$F" "$W/rd/summary.json"
  T "$b as summary.json of a run" error -m summary.json -t "$to" -- report "$W/rd"
done
unset -f ki

# 5. Scenarios: bad values per key, in the file and by --set; cross-key conflicts; YAML attacks.
INTV=(-1 1e400 "$BIG" .nan '""' '[]' '{}' '"1\x01"' 1.5 "$LONG" "${BOM}1")
TIMEV=(-1us 1e400s .nan inf '""' '[]' 10furlongs '"1us\x01"' "$LONG")
BWV=(0 -10Gbps 1e400Gbps .nan '""' '[]' 10Gparsecs "$LONG")
STRV=(bogus '[]' '{}' -1 "$LONG" '"x\x01"' "$(yq "$PL")")
SPECV=(bogus:1 '[]' '{name: bogus}' ':' 'x:y=1' "$LONG" "$(yq "$PL")" '{name: mesh, dims: -1}' '"mesh:2x2\n"')
declare -A SKEYS=(
  [seed]="${INTV[*]@Q}" [replicates]="${INTV[*]@Q} 0 1000001" [slots]="${INTV[*]@Q} 0 1048577"
  [model.t_s]="${TIMEV[*]@Q}" [model.t_p]="${TIMEV[*]@Q}" [model.t_r]="${TIMEV[*]@Q}" [model.node_latency]="${TIMEV[*]@Q}"
  [model.test_time]="${TIMEV[*]@Q}" [model.link_bandwidth]="${BWV[*]@Q}" [model.node_bandwidth]="${BWV[*]@Q}"
  [model.intra_node_bandwidth]="${BWV[*]@Q}" [model.mtu]="0 -1 1e400B .nan 0.001B '[]' ${BIG}B"
  [model.eager_threshold]="-1 nan 1e400 '[]' abc" [model.flops]="0 -1 nan .inf 1e400 '[]'"
  [model.name]="${STRV[*]@Q} '\"\"'" [model.sharing]="${STRV[*]@Q} '\"\"'" [model.flow_solver]="${STRV[*]@Q} '\"\"'"
  [model.path_selection]="${STRV[*]@Q} '\"\"'" [routing]="${STRV[*]@Q}" [model.collectives]="${STRV[*]@Q} alltoall= =ring alltoall=bogus"
  [model.bogus]="1" [network]="${SPECV[*]@Q} '\"\"' '{}'" [workload.process]="${SPECV[*]@Q} '\"\"' '{}'"
  [workload.pattern]="${SPECV[*]@Q}" [allocation]="${SPECV[*]@Q}" [mapping]="${SPECV[*]@Q} '[[default]]' '[]'" [ocs]="${SPECV[*]@Q}"
  [workload.bogus]="1" [bogus]="1" [name]="'[]' '{}' '\"a\x01\"'")
SET_KEYS=" seed slots replicates model.t_s model.link_bandwidth model.name routing network workload.process mapping model.bogus workload.bogus bogus "
for k in seed replicates slots model.t_s model.t_p model.t_r model.node_latency model.test_time model.link_bandwidth \
  model.node_bandwidth model.intra_node_bandwidth model.mtu model.eager_threshold model.flops model.name model.sharing \
  model.flow_solver model.path_selection routing model.collectives model.bogus network workload.process workload.pattern \
  allocation mapping ocs workload.bogus bogus name; do
  eval "vals=(${SKEYS[$k]})"
  for v in "${vals[@]}"; do
    extra=(); [ "$k" = model.mtu ] && extra=(model.name packet)
    [ "$k" = ocs ] && extra=(model.name packet network tree2:switches=2,nodes_per_switch=2)
    scen "$W/s.yaml" "${extra[@]}" "$k" "$v"
    T "scenario $k: ${v:0:24}" error -m s.yaml -- run "$W/s.yaml" -o "$W/o"
    # --set: a BOM leads a YAML document legally, so a --set value may start with one
    [[ $SET_KEYS == *" $k "* && $v != "$BOM"* ]] || continue
    scen "$W/s.yaml" "${extra[@]}"
    T "scenario --set $k=${v:0:24}" error -m --set -- run "$W/s.yaml" -o "$W/o" --set "$k=$v"
  done
done
scen "$W/s.yaml" routing '""'; T "scenario routing: empty" either -- run "$W/s.yaml" -o "$W/o"
scen "$W/s.yaml" model.collectives '""'; T "scenario model.collectives: empty" either -- run "$W/s.yaml" -o "$W/o"
# output: no -o, which would override it
for v in '[]' '{}' /dev/null /dev/full r.csv s.yaml "$(yq "$W")/sub/../s.yaml"; do
  cp "$fx/r.csv" "$W/r.csv"; scen "$W/s.yaml" output "$v"
  T "scenario output: ${v:0:24}" error -m s.yaml -- run "$W/s.yaml"
done
conflict() { local name=$1; shift; scen "$W/s.yaml" "$@"; T "conflict: $name" error -m s.yaml -- run "$W/s.yaml" -o "$W/o"; }
DF=dragonfly:a=2,p=1,h=1
printf 'node-0\nnode-1\n' >"$fx/nodes2.txt"
conflict "ugal-l with model flow" network $DF routing ugal-l workload.process ring:6
conflict "ugal-g with model flow" network $DF routing ugal-g workload.process ring:6
conflict "ugal-l on a mesh" routing ugal-l model.name packet
conflict "path_selection spray with flow" model.path_selection spray
conflict "path_selection adaptive with flow" model.path_selection adaptive
conflict "ocs with flow" network tree2:switches=2,nodes_per_switch=2 ocs '{pathways: 1}'
conflict "ocs with model none" network tree2:switches=2,nodes_per_switch=2 ocs '{pathways: 1}' model none
conflict "traffic with mapping" workload.process @DEL workload.pattern @DEL workload.traffic uniform model.name packet mapping '[random]'
conflict "traffic with model none" workload.process @DEL workload.pattern @DEL workload.traffic uniform model none mapping @DEL
conflict "traffic with a process" workload.traffic uniform model.name packet mapping @DEL
conflict "traffic with slots" workload.process @DEL workload.pattern @DEL workload.traffic uniform model.name packet mapping @DEL slots 2
conflict "traffic with allocation" workload.process @DEL workload.pattern @DEL workload.traffic uniform model.name packet mapping @DEL allocation random
conflict "traffic with ocs" network tree2:switches=2,nodes_per_switch=2 workload.process @DEL workload.pattern @DEL workload.traffic uniform model.name packet mapping @DEL ocs '{pathways: 1}'
conflict "traffic load 0" workload.process @DEL workload.pattern @DEL workload.traffic '{name: uniform, load: 0}' model.name packet mapping @DEL
conflict "traffic load nan" workload.process @DEL workload.pattern @DEL workload.traffic '{name: uniform, load: .nan}' model.name packet mapping @DEL
conflict "trace with a process" workload.trace "$fx/tr.txt"
conflict "trace with a pattern" workload.process @DEL workload.trace "$fx/tr.txt"
conflict "t_s in network and model" network mesh:2x2,t_s=1us model.t_s 2us
conflict "model link key on a file network" network "file:$fx/net.yaml" model.t_s 1us
conflict "model link key on an ibnet network" network "ibnet:$fx/ib.ibnet" model.link_bandwidth 1Gbps
conflict "ecube on irregular" network irregular:nodes=16,switches=4 routing ecube
conflict "lft on a mesh" routing lft
conflict "dmodk on a mesh" routing dmodk
conflict "node list shorter than the tasks" allocation "list:$fx/nodes2.txt"
conflict "more tasks than slots" workload.process ring:5
conflict "mapper that fits nothing" mapping '[hypersphere]'
conflict "a mapper listed twice" mapping '[random, random]'
conflict "a mapper option typo" mapping '[annealing:speed=2]'
conflict "mapper payload" mapping "[$(yq "$PL")]"
conflict "mapper option payload" mapping "[$(yq "annealing:moves=$PLW")]"
conflict "collectives with no algorithm" workload.pattern alltoall model.collectives alltoall=fast
conflict "mtu 1 B and a 1 GB message" model.name packet model.mtu 1B workload.pattern exchange:size=1GB
conflict "workload too large" workload.pattern exchange:iterations=100000000
conflict "permutation of 1e400 bytes" workload.pattern permutation:size=1e400
scen "$W/s.yaml" seed 18446744073709551615 replicates 2
T "scenario seed 2^64-1 and 2 replicates" either -m s.yaml -- run "$W/s.yaml" -o "$W/o"
yamlf() { printf '%s' "$3" >"$W/s.yaml"; T "scenario $1" "$2" -m s.yaml -- run "$W/s.yaml" -o "$W/o"; }
S=$(cat "$fx/s.yaml")
yamlf "duplicate key" error "$S"$'\nseed: 2\n'
yamlf "duplicate key in model" error "$(sub "$S" 'model:' $'model:\n  name: packet')"
yamlf "second document" error "$S"$'\n---\nseed: 2\n'
yamlf "alias bomb" error "$BOMB$S"
yamlf "alias bomb in a value" error "$(sub "$S" 'seed: 1' 'seed: [&a [x,x,x,x,x,x,x,x,x,x], &b [*a,*a,*a,*a,*a,*a,*a,*a,*a,*a], &c [*b,*b,*b,*b,*b,*b,*b,*b,*b,*b], &d [*c,*c,*c,*c,*c,*c,*c,*c,*c,*c], &e [*d,*d,*d,*d,*d,*d,*d,*d,*d,*d], &f [*e,*e,*e,*e,*e,*e,*e,*e,*e,*e], &g [*f,*f,*f,*f,*f,*f,*f,*f,*f,*f]]')"
yamlf "recursive alias" error "$(sub "$S" 'seed: 1' 'seed: &a [*a]')"
yamlf "deep nesting" error "seed: $DEEP"
yamlf "deep map nesting" error "seed: $(head -c 60000 /dev/zero | tr '\0' '{')"
yamlf "top level a list" error $'- network: mesh:2x2\n'
yamlf "top level a scalar" error $'mesh:2x2\n'
yamlf "only comments" error $'# nothing\n'
yamlf "tab indentation" error "$(suball "$S" '  ' $'\t')"
yamlf "unterminated flow" error "$(sub "$S" 'mapping: [default]' 'mapping: [default')"
yamlf "invalid UTF-8 key" error "$S"$'\nna\xffme: x\n'
yamlf "control char in a key" error "$S"$'\nna\x01me: x\n'
yamlf "100 KB key" error "$S"$'\n'"$LONG: 1"
yamlf "a tag" error "$(sub "$S" 'seed: 1' 'seed: !!binary aGVsbG8=')"
yamlf "merge key" either "$(sub "$S" 'seed: 1' $'seed: 1\n<<: {seed: 2}')"
yamlf "BOM-prefixed" either "$BOM$S"
yamlf "CRLF line ends" either "$(suball "$S" $'\n' $'\r\n')"
yamlf "name a payload" ok "$(sub "$S" 'name: s' "name: $(yq "$PL")")"
yamlf "name unicode" ok "$(sub "$S" 'name: s' 'name: "réseau ✓"')"
for i in 1 2 3 4 5; do yamlf "truncated #$i" either "${S:0:$((RANDOM % ${#S}))}"; done
for v in "seed" "=1" "seed=" "seed.x=1" "mapping.99=random" "mapping.-1=random" "network.nodes.x=1" "..=1" "seed=[" \
  "seed=&a [*a]" "$LONG=1" "seed=$LONG" $'seed=1\nreplicates: 2' "workload.process=$PL"; do
  T "--set '${v:0:24}'" error -m --set -- run "$fx/s.yaml" -o "$W/o" --set "$v"
done
T "run ok: payload output folder" ok -c 'test -s "$(ls -d x*/summary.json | head -1)"' -- run "$fx/s.yaml" -o "$PL"
T "run ok: draw named by a payload" ok -- run "$fx/s.yaml" -o "$W/o" --draw "$W/n$PLW.svg"
T "run --draw ext bogus" error -- run "$fx/s.yaml" -o "$W/o" --draw "$W/x.gif"
T "run --draw-scale bogus" error -- run "$fx/s.yaml" -o "$W/o" --draw x.svg --draw-scale bogus
T "run --resume with nothing" ok -- run "$fx/s.yaml" -o "$W/o" --resume
mkdir -p "$W/o/partial"; printf '{"hash": "x", "replicate": 0' >"$W/o/partial/replicate-0.json"
T "run --resume with a truncated checkpoint" either -- run "$fx/s.yaml" -o "$W/o" --resume
mkdir -p "$W/o/partial"; printf '[1, 2]' >"$W/o/partial/replicate-0.json"
T "run --resume with a checkpoint that is a list" either -- run "$fx/s.yaml" -o "$W/o" --resume
mkdir -p "$W/o/partial/replicate-0.json"
T "run --resume with a checkpoint that is a folder" either -- run "$fx/s.yaml" -o "$W/o" --resume

# 6. Sweeps: bad axes, ranges, zips, files.
swf() {  # swf NAME EXPECT TEXT: a sweep of the base scenario with TEXT after it (no -o when TEXT sets output)
  local o=(-o "$W/o"); [[ $3 == *output:* ]] && o=()
  printf 'scenario: %s\n%s\n' "$SWEEP_SCEN" "$3" >"$W/sw.yaml"
  T "sweep $1" "$2" -m sw.yaml -- sweep "$W/sw.yaml" "${o[@]}" -j 1
}
for ax in '[]' '{}' '[[1]]' '[-1, 2]' '[1, .nan]' "[$BIG]" '{from: 1, to: 5, step: 0}' '{from: 1, to: 5, step: -1}' \
  '{from: 5, to: 1, step: 1}' '{from: 1, to: 1e400, step: 1}' '{from: .nan, to: 5, step: 1}' '{from: 1, to: 1000000, step: 1}' \
  '{from: 1, to: 64, factor: 1}' '{from: 1, to: 64, factor: 0}' '{from: 1, to: 64, factor: -2}' '{from: 0, to: 64, factor: 2}' \
  '{from: 1, to: 5}' '{from: 1, to: 5, step: 1, factor: 2}' '{from: 1us, to: 5Gbps, step: 1us}' '{from: 1, to: 5, step: 1, bogus: 1}' \
  '{from: 1, to: 2, step: 1e-300}' '{from: 1, to: 1e300, factor: 1.0000001}' '{from: 1, to: .inf, step: 1}' '{}'; do
  swf "vary seed: ${ax:0:30}" error $'vary:\n  seed: '"$ax"
done
swf "vary an unknown key" error $'vary:\n  netwrk: [mesh:2x2]'
swf "vary a list" error $'vary: [seed]'
swf "vary a key twice (vary and zip)" error $'vary:\n  seed: [1, 2]\nzip:\n  seed: [3, 4]\n  replicates: [1, 2]'
swf "zip lists of different lengths" error $'zip:\n  seed: [1, 2]\n  replicates: [1]'
swf "zip of a scalar" error $'zip:\n  seed: 1'
swf "10^10 points" error $'vary:\n  seed: {from: 1, to: 100, step: 1}\n  replicates: {from: 1, to: 100, step: 1}\n  model.t_s: {from: 1us, to: 100us, step: 1us}\n  model.t_p: {from: 1ns, to: 100ns, step: 1ns}\n  model.t_r: {from: 1ns, to: 100ns, step: 1ns}'
swf "points past 2^64" error "vary:$(for k in seed replicates slots model.t_s model.t_p model.t_r model.flops model.mtu model.eager_threshold model.test_time model.node_latency; do printf '\n  %s: {from: 1, to: 100000, step: 1}' "$k"; done)"
swf "unknown top-level key" error $'vary: {seed: [1, 2]}\nbogus: 1'
swf "duplicate key" error $'vary: {seed: [1, 2]}\nvary: {seed: [3]}'
swf "second document" error $'vary: {seed: [1, 2]}\n---\nvary: {seed: [3]}'
swf "set an unknown key" error $'vary: {seed: [1, 2]}\nset: {netwrk: 1}'
swf "set a list" error $'vary: {seed: [1, 2]}\nset: [1]'
swf "replicates -1" error $'vary: {seed: [1, 2]}\nreplicates: -1'
swf "output is the sweep file" error $'vary: {seed: [1, 2]}\noutput: sw.yaml'
swf "output /dev/null" error $'vary: {seed: [1, 2]}\noutput: /dev/null'
swf "output [] " error $'vary: {seed: [1, 2]}\noutput: []'
swf "a point that is invalid" error $'vary: {slots: [1, 0]}'
swf "alias bomb" error "$BOMB"$'vary: {seed: [1, 2]}'
swf "deep nesting" error "vary: $DEEP"
swf "vary seed: a scalar" either $'vary:\n  seed: 5'
swf "no axes" either $'vary: {}'
swf "duplicate values" either $'vary:\n  seed: [1, 1]'
SW=$(cat "$fx/sw.yaml")
for i in 1 2 3; do printf '%s' "${SW:0:$((RANDOM % ${#SW}))}" >"$W/sw.yaml"; T "sweep truncated #$i" either -m sw.yaml -- sweep "$W/sw.yaml" -o "$W/o" -j 1; done
swf "name a payload" ok "name: $(yq "$PL")"$'\nvary: {seed: [1, 2]}'
printf 'scenario: sw.yaml\nvary: {seed: [1, 2]}\n' >"$W/sw.yaml"; T "sweep whose scenario is itself" error -m sw.yaml -- sweep "$W/sw.yaml" -o "$W/o"
printf 'scenario: b.yaml\nvary: {seed: [1, 2]}\n' >"$W/a.yaml"; printf 'scenario: a.yaml\nvary: {seed: [1, 2]}\n' >"$W/b.yaml"
T "sweeps naming each other" error -- sweep "$W/a.yaml" -o "$W/o"
for v in '5' '[]' "$(yq "$PL")"; do printf 'scenario: %s\nvary: {seed: [1, 2]}\n' "$v" >"$W/sw.yaml"; T "sweep scenario: ${v:0:16}" error -- sweep "$W/sw.yaml" -o "$W/o"; done
for j in 0 -1 1e400 abc "$BIG" ""; do T "sweep -j '$j'" error -- sweep "$fx/sw.yaml" -o "$W/o" -j "$j"; done
for p in -1 99 abc 1e400 "$BIG"; do T "sweep --point '$p'" error -- sweep "$fx/sw.yaml" -o "$W/o" --point "$p"; done
T "sweep --emit bogus" error -- sweep "$fx/sw.yaml" -o "$W/o" --emit bogus
T "sweep --emit empty" either -- sweep "$fx/sw.yaml" -o "$W/o" --emit ""
T "sweep --point with --merge" error -- sweep "$fx/sw.yaml" -o "$W/o" --point 0 --merge
T "sweep ok: -j 100000 on two points" ok -c 'test -s o/results.csv' -- sweep "$fx/sw.yaml" -o "$W/o" -j 100000
mkdir -p "$W/o/points"; printf '{"status": "ok", "rows": [' >"$W/o/points/0123.json"; printf 'not json' >"$W/o/points/zz.json"
T "sweep --merge with garbage point files" any -- sweep "$fx/sw.yaml" -o "$W/o" --merge
T "sweep --set netwrk" error -m --set -- sweep "$fx/sw.yaml" -o "$W/o" --set netwrk=1

# 7. TI traces: unmatched messages, bad numbers, unknown actions, negative sizes; indexes; OTF2.
trf() {  # trf NAME CONTENT COMMAND...: a shared trace of CONTENT as COMMAND's last argument
  printf '%s\n' "$2" >"$W/t.txt"
  T "trace $1" error -m t.txt -- "${@:3}" "$W/t.txt"
}
for v in -1 2 1e400 "$BIG" nan "" abc 4194305; do trf "send peer '$v'" "0 send $v 0 100"$'\n1 recv 0 0 100' trace check; done
for v in 1e400 "$BIG" nan abc; do trf "send tag '$v'" "0 send 1 $v 100"$'\n'"1 recv 0 $v 100" trace check; done
for v in -1 nan inf 1e400 "$BIG" abc -0x1; do trf "send size '$v'" "0 send 1 0 $v"$'\n'"1 recv 0 0 $v" trace check; done
for v in -1 4194305 abc 1e400 "" "$BIG" ５; do trf "rank '$v'" "$v send 1 0 100"$'\n1 recv 0 0 100' trace check; done
for a in frobnicate SEND "send"$'\x01' "$LONG" "ｓend" "send;touch"; do trf "unknown action '${a:0:12}'" "0 $a 1 0 100"$'\n1 recv 0 0 100' trace check; done
for l in "0 send" "0 send 1" "0 send 1 0" "0 send 1 0 100 1 2 3 4" "0 send 1 0 100 99" "0 send 1 0 100 -1" \
  "0 compute -1" "0 compute nan" "0 compute inf" "0 compute 1e400" "0 compute" "0 sleep -1" "0 sleep nan" "0 sleep inf" \
  "0 comm_size -1" "0 comm_size $BIG" "0 wait 0 5 0"; do
  trf "line '${l:0:24}'" "$l"$'\n0 send 1 0 100\n1 recv 0 0 100' trace check
done
for c in "bcast -1" "bcast 10 5" "bcast 10 -1" "reduce 10 nan" "reduce 10 0 9" "allreduce -1 0" "alltoall -1 -1" "gather 10 10 9" \
  "gatherv 10 1" "gatherv 10 1 2 3 0" "allgatherv 10 1" "scatterv 1 10" "reducescatter 1 0" "alltoallv 100 1 100 1" \
  "scan -5 0" "exscan 10 -1" "allgather 10 nan"; do
  trf "collective '$c'" "0 $c"$'\n'"1 $c" trace check
done
trf "unmatched send" $'0 send 1 0 10\n0 send 1 0 10\n1 recv 0 0 10' trace check
trf "unmatched recv" $'1 recv 0 0 10' trace check
trf "wait without a request" $'0 wait 0 1 0\n1 init' trace check
trf "collectives of different roots" $'0 bcast 10 0\n1 bcast 10 1' trace check
trf "different collectives" $'0 bcast 10\n1 reduce 10 0' trace check
trf "a collective one rank misses" $'0 barrier\n0 send 1 0 1\n1 recv 0 0 1' trace check
trf "old tag-less format" $'0 send 1 10\n1 recv 0 10' trace stats
trf "S4U replay trace" $'p0 recv p1 100\np1 send p0 100' trace stats
trf "deadlock (simulate)" $'0 recv 1 0 10\n1 recv 0 0 10' simulate --topology mesh:2x2 -o "$W/o" --trace
trf "unmatched send (simulate)" $'0 send 1 0 10\n1 init' simulate --topology mesh:2x2 -o "$W/o" --trace
printf '0 send 7 0 10\n7 recv 0 0 10\n' >"$W/t.txt"; T "trace more ranks than nodes (simulate)" error -- simulate --topology mesh:2x2 --trace "$W/t.txt"
printf '0 send 0x1 0 100\n1 recv 0 0 100\n' >"$W/t.txt"; T "trace peer in hex" either -- trace check "$W/t.txt"
printf '0 comm_size 0\n0 send 1 0 100\n1 recv 0 0 100\n' >"$W/t.txt"; T "trace comm_size 0" either -- trace check "$W/t.txt"
printf '0 send 1 0 100\n1 recv 0 0 50\n' >"$W/t.txt"; T "trace send larger than its recv" either -- trace check "$W/t.txt"
for cmd in "trace stats" "trace matrix -o m.csv" "trace convert -o c --shared" "simulate --topology mesh:2x2 --trace" \
  "map --topology mesh:2x2 --process trace:"; do
  for l in "0 send 1 0 -5" "0 frobnicate" "0 send 1 0 nan" "-1 send 1 0 10" "0 send 1 0 $LONG"; do
    if [[ $cmd == *trace: ]]; then
      printf '%s\n1 recv 0 0 10\n' "$l" >"$W/t.txt"; T "trace via map: '${l:0:20}'" error -m t.txt -- map --topology mesh:2x2 --process "trace:$W/t.txt"
    else trf "via ${cmd%% -o*}: '${l:0:20}'" "$l"$'\n1 recv 0 0 10' $cmd; fi
  done
done
echo "$W/i.txt" >"$W/i.txt"; T "index naming itself" error -m i.txt -- trace stats "$W/i.txt"
echo "$W/b.txt" >"$W/a.txt"; echo "$W/a.txt" >"$W/b.txt"; T "indexes naming each other" error -- simulate --topology mesh:2x2 --trace "$W/a.txt"
for i in $(seq 0 9); do echo "$W/l$((i + 1)).txt" >"$W/l$i.txt"; done; cp "$fx/tr.txt" "$W/l10.txt"
T "index chain 10 deep" error -- trace stats "$W/l0.txt"
printf '%s\n%s\n' "$W/i.txt" "$fx/idx/rank-1.txt" >"$W/i.txt"; T "two-line index naming itself" error -m i.txt -- trace check "$W/i.txt"
printf 'rank-0.txt\n\nrank-1.txt\n' >"$W/i2.txt"; cp "$fx/idx/rank-"* "$W/"; T "index with a blank line" either -- trace check "$W/i2.txt"
printf '%s\n%s\n' "$LONG" "$PL" >"$W/i3.txt"; T "index of 100 KB names" error -m i3.txt -- trace stats "$W/i3.txt"
printf '%s\n%s\n' "$fx/idx/rank-1.txt" "$fx/idx/rank-0.txt" >"$W/i4.txt"; T "index lines in the wrong rank order" either -- trace check "$W/i4.txt"
mkdir -p "$W/x.otf2"; T "OTF2 anchor a folder" error -m x.otf2 -- trace stats "$W/x.otf2"
printf 'OTF2 ANCHOR\nversion: 3.0\n' >"$W/traces.otf2"; T "OTF2 anchor of text" error -m traces.otf2 -- simulate --topology mesh:2x2 --trace "$W/traces.otf2"
head -c 4096 /dev/urandom >"$W/traces.otf2" 2>/dev/null || printf 'junk' >"$W/traces.otf2"
T "OTF2 anchor of random bytes" error -m traces.otf2 -- trace stats "$W/traces.otf2"
T "OTF2 missing" error -m gone.otf2 -- trace check "$W/gone.otf2"
TR=$(cat "$fx/tr.txt")
for i in 1 2 3 4; do printf '%s' "${TR:0:$((RANDOM % ${#TR}))}" >"$W/t.txt"; T "trace truncated #$i" either -m t.txt -- simulate --topology mesh:2x2 --trace "$W/t.txt"; done
T "trace ok: stats" ok -c 'grep -q "^ranks *2" "$out"' -- trace stats "$fx/tr.txt"
T "trace ok: matrix of an index" ok -c 'test -s m.csv' -- trace matrix "$fx/idx/index.txt" -o "$W/m.csv"
cp "$fx/tr.txt" "$W/t.txt"; T "trace matrix -o onto the trace" error -- trace matrix "$W/t.txt" -o "$W/t.txt"
cp -r "$fx/idx" "$W/idx"; T "trace convert into the index's folder" error -- trace convert "$W/idx/index.txt" -o "$W/idx"
cp -r "$fx/idx" "$W/idx"; T "trace convert --shared onto a rank file" error -- trace convert "$W/idx/index.txt" --shared -o "$W/idx/rank-0.txt"

# 8. Placements, node lists, graphs, mapper names, process topologies, allocations.
plf() {  # plf NAME EXPECT CONTENT: a placement file for ring:4 on mesh:2x2
  printf '%s\n' "$3" >"$W/p.txt"
  T "placement $1" "$2" -m p.txt -- map --topology mesh:2x2 --process ring:4 --mapper "placement:$W/p.txt"
}
for l in "-1 0" "4 0" "1e400 0" "abc 0" "$BIG 0" "0 99" "0 -1" "0 nan" "0 1e400" "0 node-99" "0 $PLW" "0" "0 ０"; do
  plf "line '${l:0:16}'" error "$l"$'\n1 1\n2 2\n3 3'
done
plf "duplicate rank" error $'0 0\n0 1\n1 1\n2 2\n3 3'
plf "missing rank" error $'0 0\n1 1\n2 2'
plf "empty" error ''
plf "100 KB line" error "$LONG"
plf "control chars" error $'0 0\x01\n1 1\n2 2\n3 3'
plf "a node overfilled" error $'0 0\n1 0\n2 2\n3 3'
plf "a third column" either $'0 0 extra\n1 1\n2 2\n3 3'
plf "BOM-prefixed" either "$BOM"$'0 0\n1 1\n2 2\n3 3'
plf "CRLF" either $'0 0\r\n1 1\r\n2 2\r\n3 3\r'
printf '0 5\n1 1\n2 2\n3 3\n' >"$W/p.txt"; T "placement node out of range (simulate)" error -m p.txt -- simulate --topology mesh:2x2 --process ring:4 --placement "$W/p.txt"
nlf() { printf '%s\n' "$2" >"$W/n.txt"; T "node list $1" error -m n.txt -- map --topology mesh:2x2 --process ring:4 --allocation "list:$W/n.txt"; }
nlf "unknown node" $'node-0\nnode-1\nnode-2\nnode-99'
nlf "duplicate node" $'node-0\nnode-0\nnode-1\nnode-2'
printf 'node-0\nnode-1\n' >"$W/n.txt"; T "node list too few nodes" error -- map --topology mesh:2x2 --process ring:4 --allocation "list:$W/n.txt"
nlf "index -1" $'-1\nnode-1\nnode-2\nnode-3'
nlf "payload name" "$PL"$'\nnode-1\nnode-2\nnode-3'
nlf "100 KB line" "$LONG"
nlf "control char" $'node-0\x07\nnode-1\nnode-2\nnode-3'
nlf "blank lines only" $'\n\n\n'
grf() { printf '%s\n' "$2" >"$W/g.graph"; T "graph $1" error -m g.graph -- map --topology mesh:2x2 --process "graph:$W/g.graph"; }
for h in "4 99" "-4 4" "1e400 4" "$BIG 4" "4" "abc" "4 4 999" "0 0" "99999999 1"; do grf "header '$h'" "$h"$'\n2 4\n1 3\n2 4\n1 3'; done
grf "vertex 0" $'4 4\n0 4\n1 3\n2 4\n1 3'
grf "vertex 5" $'4 4\n5 4\n1 3\n2 4\n1 3'
grf "self loop" $'4 4\n1 4\n1 3\n2 4\n1 3'
printf '4 4\n2 4\n1 3\n2 4\n3\n' >"$W/g.graph"; T "graph asymmetric adjacency" either -- map --topology mesh:2x2 --process "graph:$W/g.graph"
grf "weights nan" $'4 4 1\n2 nan 4 1\n1 1 3 1\n2 1 4 1\n1 1 3 1'
grf "weights negative" $'4 4 1\n2 -5 4 1\n1 -5 3 1\n2 1 4 1\n1 1 3 1'
grf "edge list volume inf" $'0 1 inf\n1 2 1'
grf "edge list volume nan" $'0 1 nan\n1 2 1'
grf "edge list volume negative" $'0 1 -5\n1 2 1'
grf "edge list id 2^32" $'0 4294967296\n1 2'
grf "100 KB line" "$LONG"
for m in "$PL" "placement:" "annealing:moves=0" "annealing:moves=$BIG" "hypersphere:spreading=-2" "random:unit=bogus" \
  "multisection:depth=11" "annealing:moves=nan" "random:seed=-1" "best:best=best" "$LONG"; do
  T "mapper '${m:0:24}'" error -- map --topology mesh:2x2 --process ring:4 --mapper "$m"
done
T "mapper empty" either -- map --topology mesh:2x2 --process ring:4 --mapper ""
for m in "random,random" "random,$PL" "," "$LONG"; do T "compare --mappers '${m:0:24}'" error -- compare --topology mesh:2x2 --process ring:4 --mappers "$m"; done
for p in "ring:0" "ring:-1" "ring:$BIG" "mesh:0x4" "bintree:levels=25" "random:tasks=65537" "random:tasks=4,edges=nan" \
  "random:tasks=4,edges=1e400" "pattern:mesh:2x2,distant=1" "pattern:mesh:2x2,distant=nan" \
  "delaunay:tasks=2" "rgg:tasks=4,radius=-1" "hypercube:dim=25" "torus:2x2,volume=0" "ring:4,volume=nan" "graph:" "trace:" "$PL"; do
  T "process '${p:0:24}'" error -- map --topology mesh:4x4 --process "$p"
done
T "process pattern of a pattern" either -- map --topology mesh:4x4 --process pattern:pattern:mesh:2x2
for a in "bogus" "random:seed=-1" "list:" "random:seed=$BIG" "all:x=1"; do T "allocation '$a'" error -- map --topology mesh:2x2 --process ring:4 --allocation "$a"; done

# 9. Output paths: onto inputs, through symlinks, into files as folders, /dev/full, devices, long names.
cp "$fx/net.yaml" "$W/net.yaml"; ln -s net.yaml "$W/link.json"
T "topo -o through a symlink to the input" error -- topo "file:$W/net.yaml" --export json -o "$W/link.json"
cp "$fx/net.yaml" "$W/net.yaml"; T "topo -o onto the input via sub/.." error -- topo "file:$W/net.yaml" --export json -o "$W/../w/net.yaml"
cp "$fx/net.yaml" "$W/net.yaml"; ln "$W/net.yaml" "$W/hard.json"; T "topo -o onto a hard link of the input" error -- topo "file:$W/net.yaml" --export json -o "$W/hard.json"
cp "$fx/ib.lft" "$W/t.lft"; T "topo -o onto the lft" error -- topo "ibnet:$fx/ib.ibnet,lft=$W/t.lft" --export dot -o "$W/t.lft"
LONGNAME=$(head -c 300 /dev/zero | tr '\0' n)
outs() {  # outs file|dir NAME COMMAND... (its output flag last): the output is each bad kind of path
  local kind=$1 name=$2 o i; shift 2
  for i in full file-as-folder folder empty symlink-loop missing-folder long-name regular-file; do
    case $i in
      full) o=/dev/full ;; file-as-folder) : >"$W/file.txt"; o=$W/file.txt/sub ;; empty) o= ;;
      folder) [ "$kind" = file ] || continue; o=$W ;;
      symlink-loop) ln -s loop2 "$W/loop2"; o=$W/loop2 ;;
      missing-folder) [ "$kind" = file ] || continue; o=$W/nodir/x ;;
      long-name) o=$W/$LONGNAME ;;
      regular-file) [ "$kind" = dir ] || continue; : >"$W/file.txt"; o=$W/file.txt ;;
    esac
    if [ $i = empty ]; then T "$name onto an empty path" either -- "$@" "$o"; else T "$name onto $i" error -- "$@" "$o"; fi
  done
}
outs file "topo --export -o" topo mesh:2x2 --export json -o
outs file "map -o" map --topology mesh:2x2 --process ring:4 -o
outs file "map --rankfile" map --topology mesh:2x2 --process ring:4 --rankfile
outs file "map --hostlist" map --topology mesh:2x2 --process ring:4 --hostlist
outs file "map --write-graph" map --topology mesh:2x2 --process ring:4 --write-graph
outs file "compare --csv" compare --topology mesh:2x2 --process ring:4 --mappers default --csv
outs dir "simulate -o" simulate --topology mesh:2x2 --process ring:4 -o
outs file "simulate --timeline" simulate --topology mesh:2x2 --process ring:4 --timeline
outs dir "simulate --write-trace" simulate --topology mesh:2x2 --process ring:4 --write-trace
outs file "traffic -o" traffic --topology mesh:2x2 --load 0.1 --format csv -o
outs file "trace matrix -o" trace matrix "$fx/tr.txt" -o
outs file "trace convert --shared -o" trace convert "$fx/tr.txt" --shared -o
outs dir "trace convert -o" trace convert "$fx/tr.txt" -o
outs dir "run -o" run "$fx/s.yaml" -o
outs dir "sweep -o" sweep "$fx/sw.yaml" -j 1 -o
outs file "plot --script" plot "$fx/r.csv" --x x --y y -o f.svg --script
outs file "report -o" report "$fx/run" -o
for i in /dev/full /dev/null file-as-folder; do
  o=$i; [ $i = file-as-folder ] && { : >"$W/file.txt"; o=$W/file.txt/x.svg; }
  T "run --draw onto $i" error -- run "$fx/s.yaml" -o "$W/o" --draw "$o"
done
for i in /dev/full f.gif file-as-folder folder; do
  o=$i; [ $i = file-as-folder ] && { : >"$W/file.txt"; o=$W/file.txt/f.svg; }; [ $i = folder ] && o=$W
  T "plot -o onto $i" error -- plot "$fx/r.csv" --x x --y y -o "$o"
done
cp "$fx/place.txt" "$W/p.txt"; T "map --rankfile onto the placement" error -- map --topology mesh:2x2 --process ring:4 --mapper "placement:$W/p.txt" --rankfile "$W/p.txt"
cp "$fx/g.graph" "$W/g.graph"; T "map --write-graph onto the graph" error -- map --topology mesh:2x2 --process "graph:$W/g.graph" --write-graph "$W/g.graph"
cp "$fx/nodes.txt" "$W/n.txt"; T "compare --csv onto the node list" error -- compare --topology mesh:2x2 --process ring:4 --allocation "list:$W/n.txt" --csv "$W/n.txt"
cp "$fx/tr.txt" "$W/t.txt"; T "simulate --timeline onto the trace" error -- simulate --topology mesh:2x2 --trace "$W/t.txt" --timeline "$W/t.txt"
cp -r "$fx/idx" "$W/idx"; T "simulate --write-trace into the trace's folder" error -- simulate --topology mesh:2x2 --trace "$W/idx/index.txt" --write-trace "$W/idx"
cp "$fx/tr.txt" "$W/t.txt"; T "simulate -o onto the trace file" error -- simulate --topology mesh:2x2 --trace "$W/t.txt" -o "$W/t.txt"
cp "$fx/s.yaml" "$W/s.yaml"; T "run -o onto the scenario" error -- run "$W/s.yaml" -o "$W/s.yaml"
cp "$fx/s.yaml" "$W/s.yaml"; T "run --draw onto the scenario" error -- run "$W/s.yaml" -o "$W/o" --draw "$W/s.yaml"
cp "$fx/s.yaml" "$W/s.yaml"; ln -s s.yaml "$W/s.svg"; T "run --draw through a symlink to the scenario" error -- run "$W/s.yaml" -o "$W/o" --draw "$W/s.svg"
cp "$fx/sw.yaml" "$W/sw.yaml"; T "sweep -o onto the sweep file" error -- sweep "$W/sw.yaml" -o "$W/sw.yaml"
cp "$fx/r.csv" "$W/r.csv"; T "plot --script onto the CSV" error -- plot "$W/r.csv" --x x --y y -o "$W/f.svg" --script "$W/r.csv"
cp "$fx/r.csv" "$W/r.svg"; T "plot -o onto the CSV" error -- plot "$W/r.svg" --x x --y y -o "$W/r.svg"
cp -r "$fx/run" "$W/rd"; T "report -o onto results.csv" error -i "$W/rd/results.csv" -- report "$W/rd" -o "$W/rd/results.csv"
cp -r "$fx/run" "$W/rd"; ln -s rd/summary.json "$W/s.html"; T "report -o through a symlink to summary.json" error -i "$W/rd/summary.json" -- report "$W/rd" -o "$W/s.html"
T "map -o and --hostlist on one file" error -- map --topology mesh:2x2 --process ring:4 -o "$W/same" --hostlist "$W/same"
T "simulate -o /dev/null (a device as a folder)" error -- simulate --topology mesh:2x2 --process ring:4 -o /dev/null
T "topo -o /dev/null is written" ok -- topo mesh:2x2 --export json -o /dev/null
ln -s "$W/nowhere.json" "$W/dangling.json"; T "topo -o a dangling symlink" either -- topo mesh:2x2 --export json -o "$W/dangling.json"
T "topo -o a payload name" ok -c 'test -n "$(ls x*json 2>/dev/null)"' -- topo mesh:2x2 --export json -o "$PL.json"
T "plot -o and --script payload names" ok -c 'test -n "$(ls -- x*.svg 2>/dev/null)"' -- plot "$fx/r.csv" --x x --y y -o "$PL.svg" --script "$PL.gp"

# 10. Plot and report inputs.
csvf() { printf '%s' "$3" >"$W/c.csv"; T "plot csv $1" "$2" -m c.csv -- plot "$W/c.csv" --x x --y y "${@:4}"; }
csvf "header only" error $'mapper,x,y\n' --table
csvf "ragged rows" error $'mapper,x,y\nrandom,1\nrandom,2,3,4\n' --table
csvf "unterminated quote" error $'mapper,x,y\n"random,1,2\n' --table
csvf "y not a number" error $'mapper,x,y\nrandom,1,abc\n' --table
for v in nan inf -inf 1e400 "１"; do csvf "y '$v'" error $'mapper,x,y\nrandom,1,'"$v"$'\nrandom,2,3\n' --table; done
csvf "no x column" error $'mapper,z,y\nrandom,1,2\n' --table
csvf "duplicate column" error $'mapper,x,y,x\nrandom,1,2,3\n' --table
csvf "100 KB header" error "$LONG"$'\n1\n' --table
csvf "logx of categories" error $'mapper,x,y\nrandom,a,2\nrandom,b,3\n' --logx --table
printf 'mapper,x,y\nrandom,1,-2\nrandom,2,-3\n' >"$W/c.csv"; T "plot csv logy of negatives" error -- plot "$W/c.csv" --x x --y y --logy -o "$W/f.svg"
csvf "100 KB field" either $'mapper,x,y\n'"$LONG"$',1,2\n' --table
csvf "two points at one x" either $'mapper,point,x,y\nrandom,0,1,2\nrandom,1,1,3\n' --table
csvf "BOM header" either $'\xef\xbb\xbfmapper,x,y\nrandom,1,2\n' --table
csvf "CRLF" either $'mapper,x,y\r\nrandom,1,2\r\n' --table
printf 'mapper,x,y\nrandom,1,2\0\0\n' >"$W/c.csv"; T "plot csv NUL bytes" error -m c.csv -- plot "$W/c.csv" --x x --y y --table
printf 'mapper,x,y\n"a\n!touch %s\n",1,2\n"%s",2,3\n' "$CAN" "${PL//\"/\"\"}" >"$W/c.csv"
T "plot csv series named by payloads" ok -c 'test -s f.svg' -- plot "$W/c.csv" --x x --y y -o "$W/f.svg" --script "$W/f.gp"
T "plot title <script>" ok -c "test -s f.svg || exit 1; ! grep -qF '$PLH' f.svg || exit 99" -- plot "$fx/r.csv" --x x --y y -o "$W/f.svg" --title "$PLH"
T "plot title and labels payloads" ok -c 'test -s f.svg' -- plot "$fx/r.csv" --x x --y y -o "$W/f.svg" --title "$PL" --xlabel $'a\n!touch '"$CAN" --ylabel "$PLW"
for v in 0 nan inf 1e400 -inf abc ""; do T "plot --scale '$v'" error -- plot "$fx/r.csv" --x x --y y --table --scale "$v"; done
for w in "bogus" "=" "x=" "nosuch=1" "$LONG=1"; do T "plot --where '${w:0:12}'" error -- plot "$fx/r.csv" --x x --y y --table --where "$w"; done
T "plot --x empty" error -- plot "$fx/r.csv" --x "" --y y --table
T "plot --y unknown" error -- plot "$fx/r.csv" --x x --y nosuch --table
T "plot --by unknown" error -- plot "$fx/r.csv" --x x --y y --by nosuch --table
T "plot --title 100 KB" either -- plot "$fx/r.csv" --x x --y y -o "$W/f.svg" --title "$LONG"
T "plot --title control chars" either -- plot "$fx/r.csv" --x x --y y -o "$W/f.svg" --title $'a\x01\x1b[31mb'
repf() {  # repf NAME EXPECT FILE CONTENT: report of a copy of a run folder with FILE replaced by CONTENT
  cp -r "$fx/runt" "$W/rd"; printf '%s' "$4" >"$W/rd/$3"
  T "report $1" "$2" -m "$3" -- report "$W/rd" -o "$W/r.html"
}
for v in '[]' '"str"' '42' 'null' '{' '{"mappers": 5}' '{"mappers": {"x": []}}' '' "$(head -c 50000 /dev/zero | tr '\0' '[')" $'\xff\xfe{}'; do
  repf "summary.json '${v:0:20}'" error summary.json "$v"
done
for v in '{"scenario": "x", "mappers": {}}' '{"replicates": -1, "mappers": {}}' "$(sed '0,/"name"/s/"name"/"name": 1, "name"/' "$fx/runt/summary.json")"; do
  repf "summary.json '${v:0:20}'" either summary.json "$v"
done
S2=$(cat "$fx/runt/summary.json")
for i in 1 2 3; do repf "summary.json truncated #$i" error summary.json "${S2:0:$((RANDOM % ${#S2}))}"; done
repf "results.csv ragged" error results.csv $'replicate,seed,mapper,x\n0,1\n'
repf "links.csv junk" error links.csv $'\x01junk\n'
repf "timeline.csv rank 2^64" error timeline.csv $'mapper,rank,state,start,end\ndefault,'"$BIG"$',compute,0,1\n'
repf "results.csv NaN metric" either results.csv "$(sed '2s/,[0-9.e+-]*$/,nan/' "$fx/runt/results.csv")"
repf "timeline.csv negative times" either timeline.csv $'mapper,rank,state,start,end\ndefault,0,compute,5,-1\n'
cp -r "$fx/runt" "$W/rd"; rm "$W/rd/summary.json"; mkdir "$W/rd/summary.json"; T "report summary.json a folder" error -m summary.json -- report "$W/rd"
cp -r "$fx/runt" "$W/rd"; rm "$W/rd/results.csv"; ln -s results.csv "$W/rd/results.csv"; T "report results.csv a symlink loop" error -m results.csv -- report "$W/rd"
mkdir "$W/e"; T "report an empty folder" error -- report "$W/e"
cp -r "$fx/sweep" "$W/sd"; printf 'garbage' >"$W/sd/aggregate.csv"; T "report sweep aggregate.csv garbage" error -m aggregate.csv -- report "$W/sd"
cp -r "$fx/run" "$W/rd"; sed -i "s|\"name\": \"s\"|\"name\": \"$PLH\"|" "$W/rd/summary.json"
T "report of a run named <script>" ok -c "test -s rd/report.html || exit 1; ! grep -qF '$PLH' rd/report.html || exit 99" -- report "$W/rd"
T "report ok: sweep" ok -c 'test -s r.html' -- report "$fx/sweep" -o "$W/r.html"

# 11. Open-loop traffic.
for v in 0 -0.1 1.5 nan inf 1e400 "" "," "0.1,,0.2" "0.1,abc" "$LONG"; do
  T "traffic --load '${v:0:16}'" error -- traffic --topology mesh:2x2 --load "$v"
done
for f in "--message 0" "--message -1" "--message 1e400" "--message ${BIG}B" "--message 1TB" "--mtu 0" "--mtu 1B --message 1GB" \
  "--warmup -1" "--warmup nan" "--measure 0" "--measure 1e400" "--measure -1us" "--seed -1" "--seed $BIG" "--seed abc" \
  "--format bogus" "--pattern bogus" "--pattern transpose:x=1" "--pattern shift:by=-1" "--pattern group-shift:group=0" \
  "--routing ugal-l --model flow" "--path-selection spray --model flow" "--path-selection bogus" "--model none" "--model bogus"; do
  read -r -a fl <<<"$f"
  T "traffic $f" error -- traffic --topology mesh:4x4 "${fl[@]}"
done
T "traffic transpose on a non-square count" error -- traffic --topology mesh:2x3 --pattern transpose
T "traffic bit-reverse on 6 nodes" error -- traffic --topology mesh:2x3 --pattern bit-reverse
T "traffic ugal-l on a mesh" error -- traffic --topology mesh:2x2 --routing ugal-l
T "traffic ok" ok -c 'test "$(wc -l <c.csv)" -eq 3' -- traffic --topology dragonfly:a=2,p=1,h=1 --routing ugal-g --pattern group-shift --load 0.1,0.2 --format csv -o "$W/c.csv"

# 12. Command-line flags of map, compare, simulate and the global ones.
SIMF=("--slots -1" "--slots 0" "--slots 1e400" "--slots abc" "--slots $BIG" "--seed -1" "--seed 1e400" "--seed nan" "--seed $BIG"
  "--eager -1" "--eager nan" "--eager 1e400" "--mtu 0" "--mtu -1" "--mtu nan" "--test-time -1" "--test-time nan" "--test-time 1e400s"
  "--flops 0" "--flops -1" "--flops nan" "--flops inf" "--sharing bogus" "--flow-solver bogus" "--collectives bogus"
  "--collectives alltoall=" "--collectives =ring" "--collectives $LONG" "--intra-node-bandwidth 0" "--intra-node-bandwidth -1Gbps"
  "--model bogus" "--model none" "--path-selection bogus" "--path-selection spray" "--workload bogus" "--workload exchange:size=-1"
  "--workload exchange:iterations=0" "--workload alltoall:size=nan" "--workload permutation:seed=-1" "--model packet --ocs bogus" "--model packet --ocs ocs:pathways=-1"
  "--model packet --ocs ocs:policy=bogus" "--timeline x.otf" "--routing bogus" "--mapper bogus" "--allocation bogus" "--bogus-flag")
for f in "${SIMF[@]}"; do
  read -r -a fl <<<"$f"
  T "simulate $f" error -- simulate --topology mesh:2x2 --process ring:4 "${fl[@]}"
done
for f in "--slots -1" "--slots 0" "--seed -1" "--seed $BIG" "--replicates 0" "--replicates -1" "--replicates 1e400" "--replicates 1000001" "--routing bogus" "--bogus"; do
  read -r -a fl <<<"$f"
  T "compare $f" error -- compare --topology mesh:2x2 --process ring:4 --mappers default "${fl[@]}"
  T "map $f" error -- map --topology mesh:2x2 --process ring:4 "${fl[@]}"
done
for g in "--progress=-1" "--progress=nan" "--progress=1e400" "--progress=abc"; do T "global $g" error -- "$g" topo mesh:2x2; done
T "no subcommand" error --
T "unknown subcommand" error -- bogus
T "trace without a subcommand" error -- trace
T "trace bogus subcommand" error -- trace bogus x
T "components --bogus" error -- components --bogus
T "topo twice the spec" error -- topo mesh:2x2 mesh:4x4
T "simulate without --topology" error -- simulate --process ring:4
T "simulate --process and --trace" error -- simulate --topology mesh:2x2 --process ring:4 --trace "$fx/tr.txt"
T "a 100 KB flag" error -- topo mesh:2x2 "--$LONG"
T "an argument with a newline" error -- topo $'mesh:2x2\nmesh:4x4'
T "components ok" ok -c 'grep -q "^Networks" "$out"' -- components
T "map ok: payload rankfile" ok -c 'test -n "$(ls x* 2>/dev/null)"' -- map --topology mesh:2x2 --process ring:4 --rankfile "$PL"
T "simulate ok: json" ok -c 'python3 -c "import json, sys; json.load(open(sys.argv[1]))" "$out"' -- simulate --topology mesh:2x2 --process ring:4 --json
T "compare ok" ok -c 'test -s c.csv' -- compare --topology mesh:2x2 --process ring:4 --mappers default,random --replicates 2 --csv "$W/c.csv"
# Cases grouped by surface, one file each (same T helper, fixtures and payloads as above).
for f in "$cases_dir"/*.sh; do . "$f"; done
ncases=$n

# ---------------------------------------------------------------------------------------------
# Running and classifying (bash builtins where they do: a fork costs milliseconds on a busy machine).
RE_BLOWUP='bad_alloc|out of memory|Cannot allocate memory|memory exhausted'
RE_UNCAUGHT='internal error|terminate called|filesystem error|std::|nlohmann|json\.exception|what\(\):|directory iterator cannot'
RE_CRASH='Segmentation fault|Aborted|core dumped|AddressSanitizer|LeakSanitizer|UndefinedBehaviorSanitizer|runtime error:|stack-overflow|Assertion .* failed'
RE_CTRL=$'[\x01-\x09\x0b-\x1f\x7f]'
slurp() { IFS= read -r -d '' "$1" <"$2"; return 0; }   # the whole file (to its first NUL byte) into a variable
# The files in folder $1 that look like a finished result: an error case must leave none of them.
complete_outputs() {
  local f
  for f in "$1"/**; do
    case ${f##*/} in summary.json | results.csv | aggregate.csv | report.html | index.txt | *.svg | *.png | *.pdf | *.xml | *.paje)
      [ -f "$f" ] && [ -s "$f" ] && printf '%s\n' "$f" ;;
    esac
  done
}
run_case() {
  local id=$1 d=$cases/$1 W=$cases/$1/w rc t0 t1 ms rss=0 cls=handled why= expect mention check to errtxt out_before out_after h0= h1= lines nl
  local -a args inputs parts
  mapfile -d '' args <"$d/args"
  mapfile -t inputs <"$d/inputs"
  slurp expect "$d/expect"; slurp mention "$d/mention"; slurp check "$d/check"; slurp to "$d/timeout"
  [ ${#inputs[@]} = 0 ] || h0=$(sha1sum -- "${inputs[@]}" 2>&1)
  out_before=$(complete_outputs "$W")
  t0=${EPOCHREALTIME/./}
  if [ $have_time = 1 ]; then
    (cd "$W" && ulimit -v $MEM_KB && exec timeout -k 5 "$to" /usr/bin/time -q -f %M -o "$d/rss" "$M" "${args[@]}") >"$d/out" 2>"$d/err" </dev/null
  else
    (cd "$W" && ulimit -v $MEM_KB && exec timeout -k 5 "$to" "$M" "${args[@]}") >"$d/out" 2>"$d/err" </dev/null
  fi
  rc=$?
  t1=${EPOCHREALTIME/./}; ms=$(((t1 - t0) / 1000))
  local LC_ALL=C
  [ -s "$d/rss" ] && { slurp rss "$d/rss"; rss=${rss//[!0-9]/}; rss=${rss:-0}; }
  slurp errtxt "$d/err"
  [ ${#inputs[@]} = 0 ] || h1=$(sha1sum -- "${inputs[@]}" 2>&1)
  local canary=("$W"/**/CANARY_"$id")
  if [ ${#canary[@]} -gt 0 ]; then cls=security why="a payload ran: ${canary[0]#"$W"/} created"
  elif [ "$h0" != "$h1" ]; then
    cls=security why="an input changed: $(diff <(echo "$h0") <(echo "$h1") | sed -n 's/^> [0-9a-f]*  //p' | head -1 | sed "s|$tmp/||")"
  elif [ $rc = 124 ] || { [ $rc = 137 ] && [ $ms -ge $((to * 1000)) ]; }; then cls=hang why="timeout after ${ms} ms"
  elif [[ $errtxt =~ $RE_BLOWUP ]] || [ "$rss" -ge $((MEM_KB * 9 / 10)) ]; then cls=blowup why="exit $rc, peak ${rss} KB"
  elif [ $rc = 3 ] || [[ $errtxt =~ $RE_UNCAUGHT ]]; then cls=uncaught why="exit $rc"
  elif [ $rc -ge 128 ] || [[ $errtxt =~ $RE_CRASH ]]; then cls=crash why="exit $rc"
  elif [ "$expect" = any ]; then :
  elif [ $rc = 0 ]; then
    if [ "$expect" = error ]; then cls=silent-wrong why="exit 0 for an invalid input"
    elif [ -n "$check" ]; then
      (cd "$W" && out=$d/out err=$d/err bash -c "$check") >/dev/null 2>&1
      case $? in 0) ;; 99) cls=security why="output check: ${check:0:120}" ;; *) cls=silent-wrong why="output check failed: ${check:0:120}" ;; esac
    fi
  elif [ "$expect" = ok ]; then cls=silent-wrong why="exit $rc for a valid input"
  else
    out_after=$(complete_outputs "$W")
    nl=${errtxt//[!$'\n']/}; lines=${#nl}
    mapfile -d '' parts <"$d/err"
    if [ "$out_after" != "$out_before" ]; then
      cls=silent-wrong why="exit $rc but left $(comm -13 <(echo "$out_before") <(echo "$out_after") | head -1 | sed "s|^$W/||")"
    elif [ "${args[0]:-}" = trace ] && [ "${args[1]:-}" = check ] && [ $rc = 1 ] && [[ $errtxt != "mapsim: error: "* ]]; then
      # trace check's findings are a report, not an error: one 'mapsim: FILE:LINE: ...' line each, exit 1
      # (docs/traces.md); the file is the one holding the action at fault, which may be another rank's.
      local finding bad=
      while IFS= read -r finding; do
        [[ $finding =~ ^mapsim:\ [^\ ].*:[0-9]+:\ . ]] && [ ${#finding} -le $MAXLEN ] || { bad=$finding; break; }
      done <<<"${errtxt%$'\n'}"
      if [ -n "$bad" ] || [[ $errtxt != *$'\n' ]]; then cls=unclear why="a trace check finding that is not a 'mapsim: FILE:LINE: ...' line"
      elif [ ${#parts[@]} -gt 1 ] || [[ $errtxt =~ $RE_CTRL ]] || ! iconv -f UTF-8 -t UTF-8 "$d/err" >/dev/null 2>&1; then cls=unclear why="unprintable bytes"
      elif [ -s "$d/out" ]; then cls=unclear why="stdout not empty"
      fi
    elif [ "$lines" != 1 ] || [[ $errtxt != *$'\n' ]]; then cls=unclear why="$lines stderr lines"
    elif [[ $errtxt != "mapsim: error: "* ]]; then cls=unclear why="not a 'mapsim: error:' line"
    elif [ ${#errtxt} -gt $MAXLEN ]; then cls=unclear why="${#errtxt} bytes"
    elif [ ${#parts[@]} -gt 1 ] || [[ $errtxt =~ $RE_CTRL ]] || ! iconv -f UTF-8 -t UTF-8 "$d/err" >/dev/null 2>&1; then cls=unclear why="unprintable bytes"
    elif [ -n "$mention" ] && [[ $errtxt != *"$mention"* ]]; then cls=unclear why="does not name '$mention'"
    elif [ -s "$d/out" ]; then cls=unclear why="stdout not empty"
    fi
  fi
  printf '%s\t%s\t%s\t%s\n' "$cls" "$rc" "$ms" "$why" >"$d/result"
}

# Interrupts: SIGINT / SIGTERM / SIGKILL to the mapsim process of a run, a sweep or a simulation (to
# it alone, as `timeout`, a batch system or an OOM killer sends them), then --resume: the tables must
# equal an uninterrupted run's, and no process it started may be left running. Classified here.
sig_cases() {
  local S=$tmp/sig; mkdir -p "$S"; cd "$S" || return
  cat >long.yaml <<'YAML'
network: irregular:nodes=256,switches=64
workload: {process: mesh:16x16, pattern: "exchange:iterations=20"}
mapping: [default, random]
model: store-and-forward
replicates: 8
YAML
  printf 'scenario: long.yaml\nset: {replicates: 1}\nvary:\n  seed: [1, 2, 3, 4, 5, 6, 7, 8, 9, 10, 11, 12]\n' >lsw.yaml
  sig_case() {  # sig_case NAME COMMAND SIGNAL WAIT_FOR OUTDIR REFERENCE (WAIT_FOR -: 1 s; REFERENCE '': no --resume)
    local name=$1 cmd=$2 sig=$3 wait_for=$4 o=$5 ref=$6 d=$cases/$n pid rc= rc2=0 cls=handled why= i ok_rc=" 130 "
    mkdir -p "$d"; printf '%s' "signal $name" >"$d/name"; printf '%s' ok >"$d/expect"; n=$((n + 1))
    if [ -n "$FILTER" ] && ! [[ "signal $name" =~ $FILTER ]]; then : >"$d/skip"; return; fi
    printf '%s\0' $cmd -o "$o" >"$d/args"
    [[ $cmd == simulate* ]] && ok_rc=" 130 143 "   # simulate is not documented to catch SIGTERM
    if [ -n "$ref" ] && [ ! -e "$ref" ]; then "$M" $cmd -o "${ref%/*}" >/dev/null 2>&1; fi   # the uninterrupted run
    (ulimit -v $MEM_KB; exec setsid "$M" $cmd -o "$o") >"$d/out" 2>"$d/err" </dev/null &
    pid=$!
    if [ "$wait_for" = - ]; then sleep 1; else
      for i in $(seq 400); do [ -e "$o/$wait_for" ] && break; kill -0 $pid 2>/dev/null || break; sleep 0.025; done
    fi
    case $sig in
      INT3) kill -INT $pid; sleep 0.05; kill -INT $pid 2>/dev/null; sleep 0.05; kill -INT $pid 2>/dev/null ;;
      *) kill -"$sig" $pid 2>/dev/null ;;
    esac
    for i in $(seq 200); do kill -0 $pid 2>/dev/null || break; sleep 0.1; done
    if kill -0 $pid 2>/dev/null; then
      kill -9 $pid; { wait $pid; } 2>/dev/null; cls=hang why="still running 20 s after SIG$sig"
    else
      { wait $pid; } 2>/dev/null; rc=$?
      if [ $sig = KILL ]; then :
      elif grep -qaE "$RE_UNCAUGHT" "$d/err"; then cls=uncaught why="after SIG$sig: exit $rc"
      elif [[ $ok_rc != *" $rc "* ]]; then
        if [ $rc -ge 128 ]; then cls=crash; else cls=silent-wrong; fi; why="SIG$sig gave exit $rc, expected${ok_rc% }"
      elif [ -e "$o/summary.json" ]; then cls=silent-wrong why="interrupted, yet summary.json written"
      fi
    fi
    sleep 0.5
    local left; left=$(ps -s $pid -o stat=,pid=,args= 2>/dev/null | grep -v '^ *Z')   # zombies have ended
    if [ -n "$left" ]; then
      [ $sig = KILL ] || [ $cls != handled ] || { cls=silent-wrong why="exit $rc after SIG$sig, but a process it started still runs: $(head -1 <<<"$left" | cut -c1-100)"; }
      for i in $(seq 100); do ps -s $pid -o stat= 2>/dev/null | grep -qv '^ *Z' || break; sleep 0.2; done   # let orphans finish
      pkill -9 -s $pid 2>/dev/null
    fi
    if [ $cls = handled ] && [ -n "$ref" ]; then
      (ulimit -v $MEM_KB; exec timeout -k 5 60 "$M" $cmd -o "$o" --resume) >"$d/out2" 2>"$d/err2" </dev/null; rc2=$?
      cat "$d/err2" >>"$d/err"
      if [ $rc2 = 124 ]; then cls=hang why="--resume timed out"
      elif grep -qaE "$RE_UNCAUGHT" "$d/err2"; then cls=uncaught why="--resume: exit $rc2"
      elif [ $rc2 -ge 128 ]; then cls=crash why="--resume: exit $rc2"
      elif [ $rc2 != 0 ]; then cls=silent-wrong why="--resume: exit $rc2"
      elif [ "$(wc -l <"$o/results.csv")" != "$(wc -l <"$ref")" ]; then cls=silent-wrong why="--resume: $(wc -l <"$o/results.csv") rows, uninterrupted $(wc -l <"$ref")"
      elif ! cmp -s "$o/results.csv" "$ref"; then cls=silent-wrong why="--resume: results.csv differs from an uninterrupted run's"
      fi
    fi
    printf '%s\t%s\t%s\t%s\n' "$cls" "$rc" 0 "$why" >"$d/result"
  }
  local sim="simulate --topology irregular:nodes=256,switches=64 --process mesh:16x16 --workload exchange:iterations=400"
  sig_case "run SIGINT after 2 replicates" "run long.yaml" INT partial/replicate-1.json r1 ref/results.csv
  sig_case "run SIGTERM after 2 replicates" "run long.yaml" TERM partial/replicate-1.json r2 ref/results.csv
  sig_case "run SIGINT before any replicate" "run long.yaml" INT - r3 ref/results.csv
  sig_case "run three SIGINTs" "run long.yaml" INT3 partial/replicate-0.json r4 ref/results.csv
  sig_case "run SIGKILL, then --resume" "run long.yaml" KILL partial/replicate-2.json r5 ref/results.csv
  sig_case "sweep SIGINT" "sweep lsw.yaml -j 2" INT results.csv s1 sref/results.csv
  sig_case "sweep SIGTERM" "sweep lsw.yaml -j 2" TERM results.csv s2 sref/results.csv
  sig_case "sweep SIGKILL, then --resume" "sweep lsw.yaml -j 2" KILL results.csv s3 sref/results.csv
  sig_case "simulate SIGTERM (store-and-forward)" "$sim --model store-and-forward" TERM - m1 ""
  sig_case "simulate SIGINT (packet)" "$sim --model packet" INT - m2 ""
  cd "$tmp" || true
}

running=0
for id in $(seq 0 $((ncases - 1))); do
  [ -e "$cases/$id/skip" ] && continue
  if [ $running -ge "$JOBS" ]; then wait -n; running=$((running - 1)); fi
  run_case "$id" &
  running=$((running + 1))
done
wait
sig_cases 2>>"$tmp/signal-cases.log"   # (bash reports the SIGKILLed jobs there)
total_cases=$n
# A canary anywhere else in the folder (or in the usual places a command might run from) counts too.
while IFS= read -r f; do
  id=${f##*CANARY_}; [[ $id =~ ^[0-9]+$ ]] && [ -e "$cases/$id/result" ] || continue
  IFS=$'\t' read -r cls rc ms why <"$cases/$id/result"
  [ "$cls" = security ] || printf 'security\t%s\t%s\t%s\n' "$rc" "$ms" "a payload ran: ${f#"$tmp"/} created" >"$cases/$id/result"
done < <(find "$tmp" /tmp "$HOME" / -maxdepth 1 -name 'CANARY_*' 2>/dev/null; find "$tmp" -name 'CANARY_*' 2>/dev/null)

# ---------------------------------------------------------------------------------------------
# Report.
CLASSES=(security crash uncaught hang blowup silent-wrong unclear handled)
declare -A count
for c in "${CLASSES[@]}"; do count[$c]=0; done
ran=0
[ -z "$outdir" ] || { mkdir -p "$outdir"; printf 'id\tclass\texpect\texit\tms\tname\treason\n' >"$outdir/cases.tsv"; }
for id in $(seq 0 $((total_cases - 1))); do
  d=$cases/$id
  [ -e "$d/skip" ] || [ ! -e "$d/result" ] && continue
  IFS=$'\t' read -r cls rc ms why <"$d/result"
  ran=$((ran + 1)); count[$cls]=$((count[$cls] + 1))
  slurp name "$d/name"; name=$(LC_ALL=C; printf '%s' "${name//[![:print:]]/?}")
  if [ "$cls" != handled ]; then
    printf '%-12s %s: %s | %s\n' "$cls" "$name" "$why" "$(head -c 200 "$d/err" | tr '\n\t' '  ' | LC_ALL=C tr -c '[:print:]' '?')"
  fi
  if [ -n "$outdir" ]; then
    printf '%s\t%s\t%s\t%s\t%s\t%s\t%s\n' "$id" "$cls" "$(<"$d/expect")" "$rc" "$ms" "$name" "$why" >>"$outdir/cases.tsv"
    if [ "$cls" != handled ] || [ -n "${RED_TEAM_KEEP_ALL:-}" ]; then
      mkdir -p "$outdir/$id"
      tr '\0' '\n' <"$d/args" | sed "s|$tmp|\$TMP|g" >"$outdir/$id/cmd"
      cp "$d/out" "$outdir/$id/stdout" 2>/dev/null; cp "$d/err" "$outdir/$id/stderr" 2>/dev/null
    fi
  fi
done
echo
for c in "${CLASSES[@]}"; do printf '%-13s %d\n' "$c" "${count[$c]}"; done
echo "red-team: $ran cases, ${count[handled]} handled, ${count[security]} security, ${count[crash]} crash, ${count[uncaught]} uncaught, ${count[hang]} hang, ${count[blowup]} blowup, ${count[silent-wrong]} silent-wrong, ${count[unclear]} unclear ($((SECONDS - start_time)) s)"
[ $report_only = 1 ] && exit 0
[ $((ran - count[handled])) -eq 0 ]
