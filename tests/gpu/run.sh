#!/usr/bin/env bash
# Device checks of issue 4 (docs/capture.md, Backends), for a machine with an NVIDIA GPU
# and CUDA at /usr/local/cuda. Builds Release, makes a traced cuda-backend decode
# run and checks it, compares greedy tokens with the CPU reference, traces a small
# CUDA program through injection, and prints a summary table. Must finish within
# 8 minutes. Exit status: 0 all checks passed, 1 a check failed, 3 no GPU/driver.
#
# Environment: OUT (results folder; default a temp dir), BUILD_DIR (default
# build/release), SKIP_DEPS=1 (do not run packaging/install-deps.sh),
# SKIP_BUILD=1 (reuse BUILD_DIR as it is).
set -uo pipefail

ROOT=$(cd "$(dirname "${BASH_SOURCE[0]}")/../.." && pwd)
OUT=${OUT:-$(mktemp -d -t tokenscope-gpu.XXXXXX)}
BUILD=${BUILD_DIR:-$ROOT/build/release}
CUDA_HOME=${CUDA_HOME:-/usr/local/cuda}
export PATH="$CUDA_HOME/bin:$PATH"
JOBS=$(nproc 2>/dev/null || echo 4)
BUDGET_S=${BUDGET_S:-470}  # stop starting new work after this, to end inside 8 minutes
mkdir -p "$OUT"
CLI="$BUILD/app/cli/tokenscope-cli"
SHAPE=(--preset tiny --tokens 64 --batch 2)

rows=()
failed=0
check() {  # check NAME RESULT FIGURE
    rows+=("$1|$2|$3")
    [ "$2" = FAIL ] && failed=1
    echo "  -> $1: $2${3:+ ($3)}"
}
step() { echo; echo "=== [$(date +%T) +${SECONDS}s] $*"; }
out_of_time() { [ "$SECONDS" -ge "$BUDGET_S" ]; }
summary() {
    echo
    echo "=== summary (${SECONDS}s, results in $OUT)"
    printf '%-34s %-6s %s\n' check result figure
    printf '%-34s %-6s %s\n' ---------------------------------- ------ ------
    for r in "${rows[@]}"; do
        IFS='|' read -r name result figure <<<"$r"
        printf '%-34s %-6s %s\n' "$name" "$result" "$figure"
    done
}
finish() {  # finish STATUS
    summary
    exit "$1"
}
json() {  # json FILE PYTHON-EXPR-ON-d: prints the value
    python3 -c "import json,sys; d=json.load(open(sys.argv[1])); print($2)" "$1"
}

# Kernels launched inside each iteration range ("prefill", "decode step N") of a
# Chrome trace export, against the model backend's run of the same shape, whose
# kernels are exactly the planner's (the spec); and every step must hold kernels.
kernels_per_step() {  # kernels_per_step MEASURED.json SPEC.json
    python3 - "$1" "$2" <<'PY'
import bisect, json, re, sys
ITER = re.compile(r"^(prefill|decode( step \d+)?|speculative decode)$")

def load(path):
    d = json.load(open(path))
    ev = [e for e in (d["traceEvents"] if isinstance(d, dict) else d) if e.get("ph") == "X"]
    iters = sorted((e for e in ev if e.get("cat") == "user_annotation"
                    and ITER.match(e.get("name", ""))), key=lambda e: e["ts"])
    starts = sorted(e["ts"] for e in ev if e.get("cat") == "kernel")
    inside = lambda e: (bisect.bisect_right(starts, e["ts"] + e["dur"])
                        - bisect.bisect_left(starts, e["ts"]))
    steps = [e for e in ev if e.get("cat") == "step"]
    return [inside(e) for e in iters], [inside(e) for e in steps]

measured, measured_steps = load(sys.argv[1])
spec, _ = load(sys.argv[2])
print(f"iterations: measured {len(measured)}, spec {len(spec)}")
print(f"kernels per iteration, measured: {measured[:4]} ... {measured[-2:]}")
print(f"kernels per iteration, spec:     {spec[:4]} ... {spec[-2:]}")
empty = sum(1 for n in measured_steps if n == 0)
if measured_steps and empty == 0:
    print(f"every step has kernels ({len(measured_steps)} steps)")
else:
    print(f"steps without kernels: {empty} of {len(measured_steps)}")
bad = [i for i, (m, s) in enumerate(zip(measured, spec)) if m != s]
if len(measured) != len(spec) or bad or not spec:
    first = bad[0] if bad else min(len(measured), len(spec))
    print(f"MISMATCH at iteration {first}: "
          f"{measured[first] if first < len(measured) else '-'} kernels, "
          f"spec {spec[first] if first < len(spec) else '-'}")
    sys.exit(1)
print(f"{len(spec)} iterations match: prefill {spec[0]}, decode {spec[-1]} kernels")
PY
}

echo "tokenscope device checks: root $ROOT, build $BUILD, results $OUT, $JOBS cores"
command -v nvidia-smi >/dev/null && nvidia-smi --query-gpu=name,driver_version --format=csv,noheader

# --- 1. dependencies and build ------------------------------------------------------
if [ "${SKIP_DEPS:-0}" != 1 ]; then
    step "installing build dependencies (packaging/install-deps.sh)"
    if timeout 240 "$ROOT/packaging/install-deps.sh"; then check "dependencies" PASS ""
    else check "dependencies" FAIL "install-deps.sh failed"; fi
fi
if [ "${SKIP_BUILD:-0}" != 1 ]; then
    step "configuring Release (cmake --preset release)"
    (cd "$ROOT" && timeout 120 cmake --preset release -G Ninja -DTOKENSCOPE_BUILD_BENCH=OFF \
        -DCMAKE_CUDA_COMPILER="$CUDA_HOME/bin/nvcc" -B "$BUILD" >"$OUT/configure.log" 2>&1) ||
        { tail -20 "$OUT/configure.log"; check "configure" FAIL "see configure.log"; finish 1; }
    grep -E "^-- tokenscope:" "$OUT/configure.log"
    targets=(tokenscope-cli)
    for t in tokenscope_inject tokenscope-gpu-check tokenscope-gpu-overhead; do
        cmake --build "$BUILD" --target help 2>/dev/null | grep -q "^$t:" && targets+=("$t")
    done
    step "building ${targets[*]} with $JOBS jobs"
    if timeout 300 cmake --build "$BUILD" -j "$JOBS" --target "${targets[@]}" >"$OUT/build.log" 2>&1
    then check "build" PASS "${targets[*]}"
    else tail -30 "$OUT/build.log"; check "build" FAIL "see build.log"; finish 1; fi
fi
[ -x "$CLI" ] || { check "build" FAIL "no $CLI"; finish 1; }

# --- 1b. unit tests that need the GPU (they skip themselves without one) ---------------
step "GPU unit tests: kernels_cuda_*, cupti_*, capture_* from $BUILD/tests"
ut_pass=0; ut_fail=()
while IFS= read -r t; do
    if timeout 120 "$t" --gtest_brief=1 >"$OUT/$(basename "$t").log" 2>&1; then
        ut_pass=$((ut_pass + 1))
    else
        ut_fail+=("$(basename "$t")"); tail -25 "$OUT/$(basename "$t").log"
    fi
done < <(find "$BUILD/tests" -type f -executable \( -name 'kernels_cuda_*' \
    -o -name 'cupti_*_test' -o -name 'capture_*_test' \) 2>/dev/null | sort)
if [ ${#ut_fail[@]} -eq 0 ]; then check "GPU unit tests" PASS "$ut_pass executables"
else check "GPU unit tests" FAIL "${ut_fail[*]}"; fi

# --- 2. the cuda backend --------------------------------------------------------------
step "decode run, cuda backend: tokenscope-cli run --backend cuda ${SHAPE[*]}"
rm -f "$OUT/cuda.tokenscope"
timeout 180 "$CLI" run --backend cuda "${SHAPE[@]}" --out "$OUT/cuda.tokenscope" \
    --progress none --quiet 2>"$OUT/cuda.err"
rc=$?
cat "$OUT/cuda.err"
if [ $rc -eq 3 ]; then
    check "GPU and driver" FAIL "no GPU: $(head -1 "$OUT/cuda.err")"
    echo "no NVIDIA GPU or driver here: nothing else can be checked"
    finish 3
fi
[ $rc -eq 0 ] || { check "cuda run" FAIL "exit $rc"; finish 1; }
check "cuda run" PASS "exit 0"

step "checking the run: info/stats --json"
"$CLI" info "$OUT/cuda.tokenscope" --json >"$OUT/cuda.info.json"
"$CLI" stats "$OUT/cuda.tokenscope" --json >"$OUT/cuda.stats.json"
"$CLI" breakdown "$OUT/cuda.tokenscope" --json >"$OUT/cuda.breakdown.json" ||
    check "breakdown --json" FAIL "exit $?"
steps=$(json "$OUT/cuda.info.json" "d['runs'][0]['steps']")
kernels=$(json "$OUT/cuda.info.json" "d['runs'][0]['activities'].get('kernel', 0)")
[ "$steps" -eq 128 ] && check "steps = 64 tokens x 2" PASS "$steps" ||
    check "steps = 64 tokens x 2" FAIL "$steps"
dropped=$(json "$OUT/cuda.info.json" \
    "sum(x['value'] for x in d['runs'][0]['diagnostics'] if x['name']=='cupti_dropped_records')")
python3 -c "import sys; sys.exit(0 if float(sys.argv[1]) == 0 else 1)" "$dropped" &&
    check "no dropped CUPTI records" PASS "$dropped" || check "no dropped CUPTI records" FAIL "$dropped"
for m in ttft itl; do
    v=$(json "$OUT/cuda.stats.json" "d['runs'][0]['metrics']['$m']['min']")
    p50=$(json "$OUT/cuda.stats.json" "d['runs'][0]['metrics']['$m']['p50']")
    python3 -c "import sys; sys.exit(0 if float(sys.argv[1]) > 0 else 1)" "$v" &&
        check "$m positive" PASS "min ${v} ns, p50 ${p50} ns" || check "$m positive" FAIL "min $v"
done
tpot_traced=$(json "$OUT/cuda.stats.json" "d['runs'][0]['metrics']['tpot']['p50']")

step "kernels per iteration against the spec (the model backend's plan of the same shape)"
"$CLI" run --backend model "${SHAPE[@]}" --out "$OUT/model.tokenscope" --progress none --quiet
"$CLI" export "$OUT/cuda.tokenscope" --chrome "$OUT/cuda.json" --progress none >/dev/null
"$CLI" export "$OUT/model.tokenscope" --chrome "$OUT/model.json" --progress none >/dev/null
kernels_per_step "$OUT/cuda.json" "$OUT/model.json" >"$OUT/kernels_per_step.txt" 2>&1
rc=$?
cat "$OUT/kernels_per_step.txt"
fig=$(tail -1 "$OUT/kernels_per_step.txt")
[ $rc -eq 0 ] && check "kernels per iteration = spec" PASS "$fig" ||
    check "kernels per iteration = spec" FAIL "$fig"
grep -q "^every step has kernels" "$OUT/kernels_per_step.txt" &&
    check "every step has kernels" PASS "$kernels kernels" ||
    check "every step has kernels" FAIL "see kernels_per_step.txt"

# --- 2b. the cuda backend with --cuda-graphs (issue 16) -----------------------------------
# Each decode iteration is one cudaGraphLaunch: the same kernels per iteration as the
# plan, every decode kernel on the correlation id of its iteration's graph launch.
graph_links() {  # graph_links CHROME.json: prints the figures, exit 1 on a broken link
    python3 - "$1" <<'PY'
import json, sys
d = json.load(open(sys.argv[1]))
ev = [e for e in d["traceEvents"] if e.get("ph") == "X"]
calls = {e["args"]["correlation"]: e for e in ev if e.get("args", {}).get("kind") == "api"
         and e["name"].startswith("cudaGraphLaunch") and "correlation" in e.get("args", {})}
kernels = [e for e in ev if e.get("cat") == "kernel"]
linked = [k for k in kernels if k.get("args", {}).get("correlation") in calls]
noded = [k for k in linked if "graph node id" in k.get("args", {})]
per = {}
for k in linked: per[k["args"]["correlation"]] = per.get(k["args"]["correlation"], 0) + 1
sizes = sorted(set(per.values()))
print(f"graph launches {len(calls)}, kernels linked to one {len(linked)} of {len(kernels)}, "
      f"with a graph node {len(noded)}, kernels per launch {sizes}")
bad = [c for c in calls if c not in per]
ok = calls and not bad and len(noded) == len(linked) and len(sizes) == 1
sys.exit(0 if ok else 1)
PY
}
if out_of_time; then check "cuda-graphs run" SKIP "out of time"
else
    step "decode run as CUDA graphs: tokenscope-cli run --backend cuda --cuda-graphs ${SHAPE[*]}"
    rm -f "$OUT/graphs.tokenscope"
    timeout 180 "$CLI" run --backend cuda --cuda-graphs "${SHAPE[@]}" \
        --out "$OUT/graphs.tokenscope" --progress none --quiet 2>"$OUT/graphs.err"
    rc=$?
    cat "$OUT/graphs.err"
    if [ $rc -eq 0 ]; then
        check "cuda-graphs run" PASS "exit 0"
        "$CLI" info "$OUT/graphs.tokenscope" --json >"$OUT/graphs.info.json"
        gl=$(json "$OUT/graphs.info.json" \
            "sum(x['value'] for x in d['runs'][0]['diagnostics'] if x['name']=='cuda_graph_launches')")
        gs=$(json "$OUT/graphs.info.json" "d['runs'][0]['steps']")
        [ "$gs" -eq 128 ] && check "cuda-graphs: steps = 128" PASS "$gs; $gl graph launches" ||
            check "cuda-graphs: steps = 128" FAIL "$gs"
        "$CLI" export "$OUT/graphs.tokenscope" --chrome "$OUT/graphs.json" --progress none >/dev/null
        kernels_per_step "$OUT/graphs.json" "$OUT/model.json" >"$OUT/graphs_per_step.txt" 2>&1
        rc=$?
        cat "$OUT/graphs_per_step.txt"
        fig=$(tail -1 "$OUT/graphs_per_step.txt")
        [ $rc -eq 0 ] && check "cuda-graphs: kernels = spec" PASS "$fig" ||
            check "cuda-graphs: kernels = spec" FAIL "$fig"
        graph_links "$OUT/graphs.json" >"$OUT/graph_links.txt" 2>&1
        rc=$?
        cat "$OUT/graph_links.txt"
        [ $rc -eq 0 ] && check "cuda-graphs: kernels linked" PASS "$(tail -1 "$OUT/graph_links.txt")" ||
            check "cuda-graphs: kernels linked" FAIL "$(tail -1 "$OUT/graph_links.txt")"
        "$CLI" breakdown "$OUT/graphs.tokenscope" --json >"$OUT/graphs.breakdown.json" &&
            check "cuda-graphs: verdict" INFO "$(json "$OUT/graphs.breakdown.json" \
                "d['runs'][0]['verdict']['primary']")" ||
            check "cuda-graphs: verdict" FAIL "breakdown exit $?"
    else
        check "cuda-graphs run" FAIL "exit $rc"
    fi
fi

# --- 3. greedy tokens against the CPU reference -------------------------------------
GPU_CHECK="$BUILD/kernels/cuda/tokenscope-gpu-check"
if out_of_time; then check "tokens = CPU reference" SKIP "out of time"
elif [ -x "$GPU_CHECK" ]; then
    step "greedy tokens against the CPU reference: tokenscope-gpu-check --model tiny"
    timeout 120 "$GPU_CHECK" --model tiny --batch 2 --tokens 64 | tee "$OUT/gpu_check.txt"
    rc=${PIPESTATUS[0]}
    fig=$(grep -E "^max \|logit" "$OUT/gpu_check.txt" | head -1)
    [ "$rc" -eq 0 ] && check "tokens = CPU reference" PASS "$fig" ||
        check "tokens = CPU reference" FAIL "exit $rc $fig"
else
    echo "SKIP: token check not available (no tokenscope-gpu-check in this build)"
    check "tokens = CPU reference" SKIP "token check not available"
fi
if [ -x "$GPU_CHECK" ] && ! out_of_time; then
    step "greedy tokens as CUDA graphs: tokenscope-gpu-check --model tiny --cuda-graphs"
    timeout 120 "$GPU_CHECK" --model tiny --batch 2 --tokens 64 --cuda-graphs |
        tee "$OUT/gpu_check_graphs.txt"
    rc=${PIPESTATUS[0]}
    fig=$(grep -E "^graph launches" "$OUT/gpu_check_graphs.txt" | head -1)
    [ "$rc" -eq 0 ] && check "cuda-graphs tokens = CPU ref" PASS "$fig" ||
        check "cuda-graphs tokens = CPU ref" FAIL "exit $rc $fig"
else
    check "cuda-graphs tokens = CPU ref" SKIP "no tokenscope-gpu-check or out of time"
fi

# --- 4. injection into a CUDA program ----------------------------------------------
VA="$OUT/vector_add"
if out_of_time; then check "inject capture" SKIP "out of time"
else
    step "building tests/gpu/vector_add.cu with nvcc"
    if nvcc -O2 -gencode arch=compute_90,code=sm_90 -gencode arch=compute_80,code=sm_80 \
        -o "$VA" "$ROOT/tests/gpu/vector_add.cu" -ldl; then
        step "tracing it: tokenscope-cli capture --steps-from-nvtx '^step' -- vector_add"
        rm -f "$OUT/inject.tokenscope"
        timeout 120 "$CLI" capture --steps-from-nvtx '^step' --out "$OUT/inject.tokenscope" -- "$VA"
        rc=$?
        [ $rc -eq 0 ] && check "inject capture" PASS "exit 0" || check "inject capture" FAIL "exit $rc"
        if [ -f "$OUT/inject.tokenscope" ]; then
            "$CLI" info "$OUT/inject.tokenscope" --json >"$OUT/inject.info.json"
            r="d['runs'][-1]"
            ik=$(json "$OUT/inject.info.json" "$r['activities'].get('kernel', 0)")
            im=$(json "$OUT/inject.info.json" "$r['activities'].get('memcpy', 0)")
            is=$(json "$OUT/inject.info.json" "$r['steps']")
            ic=$(json "$OUT/inject.info.json" "$r['complete'] and $r['source'] == 'inject'")
            [ "$ik" -eq 80 ] && check "inject: 80 kernels" PASS "$ik" || check "inject: 80 kernels" FAIL "$ik"
            [ "$im" -eq 30 ] && check "inject: 30 memcpys" PASS "$im" || check "inject: 30 memcpys" FAIL "$im"
            [ "$is" -eq 10 ] && check "inject: 10 NVTX steps" PASS "$is" || check "inject: 10 NVTX steps" FAIL "$is"
            [ "$ic" = True ] && check "inject: complete inject run" PASS "" ||
                check "inject: complete inject run" FAIL "$ic"
        fi
        step "injection overhead on vector_add (200 steps, traced vs untraced)"
        un=$("$VA" 200 | sed -n 's/.*median_step_ns=//p')
        tr=$(timeout 120 "$CLI" capture --out "$OUT/inject_overhead.tokenscope" -- "$VA" 200 |
            sed -n 's/.*median_step_ns=//p')
        if [ -n "$un" ] && [ -n "$tr" ]; then
            ratio=$(python3 -c "print(f'{$tr/$un:.3f}')")
            check "inject step-time ratio" INFO "traced/untraced = $ratio ($tr / $un ns)"
        else check "inject step-time ratio" FAIL "no timing"; fi
    else
        check "inject capture" FAIL "nvcc failed"
    fi
fi

# --- 5. tracing overhead on decode TPOT -----------------------------------------------
# tokenscope-gpu-overhead alternates untraced (CudaDecodeRunner alone) and traced (the
# cuda backend into a file) runs of the same decode and prints the median TPOT ratio.
OVERHEAD="$BUILD/profiler/capture/cupti/tokenscope-gpu-overhead"
if [ -x "$OVERHEAD" ] && ! out_of_time; then
    # llama-1b, not tiny: tiny's kernels last a few microseconds each, so CUPTI's fixed
    # cost per record reads as 2-4% there; a real model's kernels dwarf it.
    step "decode TPOT overhead: tokenscope-gpu-overhead --model llama-1b --tokens 64 --batch 8 --repeats 3"
    timeout 240 "$OVERHEAD" --model llama-1b --tokens 64 --batch 8 --repeats 3 \
        --out "$OUT/overhead.tokenscope" >"$OUT/overhead.txt" 2>&1
    rc=$?
    cat "$OUT/overhead.txt"
    ratio=$(awk '/^tpot_overhead_ratio/ {print $2}' "$OUT/overhead.txt")
    if [ $rc -eq 0 ] && [ -n "$ratio" ]; then
        if python3 -c "import sys; sys.exit(0 if $ratio <= 1.03 else 1)"; then
            check "decode TPOT overhead <= 1.03" PASS "traced/untraced = $ratio"
        else
            check "decode TPOT overhead <= 1.03" FAIL "traced/untraced = $ratio"
        fi
    else
        check "decode TPOT overhead <= 1.03" FAIL "status $rc (see overhead.txt)"
    fi
else
    check "decode TPOT overhead <= 1.03" SKIP "no tokenscope-gpu-overhead or out of time; traced p50 ${tpot_traced} ns"
fi

if [ $failed -ne 0 ]; then finish 1; fi
finish 0
