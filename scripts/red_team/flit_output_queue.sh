# Red-team cases of the flit model's output_queue (sourced by scripts/red_team.sh): bad sizes refused
# with one line naming the key; a cut-through queue smaller than a packet refused naming the fix; the
# largest queue on a dragonfly's slow links, and a queue on a configuration that deadlocks, end
# (the deadlock named), never a hang or a wheel blown up.
for bad in "output_queue=-1" "output_queue=65537" "output_queue=1e9" "output_queue=$PLW" "output_queue=4,speedup=0"; do
  T "flit $bad" error -- traffic --topology mesh:4x4 --model "flit:flit=16B,$bad" --mtu 16B --load 0.1
done
T "flit output_queue smaller than a cut-through packet" error -- \
  traffic --topology mesh:4x4 --model flit:flit=16B,buffer=64,output_queue=4 --mtu 1KiB --load 0.1
T "flit output_queue=65536 on a dragonfly at load 1" ok -- \
  traffic --topology dragonfly:a=4,p=2,h=2 --routing minimal --model flit:flit=16B,vcs=2,buffer=256,speedup=2,output_queue=65536 \
  --mtu 16B --load 1 --warmup 14us --measure 14us
T "flit output_queue on a torus that deadlocks" error -m 'deadlock at' -- \
  traffic --topology torus:8x8 --model flit:flit=16B,vcs=1,buffer=4,speedup=2,output_queue=8 --mtu 64B --load 1.0 --pattern tornado
