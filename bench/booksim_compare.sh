#!/usr/bin/env bash
# mapsim's `traffic` against BookSim2 (github booksim/booksim2, built from its own repository, never vendored)
# on the configurations of issue 47: an 8x8 mesh (DOR; uniform, transpose), an 8x8 torus (dateline DOR;
# uniform, tornado), BookSim's 72-node `dragonflynew` (k=2; minimal and UGAL-L; uniform and group shift)
# and a 4-ary 3-tree (nearest common ancestor, random up port). 1 cycle = 1 ns, 16-byte flits, 1-flit
# packets, 3 x 1000-cycle warm-up and 3 x 1000-cycle measurement windows.
#
#   bench/booksim_compare.sh [--only REGEX] [--keep DIR] BOOKSIM_BINARY [MAPSIM_BINARY] [MODEL_SPEC]
#   bench/booksim_compare.sh --speed [--runs N] [--only REGEX] BOOKSIM_BINARY [MAPSIM_BINARY] [MODEL_SPEC]
#
# MAPSIM_BINARY defaults to build/mapsim, MODEL_SPEC to `flit`: a bare `flit` gets each configuration's
# buffers and BookSim's credit_delay at 1 cycle = 1 ns
# (flit=16B,vcs=V,buffer=B,switching=vct,arbitration=round-robin,speedup=S,credit_delay=Dns: D = 1 on the
# mesh, torus and fat tree, 2 on the dragonfly); any other spec (`packet`, or a full `flit:...`) is passed
# to --model as it is.
#
# Accuracy (default): BookSim's saturation load (mean latency = 3 x its zero-load latency, bracketed by
# doubling, bisected, interpolated) is found first; then both tools run at 0.02 (zero load), 25/50/75/90 %
# of it and at 1.0, and mapsim's own saturation load is read from a grid around BookSim's. A markdown
# table gives both figures, the difference and pass/fail against the issue's tolerances (2 % zero load,
# 5 % mean latency, 5 % saturation load, 5 % accepted at offered 1.0), then the wall time of each
# tool's six matched runs. Stock BookSim's `uniform` may pick the source itself and its `transpose`
# sends the diagonal to itself, where mapsim sends nothing: BookSim runs with pair_stats, and its
# latency and accepted throughput are taken over the other pairs only (see bench/booksim/README.md).
#
# About 15 minutes on two busy cores (BookSim's saturation searches take half of it); stock BookSim
# exits with status 255 when it succeeds, so the script reads its statistics, not its status. A BookSim
# run that stops delivering (its UGAL on dragonflynew deadlocks under group shift) is stopped and its
# rows say so (n/a), as the issue excludes them.
#
# --speed: BookSim and mapsim in turn (A B A B ..., RUNS pairs, default 5) on the mesh (load 0.2) and
# the dragonfly (load 0.4) with 1-, 8- and 64-flit packets; medians of the wall times and of the
# pair-by-pair ratios. The issue asks for mapsim >= 1x BookSim's speed at 1 flit, >= 5x at 8 and 64.
# The flit model runs its default, switching=vct (a cut-through packet crosses each hop as one train),
# wherever the configuration's buffer holds a whole packet; only the mesh's 8-flit buffers with 64-flit
# packets cannot (vct needs a buffer of one packet and the model refuses less), so that one row runs
# switching=wormhole with BookSim's 8-flit buffers rather than a bigger buffer than BookSim has. The
# table names the switching of each row. (BookSim's router itself is wormhole at every size.)
set -euo pipefail
here=$(cd "$(dirname "${BASH_SOURCE[0]}")" && pwd)
exec python3 - "$here" "$@" <<'PYTHON'
import json, math, os, re, shutil, statistics, subprocess, sys, tempfile, time

here = sys.argv[1]
args = sys.argv[2:]
usage = ("usage: bench/booksim_compare.sh [--speed] [--runs N] [--only REGEX] [--keep DIR] "
         "BOOKSIM_BINARY [MAPSIM_BINARY] [MODEL_SPEC]")


def die(message):
    print("booksim_compare: error: " + message, file=sys.stderr)
    sys.exit(2)


speed, runs, only, keep, positional = False, 5, None, None, []
while args:
    a = args.pop(0)
    if a == "--speed":
        speed = True
    elif a in ("--runs", "--only", "--keep"):
        if not args:
            die(a + " needs a value\n" + usage)
        value = args.pop(0)
        if a == "--runs":
            if not value.isdigit() or not 1 <= int(value) <= 50:
                die("--runs takes a whole number from 1 to 50, not '%s'" % value)
            runs = int(value)
        elif a == "--only":
            only = re.compile(value)
        else:
            keep = os.path.abspath(value)
    elif a in ("-h", "--help"):
        print(usage)
        sys.exit(0)
    elif a.startswith("-"):
        die("unknown option '%s'\n%s" % (a, usage))
    else:
        positional.append(a)
if not 1 <= len(positional) <= 3:
    die(usage)
booksim = os.path.abspath(positional[0])
mapsim = os.path.abspath(positional[1] if len(positional) > 1 else os.path.join(here, "..", "build", "mapsim"))
model = positional[2] if len(positional) > 2 else "flit"
for path, what in ((booksim, "BOOKSIM_BINARY"), (mapsim, "MAPSIM_BINARY")):
    if not (os.path.isfile(path) and os.access(path, os.X_OK)):
        die("%s '%s' is not an executable file" % (what, path))
files = os.path.join(here, "booksim")

# ---- the configurations ---------------------------------------------------------------------------------

# BookSim's input-queued router (routers/iq_router.cpp): lookahead routing, VC and switch allocation one
# cycle each, separable input-first round-robin allocators, one crossbar cycle. Fixed windows: no latency
# threshold (it would stop with "Simulation unstable"), no convergence test.
BOOKSIM_BASE = dict(
    router="iq", wait_for_tail_credit=0, vc_allocator="separable_input_first",
    sw_allocator="separable_input_first", alloc_iters=1, routing_delay=0, vc_alloc_delay=1, sw_alloc_delay=1,
    st_prepare_delay=0, st_final_delay=1, input_speedup=1, output_speedup=1, priority="none", packet_size=1,
    injection_rate_uses_flits=1, injection_process="bernoulli", sim_type="latency", warmup_periods=3,
    sample_period=1000, max_samples=10, latency_thres=-1.0, warmup_thres=-1.0, acc_warmup_thres=-1.0,
    stopping_thres=-1.0, acc_stopping_thres=-1.0, sim_count=1, seed=1)
SMALL = dict(num_vcs=2, vc_buf_size=8, credit_delay=1, internal_speedup=1.0)  # mesh, torus, fat tree
DFLY = dict(vc_buf_size=256, credit_delay=2, internal_speedup=2.0)  # BookSim's examples/dragonflyconfig
LINKS = "link_bandwidth=16GB/s,node_bandwidth=16GB/s,t_s=1ns,t_p=0ns,t_r=3ns,node_latency=0ns"
DIAGONAL = [i for i in range(64) if i % 8 == i // 8]  # transpose sends these to themselves


def config(name, nodes, booksim_options, mapsim_options, flit, self_traffic=None):
    # self_traffic: "uniform" (BookSim may pick the source: 1/N of its packets stay home), a list of the
    # nodes a permutation maps to themselves, or None.
    return dict(name=name, nodes=nodes, bs=dict(BOOKSIM_BASE, **booksim_options), ms=mapsim_options,
                flit=flit, self=self_traffic)


MESH = dict(topology="mesh", k=8, n=2, routing_function="dor", **SMALL)
TORUS = dict(topology="torus", k=8, n=2, routing_function="dim_order", use_noc_latency=0, **SMALL)
FATTREE = dict(topology="fattree", k=4, n=3, routing_function="nca", **SMALL)
DRAGONFLY = dict(topology="dragonflynew", k=2, n=1, **DFLY)
SMALL_FLIT = dict(vcs=2, buffer=8, speedup=1, injection="round-robin")  # BookSim's traffic manager


def dfly_flit(vcs):  # BookSim's dragonfly routings inject into a random VC
    return dict(vcs=vcs, buffer=256, speedup=2, injection="random")


# BookSim's UGAL on dragonflynew: a random node's router as intermediate, minimal iff q_min <= 2 q_nonmin + 30 flits.
BOOKSIM_UGAL = "ugal-l:intermediate=router,rule=threshold,threshold=480B"
# BookSim's dim_order_torus: a dimension's dateline class fixed on entering it, half-way ties split
# (BookSim: at random per packet; mapsim: up from even coordinates, down from odd ones).
TORUS_DOR = "ecube:dateline=entry,ties=spread"
dfly_file = "file:" + os.path.join(files, "dragonfly72.json")
CONFIGS = [
    config("mesh-uniform", 64, dict(MESH, traffic="uniform"),
           ["--topology", "mesh:8x8," + LINKS, "--routing", "ecube", "--pattern", "uniform"], SMALL_FLIT, "uniform"),
    config("mesh-transpose", 64, dict(MESH, traffic="transpose"),
           ["--topology", "mesh:8x8," + LINKS, "--routing", "ecube", "--pattern", "transpose"], SMALL_FLIT, DIAGONAL),
    config("torus-uniform", 64, dict(TORUS, traffic="uniform"),
           ["--topology", "torus:8x8," + LINKS, "--routing", TORUS_DOR, "--pattern", "uniform"], SMALL_FLIT, "uniform"),
    # The same with 4 VCs (two per dateline class), where BookSim's torus no longer collapses past 0.34.
    config("torus-uniform-4vc", 64, dict(TORUS, traffic="uniform", num_vcs=4),
           ["--topology", "torus:8x8," + LINKS, "--routing", TORUS_DOR, "--pattern", "uniform"],
           dict(SMALL_FLIT, vcs=4), "uniform"),
    # BookSim's tornado moves every coordinate by ceil(k/2) - 1 = 3; the file numbers the nodes so that
    # node i + 8 sits 3 right and 3 up of node i, which makes it mapsim's shift:by=8.
    config("torus-tornado", 64, dict(TORUS, traffic="tornado"),
           ["--topology", "file:" + os.path.join(files, "torus8x8-tornado.json"), "--routing", TORUS_DOR,
            "--pattern", "shift:by=8"], SMALL_FLIT),
    config("dfly-min-uniform", 72, dict(DRAGONFLY, routing_function="min", num_vcs=2, traffic="uniform"),
           ["--topology", dfly_file, "--routing", "minimal", "--pattern", "uniform"],
           dfly_flit(2), "uniform"),
    config("dfly-ugal-uniform", 72, dict(DRAGONFLY, routing_function="ugal", num_vcs=3, traffic="uniform"),
           ["--topology", dfly_file, "--routing", BOOKSIM_UGAL, "--pattern", "uniform"], dfly_flit(3), "uniform"),
    # bad_dragon: every node of group i to a random node of group i+1, as mapsim's group-shift.
    config("dfly-min-groupshift", 72, dict(DRAGONFLY, routing_function="min", num_vcs=2, traffic="bad_dragon"),
           ["--topology", dfly_file, "--routing", "minimal", "--pattern", "group-shift"],
           dfly_flit(2)),
    config("dfly-ugal-groupshift", 72, dict(DRAGONFLY, routing_function="ugal", num_vcs=3, traffic="bad_dragon"),
           ["--topology", dfly_file, "--routing", BOOKSIM_UGAL, "--pattern", "group-shift"], dfly_flit(3)),
    # nca: up through a random up port at each switch until the destination is below, then down.
    config("fattree-uniform", 64, dict(FATTREE, traffic="uniform"),
           ["--topology", "fattree:k=4,levels=3," + LINKS, "--routing", "updn", "--path-selection", "spray",
            "--pattern", "uniform"], SMALL_FLIT, "uniform"),
]
SPEED = [("mesh-uniform", 0.2), ("dfly-min-uniform", 0.4)]

# ---- running BookSim ------------------------------------------------------------------------------------

work = keep or tempfile.mkdtemp(prefix="booksim_compare.")
os.makedirs(work, exist_ok=True)
if not re.fullmatch(r"[A-Za-z0-9_\-/.]+", work):
    die("BookSim's configuration syntax cannot name '%s': use a directory with letters, digits, _ - . only" % work)
BOOKSIM_TIMEOUT = 300
# BookSim warns "Possible network deadlock" after 256 cycles in which no flit reached its destination
# anywhere; a run that flows never does. Twenty warnings (5120 cycles) are a deadlock.
DEADLOCK_WARNINGS = 20


def write_booksim_config(path, options):
    with open(path, "w") as out:
        for key, value in options.items():
            out.write("%s = %s;\n" % (key, value))


def run_booksim(cfg, load, tag, stats=True, **overrides):
    """One BookSim run; latencies in cycles, accepted in flits/node/cycle, over pairs of distinct nodes."""
    options = dict(cfg["bs"], injection_rate=load, **overrides)
    base = os.path.join(work, "%s-%s" % (cfg["name"], tag))
    if stats:
        options.update(pair_stats=1, stats_out=base + ".m")
    write_booksim_config(base + ".cfg", options)
    start = time.monotonic()
    with open(base + ".out", "w") as out, open(base + ".out", "rb") as progress:
        proc = subprocess.Popen([booksim, base + ".cfg"], stdout=out, stderr=subprocess.STDOUT, cwd=work)
        status, warnings, partial = None, 0, b""
        while proc.poll() is None:
            time.sleep(0.1)
            lines = (partial + progress.read()).split(b"\n")
            partial = lines.pop()
            warnings += sum(1 for l in lines if l.startswith(b"WARNING: Possible network deadlock"))
            if warnings >= DEADLOCK_WARNINGS:
                status = "deadlock"
            elif time.monotonic() - start > BOOKSIM_TIMEOUT:
                status = "timeout"
            if status:
                proc.kill()
                proc.wait()
    wall = time.monotonic() - start
    text = open(base + ".out").read()
    overall = text.split("====== Overall Traffic Statistics ======")
    if "Simulation unstable" in text:
        status = "unstable"  # latency_thres exceeded (the saturation search sets it)
    if status or len(overall) < 2:
        return dict(status=status or "failed (exit %d; see %s.out)" % (proc.returncode, base), wall=wall)
    tail = overall[1]
    result = dict(status="ok", wall=wall, latency_all=number(tail, "Packet latency average"),
                  accepted_all=number(tail, "Accepted flit rate average"), cycles=number(text, "Time taken is"))
    result.update(latency=result["latency_all"], accepted=result["accepted_all"])
    if stats:
        result.update(other_pairs(cfg, read_stats(base + ".m")))
    return result


def number(text, label):
    m = re.search(re.escape(label) + r"\s*=?\s*([-+0-9.eE]+|nan|-nan|inf)", text)
    return float(m.group(1)) if m else float("nan")


def read_stats(path):
    vectors = {}
    for line in open(path):
        m = re.match(r"(\w+)\(1,:\) = \[ (.*)\];", line)
        if m:
            vectors[m.group(1)] = [float(v) for v in m.group(2).split()]
    return vectors


def other_pairs(cfg, v):
    """BookSim's latency and accepted throughput without the packets a node sends to itself."""
    n = cfg["nodes"]
    sent, plat = v["pair_sent"], v["pair_plat"]
    total = sum(sent)
    other = sum(s for i, s in enumerate(sent) if i // n != i % n)
    weighted = sum(s * l for i, (s, l) in enumerate(zip(sent, plat)) if s > 0 and i // n != i % n)
    accepted = v["accepted_flits"]
    if cfg["self"] == "uniform":
        acc = sum(accepted) / n * (other / total if total else 1)
    elif cfg["self"]:
        keep_nodes = [j for j in range(n) if j not in cfg["self"]]
        acc = sum(accepted[j] for j in keep_nodes) / len(keep_nodes)
    else:
        acc = sum(accepted) / n
    return dict(latency=weighted / other if other else float("nan"), accepted=acc)


def mapsim_load(cfg, load):
    """mapsim's load that sends as much to other nodes as BookSim's injection rate `load`."""
    n = cfg["nodes"]
    return load * (n - 1) / n if cfg["self"] == "uniform" else load


def booksim_saturation(cfg, zero_load):
    """Offered load at which BookSim's mean latency reaches 3x zero load: doubling, bisection to a bracket
    3 % wide, then a linear interpolation between its ends. A run whose mean latency (in-flight
    packets included) passes 10x zero load is stopped there (latency_thres): far beyond saturation the
    drain would wait for the slowest source queue."""
    threshold = 3 * zero_load
    runs_done, wall = [], 0.0

    def latency(load):
        nonlocal wall
        r = run_booksim(cfg, load, "sat-%.5f" % load, latency_thres=10 * zero_load)
        wall += r["wall"]
        runs_done.append((load, r))
        return r["latency"] if r["status"] == "ok" else float("inf")

    lo, lo_lat, hi, hi_lat = 0.02, zero_load, None, None
    load = 0.04
    while True:
        lat = latency(load)
        if lat > threshold:
            hi, hi_lat = load, lat
            break
        lo, lo_lat = load, lat
        if load >= 1.0:
            return dict(load=None, runs=runs_done, wall=wall)  # never saturates
        load = min(1.0, load * 2)
    for _ in range(6):
        if hi - lo <= 0.03 * lo:
            break
        mid = (lo + hi) / 2
        lat = latency(mid)
        if lat > threshold:
            hi, hi_lat = mid, lat
        else:
            lo, lo_lat = mid, lat
    if math.isinf(hi_lat):
        sat = (lo + hi) / 2
    else:
        sat = lo + (threshold - lo_lat) / (hi_lat - lo_lat) * (hi - lo)
    deadlocks = [l for l, r in runs_done if r["status"] == "deadlock"]
    return dict(load=sat, runs=runs_done, wall=wall, deadlock_from=min(deadlocks) if deadlocks else None)

# ---- running mapsim -------------------------------------------------------------------------------------


def model_spec(cfg, switching="vct"):
    if model != "flit":
        return model
    f = cfg["flit"]
    # BookSim's router: a head takes any idle output VC and then waits for credits; internal speedup is a
    # combined input/output-queued switch, whose output queue credits bound at vcs x buffer flits.
    queue = ",output_queue=%d" % (f["vcs"] * f["buffer"]) if f["speedup"] > 1 else ""
    return ("flit:flit=16B,vcs=%d,buffer=%d,switching=%s,arbitration=round-robin,speedup=%d,credit_delay=%gns,"
            "vc_allocation=any,injection_vc=%s%s"
            % (f["vcs"], f["buffer"], switching, f["speedup"], cfg["bs"]["credit_delay"], f["injection"], queue))


def speed_switching(cfg, size):
    """vct (the default) where a buffer holds a packet of `size` flits, else wormhole."""
    return "vct" if model != "flit" or size <= cfg["flit"]["buffer"] else "wormhole"


def mapsim_command(cfg, loads, mtu="16B", switching="vct"):
    return ([mapsim, "traffic"] + cfg["ms"] +
            ["--model", model_spec(cfg, switching), "--mtu", mtu, "--warmup", "3000ns", "--measure", "3000ns",
             "--seed", "1", "--format", "json", "--load", ",".join("%.6g" % l for l in loads)])


def run_mapsim(cfg, loads):
    """mapsim at several loads in one process: {load: result}, wall seconds. Latencies in cycles (ns)."""
    start = time.monotonic()
    proc = subprocess.run(mapsim_command(cfg, loads), stdout=subprocess.PIPE, stderr=subprocess.PIPE, text=True)
    wall = time.monotonic() - start
    if proc.returncode != 0:
        message = (proc.stderr.strip().splitlines() or ["exit %d" % proc.returncode])[-1]
        if len(loads) > 1:  # one load may fail (a deadlock the model reports): run them one by one
            results = {}
            for load in loads:
                one, _ = run_mapsim(cfg, [load])
                results.update(one)
            return results, None
        return {loads[0]: dict(status=message)}, wall
    results = {}
    for load, r in zip(loads, json.loads(proc.stdout)["results"]):
        results[load] = dict(status="ok", latency=r["latency"]["mean"] * 1e9, accepted=r["accepted"],
                             events=r.get("events"), wall_seconds=r.get("wall_seconds"))
    return results, wall


def mapsim_saturation(results, zero_load):
    """The same 3x-zero-load crossing over the loads mapsim ran; inf when it stays below up to the last."""
    threshold = 3 * zero_load
    points = sorted((l, r["latency"] if r["status"] == "ok" else float("inf")) for l, r in results.items())
    for (l0, t0), (l1, t1) in zip(points, points[1:]):
        if t0 <= threshold < t1:
            return l1 if math.isinf(t1) else l0 + (threshold - t0) / (t1 - t0) * (l1 - l0)
    return float("inf") if points[-1][1] <= threshold else None

# ---- accuracy -------------------------------------------------------------------------------------------


def relative(ms, bs):
    numbers = all(isinstance(v, (int, float)) and math.isfinite(v) for v in (ms, bs))
    return (ms - bs) / bs if numbers and bs != 0 else None


def row(rows, name, metric, bs, ms, tolerance, note=""):
    d = relative(ms, bs)
    if note:
        verdict = "n/a"
    elif isinstance(bs, str) and bs == ms:
        verdict = "pass"
    elif d is None:
        verdict = "fail"
    else:
        verdict = "pass" if abs(d) <= tolerance else "fail"
    rows.append((name, metric, fmt(bs), fmt(ms), "%+.1f %%" % (100 * d) if d is not None else "-",
                 "%g %%" % (100 * tolerance), verdict + (" (" + note + ")" if note else "")))


def fmt(v):
    if v is None:
        return "-"
    if isinstance(v, str):
        return v
    if math.isinf(v):
        return "none <= 1.0"  # mean latency stays under 3x zero load up to offered 1.0
    return "%.4g" % v


def accuracy():
    rows, walls = [], []
    for cfg in CONFIGS:
        if only and not only.search(cfg["name"]):
            continue
        name = cfg["name"]
        print("# %s ..." % name, file=sys.stderr, flush=True)
        zero = run_booksim(cfg, 0.02, "zero")
        if zero["status"] != "ok":
            rows.append((name, "BookSim at 0.02", zero["status"], "-", "-", "-", "n/a"))
            continue
        sat = booksim_saturation(cfg, zero["latency"])
        fractions = [0.25, 0.5, 0.75, 0.9]
        bs_loads = [f * sat["load"] for f in fractions] if sat["load"] else []
        bs = {0.02: zero}
        bs_wall = zero["wall"]
        for load in bs_loads:
            bs[load] = run_booksim(cfg, load, "load-%.5f" % load)
            bs_wall += bs[load]["wall"]
        # Throughput mode: no drain of the source queues (at 1.0 the slowest source would take 60x the window).
        bs[1.0] = run_booksim(cfg, 1.0, "load-1", sim_type="throughput")
        bs_wall += bs[1.0]["wall"]
        matched = [0.02] + bs_loads + [1.0]
        ms, ms_wall = run_mapsim(cfg, [mapsim_load(cfg, l) for l in matched])
        ms = {l: ms[mapsim_load(cfg, l)] for l in matched}
        walls.append((name, bs_wall, ms_wall, sat["wall"]))

        def value(r, key):
            return r[key] if r["status"] == "ok" else None

        def status_note(b, m):
            notes = []
            if b["status"] != "ok":
                notes.append("BookSim " + b["status"])
            if m["status"] != "ok":
                notes.append("mapsim: " + m["status"])
            return "; ".join(notes)

        m0 = ms[0.02]
        note = "mapsim: " + m0["status"] if m0["status"] != "ok" else ""
        row(rows, name, "zero-load latency (cycles)", zero["latency"], value(m0, "latency"), 0.02,
            "" if not note else note)
        for f, load in zip(fractions, bs_loads):
            b, m = bs[load], ms[load]
            note = status_note(b, m)
            if note.startswith("BookSim"):
                row(rows, name, "latency at %d %% sat. (%.3f)" % (100 * f, load), b["status"], None, 0.05, note)
            else:
                row(rows, name, "latency at %d %% sat. (%.3f)" % (100 * f, load), b["latency"],
                    value(m, "latency"), 0.05, note if m["status"] != "ok" else "")
        # Saturation loads on mapsim's scale (traffic to other nodes), mapsim's from a grid around BookSim's.
        bs_sat = mapsim_load(cfg, sat["load"]) if sat["load"] else None
        ms_sat, sat_note = None, ""
        if m0["status"] == "ok":  # the matched loads and a grid around BookSim's saturation
            centre = bs_sat if bs_sat else 0.9
            grid = sorted({round(min(1.0, centre * g), 6) for g in (0.95, 1.0, 1.05, 1.1, 1.2, 1.35)}
                          - {round(mapsim_load(cfg, l), 6) for l in ms})
            grid_results, _ = run_mapsim(cfg, grid) if grid else ({}, None)
            grid_results.update({mapsim_load(cfg, l): r for l, r in ms.items()})
            ms_sat = mapsim_saturation(grid_results, m0["latency"])
            if ms_sat is None:
                sat_note = "mapsim saturates below 0.02"
        else:
            sat_note = "mapsim: " + m0["status"]
        if sat.get("deadlock_from") is not None:
            sat_note = "BookSim deadlocks from load %.3f" % sat["deadlock_from"]
        if bs_sat is None:
            row(rows, name, "saturation load (3x zero load)", "none <= 1.0",
                "none <= 1.0" if ms_sat == float("inf") else ms_sat, 0.05, sat_note)
        else:
            row(rows, name, "saturation load (3x zero load)", bs_sat, ms_sat, 0.05, sat_note)
        b, m = bs[1.0], ms[1.0]
        row(rows, name, "accepted at offered 1.0 (flits/node/cycle)", value(b, "accepted"),
            value(m, "accepted"), 0.05, status_note(b, m))
    print("| configuration | figure | BookSim | mapsim (%s) | mapsim vs BookSim | tolerance | verdict |" % model)
    print("|---|---|---|---|---|---|---|")
    for r in rows:
        print("| " + " | ".join(r) + " |")
    print()
    print("| configuration | BookSim wall (s), 6 matched loads | mapsim wall (s), same loads | BookSim / mapsim "
          "| BookSim saturation search (s) |")
    print("|---|---|---|---|---|")
    for name, bw, mw, sw in walls:
        ratio = "%.2f" % (bw / mw) if mw else "-"
        print("| %s | %.2f | %s | %s | %.2f |" % (name, bw, "%.2f" % mw if mw else "-", ratio, sw))
    if keep:
        print("\nBookSim and mapsim outputs: " + work)
    failed = sum(1 for r in rows if r[-1].startswith("fail"))
    return 1 if failed else 0

# ---- speed ----------------------------------------------------------------------------------------------


def timed(command, stdout, stderr=subprocess.STDOUT):
    start = time.monotonic()
    proc = subprocess.run(command, stdout=stdout, stderr=stderr, cwd=work)
    return time.monotonic() - start, proc.returncode


def speed_mode():
    print("| configuration | load | packet (flits) | mapsim switching | BookSim wall (s) | mapsim wall (s) "
          "| BookSim / mapsim (median of %d pairs) | mapsim events/s | wanted | verdict |" % runs)
    print("|---|---|---|---|---|---|---|---|---|---|")
    status = 0
    by_name = {c["name"]: c for c in CONFIGS}
    for name, load in SPEED:
        if only and not only.search(name):
            continue
        cfg = by_name[name]
        for size in (1, 8, 64):
            base = os.path.join(work, "speed-%s-%d" % (name, size))
            write_booksim_config(base + ".cfg", dict(cfg["bs"], injection_rate=load, packet_size=size))
            bs_cmd = [booksim, base + ".cfg"]
            switching = speed_switching(cfg, size)
            ms_cmd = mapsim_command(cfg, [mapsim_load(cfg, load)], mtu="%dB" % (16 * size), switching=switching)
            bs_walls, ms_walls = [], []
            for i in range(runs + 1):  # the first pair warms the caches and is not counted
                with open(base + ".out", "w") as out:
                    b, _ = timed(bs_cmd, out)
                with open(base + ".json", "w") as out, open(base + ".err", "w") as err:
                    m, rc = timed(ms_cmd, out, err)
                if rc != 0:
                    break
                if i:
                    bs_walls.append(b)
                    ms_walls.append(m)
            if not ms_walls:
                print("| %s | %g | %d | %s | - | - | - | - | - | mapsim failed (%s.err) |"
                      % (name, load, size, switching, base))
                status = 1
                continue
            ratio = statistics.median(b / m for b, m in zip(bs_walls, ms_walls))
            try:
                r = json.load(open(base + ".json"))["results"][0]
                rate = "%.3g" % (r["events"] / r["wall_seconds"])
            except (ValueError, KeyError, ZeroDivisionError):
                rate = "-"
            wanted = 1.0 if size == 1 else 5.0
            ok = ratio >= wanted
            status |= 0 if ok else 1
            print("| %s | %g | %d | %s | %.3f | %.3f | %.2f | %s | >= %g | %s |"
                  % (name, load, size, switching, statistics.median(bs_walls), statistics.median(ms_walls), ratio, rate,
                     wanted, "pass" if ok else "fail"))
    return status


try:
    code = speed_mode() if speed else accuracy()
finally:
    if not keep:
        shutil.rmtree(work, ignore_errors=True)
sys.exit(code)
PYTHON
