# Red-team cases of ugal-l's options (sourced by scripts/red_team.sh): intermediate=, rule=, factor=,
# threshold= on the command line and in a scenario, refused with one line naming the key (the file and
# line, in a scenario); BookSim's setting runs.
DF=dragonfly:a=4,p=2,h=2
for bad in "intermediate=node" "intermediate=$PLW" "rule=least" "threshold=480B" "factor=1" \
           "rule=threshold,factor=-1" "rule=threshold,factor=nan" "rule=threshold,threshold=-1B" \
           "rule=threshold,threshold=1e400B" "rule=threshold,threshold=lots" "intermediate=router,via=3"; do
  T "ugal-l option $bad" error -- topo "$DF" --routing "ugal-l:$bad"
done
printf 'network: %s\nrouting: "ugal-l:intermediate=%s"\nmodel: packet\nworkload: {process: ring:8, pattern: "exchange:size=64"}\n' \
  "$DF" "$PLW" >"$W/s.yaml"
T "ugal-l option in a scenario, a payload" error -m s.yaml -- run "$W/s.yaml" -o "$W/o"
T "ugal-l as BookSim's, topo" ok -c 'grep -q "all walks      deadlock free" "$out"' -- \
  topo "$DF" --routing ugal-l:intermediate=router,rule=threshold,threshold=480B
T "ugal-l as BookSim's, flit traffic" ok -- traffic --topology "$DF" --routing ugal-l:intermediate=router,rule=threshold,threshold=480B \
  --pattern group-shift --model flit:vcs=4,buffer=32,flit=16B --mtu 16B --load 0.3 --warmup 2us --measure 14us
