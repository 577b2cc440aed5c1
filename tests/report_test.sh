#!/usr/bin/env bash
# mapsim report as a user sees it: the page of a run (with a timeline) and of a sweep, rendered by
# headless Chromium; every figure must be in the rendered DOM with its SVG, and a screenshot taken.
# Usage: report_test.sh MAPSIM SOURCE_DIR [SCREENSHOT.png]   (also writes SCREENSHOT-sweep.png, the sweep's page)
set -uo pipefail
mapsim=$1
src=$2
shot=${3:-}
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
chromium=$(command -v chromium || command -v chromium-browser) || { echo "FAIL: chromium is not installed (scripts/setup.sh --tests installs it)" >&2; exit 1; }
passed=0 failed=0
check() {  # check NAME CONDITION...
  local name=$1; shift
  if "$@"; then passed=$((passed + 1)); else failed=$((failed + 1)); echo "FAIL: $name" >&2; fi
}
# Headless, with no network and a fresh profile (the flags this machine's Chromium needs).
browse() {  # browse PAGE ARGS...
  local page=$1; shift
  "$chromium" --headless --no-sandbox --disable-gpu --disable-quic --no-first-run --disable-background-networking \
    --disable-component-update --disable-sync --user-data-dir="$tmp/profile" --hide-scrollbars "$@" "file://$page" 2>/dev/null
}
# The figures of the rendered page: id, and whether an <svg> with a size is inside.
figures() {
  python3 - "$1" <<'PY'
import sys, html.parser
class P(html.parser.HTMLParser):
    def __init__(self):
        super().__init__(); self.fig = None; self.found = []
    def handle_starttag(self, tag, attrs):
        a = dict(attrs)
        if tag == "figure": self.fig = [a.get("id", ""), False]
        if tag == "svg" and self.fig and (a.get("viewbox") or (a.get("width") and a.get("height"))): self.fig[1] = True
    def handle_endtag(self, tag):
        if tag == "figure" and self.fig: self.found.append(self.fig); self.fig = None
p = P(); p.feed(open(sys.argv[1]).read())
for fid, svg in p.found: print(fid, "svg" if svg else "EMPTY")
PY
}

# How much wider than the window the rendered page is (0: nothing sticks out; wide tables scroll in their own box).
overflow() {  # overflow PAGE WIDTH
  sed 's#</body>#<script>document.body.setAttribute("data-overflow", String(document.documentElement.scrollWidth - window.innerWidth))</script></body>#' \
    "$1" >"$tmp/width.html"
  browse "$tmp/width.html" --window-size="$2",1000 --dump-dom | grep -o 'data-overflow="[^"]*"' | cut -d'"' -f2
}
# The text labels of a figure of the page: FIGURE-ID-PREFIX -> one per line, prefixed by the figure's id.
figure_texts() {  # figure_texts PAGE ID-PREFIX
  python3 - "$1" "$2" <<'PY'
import re, sys
page = open(sys.argv[1]).read()
for m in re.finditer(r'<figure id="(' + re.escape(sys.argv[2]) + r'[^"]*)"(.*?)</figure>', page, re.S):
    for text in re.findall(r'<text[^>]*>(.*?)</text>', m.group(2), re.S):
        print(m.group(1), re.sub(r'<[^>]*>', '', text).strip())
PY
}

cat >"$tmp/run.yaml" <<'YAML'
name: report-run
network: irregular:nodes=32,switches=10,seed=4
workload: {process: mesh:4x8, pattern: "exchange:iterations=3,size=16KiB,compute=2e4"}
mapping: [default, random, binary]
model: store-and-forward
replicates: 3
YAML
"$mapsim" run "$tmp/run.yaml" -o "$tmp/run" --timeline >/dev/null 2>&1
"$mapsim" report "$tmp/run" >/dev/null 2>&1
check "report written" test -s "$tmp/run/report.html"
check "self-contained: no external resources" bash -c "! grep -Eq '(src|href)=\"(https?:)?//' '$tmp/run/report.html'"
"$mapsim" report "$tmp/run" -o "$tmp/again.html" >/dev/null 2>&1
check "deterministic" cmp -s "$tmp/run/report.html" "$tmp/again.html"
browse "$tmp/run/report.html" --dump-dom >"$tmp/run-dom.html"
figures "$tmp/run-dom.html" >"$tmp/run-figures.txt"
check "rendered: makespan per mapper" grep -q "^fig-sim_makespan svg$" "$tmp/run-figures.txt"
check "rendered: latency per mapper" grep -q "^fig-sim_avg_latency svg$" "$tmp/run-figures.txt"
check "rendered: link-load CDFs per level" test "$(grep -c '^fig-load-[0-9]* svg$' "$tmp/run-figures.txt")" -ge 2
check "rendered: a network picture per mapper" test "$(grep -c '^fig-network-[0-9]* svg$' "$tmp/run-figures.txt")" -eq 3
check "rendered: a timeline per mapper" test "$(grep -c '^fig-timeline-[0-9]* svg$' "$tmp/run-figures.txt")" -eq 3
check "rendered: no empty figure" bash -c "! grep -q EMPTY '$tmp/run-figures.txt'"
check "rendered: the per-mapper table" grep -q '<table id="mappers">' "$tmp/run-dom.html"
browse "$tmp/run/report.html" --window-size=1000,2200 --screenshot="$tmp/report.png" >/dev/null
check "screenshot" test "$(stat -c %s "$tmp/report.png" 2>/dev/null || echo 0)" -gt 20000
[ -n "$shot" ] && cp "$tmp/report.png" "$shot"
for width in 1400 400; do
  check "run page at $width px: nothing wider than the window" test "$(overflow "$tmp/run/report.html" $width)" = 0
done
figure_texts "$tmp/run/report.html" fig-timeline- >"$tmp/timeline-texts.txt"
check "timeline: rank ticks start at 0" grep -q '^fig-timeline-[0-9]* 0$' "$tmp/timeline-texts.txt"
check "timeline: no negative tick" bash -c "! grep -qE '^fig-timeline-[0-9]* -[0-9]' '$tmp/timeline-texts.txt'"
figure_texts "$tmp/run/report.html" fig-load- >"$tmp/cdf-texts.txt"
for m in default random binary; do
  check "link-load CDFs: a legend entry for $m in each" test "$(grep -cE "^fig-load-[0-9]+ $m( \(= [a-z]+\))?$" "$tmp/cdf-texts.txt")" -eq \
    "$(grep -c '^fig-load-[0-9]* svg$' "$tmp/run-figures.txt")"
done
check "one load unit: the network pictures' scale in bytes' binary units" grep -q 'on one scale for every mapper (red: [0-9.]* [KMG]\?i\?B)' "$tmp/run/report.html"

cat >"$tmp/sweep.yaml" <<'YAML'
scenario: run.yaml
replicates: 2
vary:
  model.link_bandwidth: [2.5Gbps, 10Gbps]
  workload.process: [mesh:4x8, ring:32]
YAML
"$mapsim" sweep "$tmp/sweep.yaml" -o "$tmp/sweep" >/dev/null 2>&1
"$mapsim" report "$tmp/sweep" >/dev/null 2>&1
browse "$tmp/sweep/report.html" --dump-dom >"$tmp/sweep-dom.html"
figures "$tmp/sweep-dom.html" >"$tmp/sweep-figures.txt"
check "sweep: a figure per swept key" test "$(grep -c '^fig-sweep-[0-9]* svg$' "$tmp/sweep-figures.txt")" -eq 2
check "sweep: the per-point table" grep -q '<table id="points">' "$tmp/sweep-dom.html"
check "sweep: the table scrolls in its own box" grep -q '<div class="wide"><table id="points">' "$tmp/sweep-dom.html"
# Times in the per-point table: one unit per column from its values, named in the header (not raw seconds).
check "sweep: times in one unit per column, named in the header" python3 - "$tmp/sweep/report.html" "$tmp/sweep/aggregate.csv" <<'PY'
import csv, re, sys
page = open(sys.argv[1]).read()
table = page[page.index('<table id="points">'):]
table = table[:table.index('</table>')]
header = re.findall(r'<th>([^<]*)</th>', table.split('</tr>')[0])
col = next(i for i, h in enumerate(header) if h.startswith('makespan ('))
unit = header[col][len('makespan ('):-1]
factor = {'s': 1, 'ms': 1e3, 'us': 1e6, 'ns': 1e9}[unit]
means = [float(r['sim_makespan_mean']) for r in csv.DictReader(open(sys.argv[2]))]
assert 1 <= max(means) * factor < 1000, (unit, max(means))
cells = [re.findall(r'<td>([^<]*)</td>', row)[col] for row in table.split('</tr>')[1:-1]]
assert len(cells) == len(means)
for cell, mean in zip(cells, means):
    assert abs(float(cell.split(' ')[0]) - mean * factor) <= 1e-3 * mean * factor, (cell, mean)
assert not any(h.endswith('(s)') and unit != 's' for h in header)
PY
check "sweep: the figures' axis names the unit" grep -q '>sim. makespan ([mun]\?s)<' "$tmp/sweep/report.html"
if [ -n "$shot" ]; then
  browse "$tmp/sweep/report.html" --window-size=1400,1000 --screenshot="$tmp/sweep.png" >/dev/null
  cp "$tmp/sweep.png" "${shot%.png}-sweep.png"
fi
for width in 1400 400; do
  check "sweep page at $width px: nothing wider than the window" test "$(overflow "$tmp/sweep/report.html" $width)" = 0
done
# A run with best: how well each static metric ranks the placements, and the candidates best tried.
cat >"$tmp/a2a.yaml" <<'YAML'
name: a2a
network: dragonfly:a=4,p=2,h=2
routing: minimal
workload: {process: ring:32, pattern: alltoall:size=16KiB}
mapping: [default, random, best]
allocation: random
model: store-and-forward
replicates: 2
YAML
"$mapsim" run "$tmp/a2a.yaml" -o "$tmp/a2a" >/dev/null 2>&1
"$mapsim" report "$tmp/a2a" >/dev/null 2>&1
browse "$tmp/a2a/report.html" --dump-dom >"$tmp/a2a-dom.html"
check "best: the rank-correlation section" \
  grep -q '<h2 id="rank-correlation">How well each static metric ranks placements by simulated run time</h2>' "$tmp/a2a-dom.html"
check "best: a row per static metric" test "$(grep -o '<tr><td>[^<]*</td><td class="c">' "$tmp/a2a-dom.html" | wc -l)" -eq \
  "$(python3 -c "import json; print(len(json.load(open('$tmp/a2a/summary.json'))['rank_correlation']))")"
check "best: null correlations said in words" grep -q 'n/a: equal for every placement' "$tmp/a2a-dom.html"
check "best: the portfolio section" grep -q '<h2 id="portfolio">What best tried</h2>' "$tmp/a2a-dom.html"
check "best: a candidate table per replicate" test "$(grep -c '<table class="portfolio-candidates">' "$tmp/a2a-dom.html")" -eq 2
check "best: the chosen candidate marked in each" test "$(grep -c '<tr class="chosen">' "$tmp/a2a-dom.html")" -eq 2
check "best: every candidate listed" test "$(grep -oE '<tr( class="chosen")?><td>[0-9]+</td><td class="t">[^<]*</td><td>[0-9.e+-]+</td><td>[0-9.e+-]*</td>' "$tmp/a2a-dom.html" | wc -l)" -eq \
  "$(($(wc -l <"$tmp/a2a/portfolio.csv") - 1))"
# Markup in a candidate's name is text; a run folder from before both (no keys, no portfolio.csv) still reports.
cp -r "$tmp/a2a" "$tmp/a2a-mark"
sed -i '2s/^\([^,]*,[^,]*,\)[^,]*,/\1<b>bold<\/b>,/' "$tmp/a2a-mark/portfolio.csv"
"$mapsim" report "$tmp/a2a-mark" >/dev/null 2>&1
check "best: candidate names escaped" bash -c "grep -q '&lt;b&gt;bold&lt;/b&gt;' '$tmp/a2a-mark/report.html' && ! grep -q '<b>bold' '$tmp/a2a-mark/report.html'"
cp -r "$tmp/a2a" "$tmp/a2a-old"
rm "$tmp/a2a-old/portfolio.csv" "$tmp/a2a-old/report.html"
python3 - "$tmp/a2a-old/summary.json" <<'PY'
import json, sys
s = json.load(open(sys.argv[1]))
del s["rank_correlation"], s["portfolio"]
json.dump(s, open(sys.argv[1], "w"))
PY
"$mapsim" report "$tmp/a2a-old" >/dev/null 2>&1
check "an older run folder: reported" test -s "$tmp/a2a-old/report.html"
check "an older run folder: neither new section" bash -c "! grep -q 'id=\"rank-correlation\"\|id=\"portfolio\"' '$tmp/a2a-old/report.html'"

"$mapsim" report "$tmp/nothing" >"$tmp/out" 2>"$tmp/err"
check "not a results directory: exit 1" test $? -eq 1
check "not a results directory: one line" grep -q "not a run or sweep directory" "$tmp/err"

echo "$passed passed, $failed failed"
[ "$failed" -eq 0 ]
