#!/usr/bin/env bash
# Reproduces issue 10's three studies with the model backend (and the first on the
# cpu backend's tiny shape) and the sweep images in docs/screenshots/sweep/.
# Every figure is the cost model's or the serving model's, not a measurement,
# except the cpu backend's. The GUI's Sweep tab on each study's file is saved as
# docs/screenshots/sweep/<study>/sweep.png (the GUI next to the CLI, offscreen).
# Usage: docs/make_sweep_studies.sh [tokenscope-cli] [work dir]
set -euo pipefail
cli=${1:-build/release/app/cli/tokenscope-cli}
gui=$(dirname "$cli")/../gui/tokenscope
work=${2:-$(mktemp -d)}
mkdir -p "$work"
shots=$(dirname "$0")/screenshots/sweep
mkdir -p "$shots"
rm -f "$work"/{strat,strat_cpu,grid,qps}.tokenscope
# 1. TTFT P50/P90/std of greedy, beam 4 and speculative (gamma 4) at batch 1, prompt 128.
"$cli" sweep --out "$work/strat.tokenscope" --backend model --preset llama-8b --batch 1 \
    --prompt 128 --tokens 64 --strategy greedy,beam:4,speculative:2:4 --progress none
"$cli" sweep --out "$work/strat_cpu.tokenscope" --backend cpu --preset tiny --batch 1 \
    --prompt 128 --tokens 32 --strategy greedy,beam:4,speculative:2:4 --progress none
"$cli" sweep-report "$work/strat.tokenscope" --strategies "$shots/strategies.png" \
    --size 1200x700 | sed -n '/decoding strategies/,$p'
"$cli" sweep-report "$work/strat_cpu.tokenscope" --strategies "$shots/strategies_cpu.png" \
    --size 1200x700 | sed -n '/decoding strategies/,$p'
# 2. SLA attainment, batch 8/16/32 x context 512/2048/4096, llama-8b and llama-70b shapes.
"$cli" sweep --out "$work/grid.tokenscope" --backend model --preset llama-8b,llama-70b \
    --batch 8,16,32 --prompt 512,2048,4096 --tokens 128 --warmup 1 --repeats 3 --progress none
"$cli" sweep-report "$work/grid.tokenscope" --sla-ttft 500ms --sla-tpot 50ms \
    --grid "$shots/grid.png" --size 1200x700 | sed -n '/SLA attainment, batch/,/against/p'
# 3. The QPS - P99 TTFT frontier of the serving model with its fit and knee.
"$cli" sweep --out "$work/qps.tokenscope" --preset llama-8b --qps 10:250:+10 --duration 30s \
    --prompt 512 --tokens 64 --length-spread 0.5 --summary requests --warmup 1 --repeats 3 \
    --progress none
"$cli" sweep-report "$work/qps.tokenscope" --sla-ttft 200ms --sla-tpot 50ms \
    --pareto "$shots/pareto.png" --knee "$shots/knee.png" --size 1200x700 | sed -n '/against/,$p'
# The Sweep tab on each study's file.
for study in strat strat_cpu grid qps; do
    QT_QPA_PLATFORM=offscreen "$gui" --screenshots "$shots/$study" "$work/$study.tokenscope"
    # Only the Sweep tab is this script's; the other tabs are docs/make_screenshots.sh's.
    rm -f "$shots/$study"/{timeline,heatmap,breakdown,compare}.png
done
