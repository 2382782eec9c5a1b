#!/usr/bin/env python3
"""Figures of one decode run of the cuda backend (issue 29), from the CLI's exports.

Reads `export --chrome`, `breakdown --json --steps`, `stats --json` and `info --json`
of the same run and prints: TPOT and TTFT (P50 over requests), the ITL floor (mean
roofline floor of the decode steps) and TPOT / floor, the achieved bandwidth of the
decode projections and LM head (GEMV) and of the decode attention (bytes of the plan
over kernel time, library helper kernels "entry/..." included), the prefill's TFLOP/s
over its iteration and over its GEMMs, and the share of decode time the GPU was busy.
Writes them as JSON with --json-out and prints one line per figure; the last line is
`figures LABEL|...` for run.sh's summary. Works on a model-backend run as well (its
kernels carry the plan's names), which is how it is tested without a GPU.
"""
import argparse
import bisect
import json
import re
import sys

ITERATION = re.compile(r"^(prefill|decode( step \d+)?|speculative decode)$")
GEMV = {"qkv_proj", "o_proj", "mlp_gate_up", "mlp_down", "lm_head"}


def load(path):
    with open(path) as f:
        return json.load(f)


def base(name):
    """Plan entry of a kernel: helpers are named entry/kernel."""
    return name.split("/", 1)[0]


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("--chrome", required=True)
    p.add_argument("--breakdown", required=True, help="breakdown --json --steps")
    p.add_argument("--stats", required=True)
    p.add_argument("--info", required=True)
    p.add_argument("--label", default="run")
    p.add_argument("--json-out")
    a = p.parse_args()

    trace = load(a.chrome)
    events = [e for e in (trace["traceEvents"] if isinstance(trace, dict) else trace)
              if e.get("ph") == "X"]
    iters = sorted((e for e in events if e.get("cat") == "user_annotation"
                    and ITERATION.match(e.get("name", ""))), key=lambda e: e["ts"])
    starts = [e["ts"] for e in iters]
    kernels = [e for e in events if e.get("cat") == "kernel"]

    def phase_of(k):
        i = bisect.bisect_right(starts, k["ts"]) - 1
        if i < 0 or k["ts"] > iters[i]["ts"] + iters[i]["dur"]:
            return None
        return "prefill" if iters[i]["name"] == "prefill" else "decode"

    def totals(pred):
        ns = byt = flops = n = 0
        for k in kernels:
            if pred(k):
                ns += k["dur"] * 1e3
                byt += k.get("args", {}).get("bytes", 0)
                flops += k.get("args", {}).get("flops", 0)
                n += 1
        return ns, byt, flops, n

    info = load(a.info)["runs"][0]
    gpu = info.get("gpu", {})
    peak_bw = gpu.get("peak_bandwidth_bytes_per_s") or 0
    peak_flops = gpu.get("peak_flops") or 0
    metrics = load(a.stats)["runs"][0]["metrics"]
    rows = load(a.breakdown)["runs"][0].get("step_rows", [])
    floors = [r["floor_ns"] for r in rows if r["phase"] == "decode" and r["floor_ns"] > 0]

    f = {"label": a.label, "gpu": gpu.get("name", "?")}
    f["tpot_us"] = metrics["tpot"]["p50"] / 1e3 if metrics["tpot"]["count"] else None
    f["ttft_us"] = metrics["ttft"]["p50"] / 1e3 if metrics["ttft"]["count"] else None
    f["itl_floor_us"] = sum(floors) / len(floors) / 1e3 if floors else None
    f["tpot_over_floor"] = (f["tpot_us"] / f["itl_floor_us"]
                            if f["tpot_us"] and f["itl_floor_us"] else None)

    decode = [e for e in iters if e["name"] != "prefill"]
    decode_ns = sum(e["dur"] for e in decode) * 1e3
    for key, names in (("gemv", GEMV), ("attention", {"attention"})):
        ns, byt, _, n = totals(lambda k, names=names: phase_of(k) == "decode"
                               and base(k["name"]) in names)
        f[key + "_kernels"] = n
        f[key + "_tb_per_s"] = byt / ns / 1e3 if ns else None
        f[key + "_of_peak"] = byt / ns * 1e9 / peak_bw if ns and peak_bw else None
    busy, _, _, n = totals(lambda k: phase_of(k) == "decode")
    f["decode_kernels_per_iteration"] = n / len(decode) if decode else None
    f["decode_gpu_busy"] = busy / decode_ns if decode_ns else None
    f["helper_kernels"] = sum(1 for k in kernels if "/" in k["name"])

    prefill = [e for e in iters if e["name"] == "prefill"]
    if prefill:
        p_ns = sum(e["dur"] for e in prefill) * 1e3
        _, _, p_flops, _ = totals(lambda k: phase_of(k) == "prefill")
        g_ns, _, g_flops, _ = totals(lambda k: phase_of(k) == "prefill"
                                     and base(k["name"]) in GEMV)
        f["prefill_tflops"] = p_flops / p_ns / 1e3 if p_ns else None
        f["prefill_gemm_tflops"] = g_flops / g_ns / 1e3 if g_ns else None
        f["prefill_of_peak"] = p_flops / p_ns * 1e9 / peak_flops if p_ns and peak_flops else None
    else:
        f["prefill_tflops"] = f["prefill_gemm_tflops"] = f["prefill_of_peak"] = None

    def fmt(v, spec):
        return "-" if v is None else format(v, spec)

    print(f"{a.label} on {f['gpu']}:")
    print(f"  TPOT p50            {fmt(f['tpot_us'], '.1f')} us")
    print(f"  ITL floor (mean)    {fmt(f['itl_floor_us'], '.1f')} us")
    print(f"  TPOT / floor        {fmt(f['tpot_over_floor'], '.3f')}")
    print(f"  GEMV bandwidth      {fmt(f['gemv_tb_per_s'], '.3f')} TB/s "
          f"({fmt(f['gemv_of_peak'] and 100 * f['gemv_of_peak'], '.1f')} % of peak)")
    print(f"  attention bandwidth {fmt(f['attention_tb_per_s'], '.3f')} TB/s "
          f"({fmt(f['attention_of_peak'] and 100 * f['attention_of_peak'], '.1f')} % of peak)")
    print(f"  decode GPU busy     {fmt(f['decode_gpu_busy'] and 100 * f['decode_gpu_busy'], '.1f')}"
          f" %, {fmt(f['decode_kernels_per_iteration'], '.1f')} kernels per iteration, "
          f"{f['helper_kernels']} library helper kernels in the run")
    print(f"  prefill             {fmt(f['prefill_tflops'], '.1f')} TFLOP/s over the iteration "
          f"({fmt(f['prefill_of_peak'] and 100 * f['prefill_of_peak'], '.1f')} % of peak), "
          f"GEMMs {fmt(f['prefill_gemm_tflops'], '.1f')} TFLOP/s")
    print(f"  TTFT p50            {fmt(f['ttft_us'] and f['ttft_us'] / 1e3, '.2f')} ms")
    if a.json_out:
        with open(a.json_out, "w") as out:
            json.dump(f, out, indent=1)
    print("figures " + "|".join([
        a.label, fmt(f["tpot_us"], ".1f"), fmt(f["itl_floor_us"], ".1f"),
        fmt(f["tpot_over_floor"], ".2f"), fmt(f["gemv_tb_per_s"], ".2f"),
        fmt(f["attention_tb_per_s"], ".2f"), fmt(f["prefill_tflops"], ".0f"),
        fmt(f["ttft_us"] and f["ttft_us"] / 1e3, ".1f")]))
    return 0 if f["tpot_us"] else 1


if __name__ == "__main__":
    sys.exit(main())
