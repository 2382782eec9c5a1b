#!/usr/bin/env python3
"""Kernel count and total kernel time per name in two runs of the same program (issue 29).

A and B are Chrome trace exports (`tokenscope-cli export --chrome`) of the same
decode traced two ways: nsys (its SQLite export imported with our importer) and our
own CUPTI tracer (`tokenscope-cli capture`). Names are compared by their short form
(no return type, template arguments or parameters) since the two demanglers space
templated names differently. Passes (exit 0) when the kernel counts per name are
equal and the total kernel time of every name holding at least --min-share of the
GPU time, and of all kernels together, agree within --tolerance (relative).
Prints the largest differences; the last line is `compare ...` for run.sh's summary.
"""
import argparse
import json
import sys

ANON = "(anonymous namespace)"


def short_name(name):
    """The same rule as trace::qualified_kernel_name (profiler/trace/kernel_signature.cpp)."""
    end, depth, i = len(name), 0, 0
    while i < len(name):
        c = name[i]
        if c == "<":
            depth += 1
        elif c == ">" and depth > 0:
            depth -= 1
        elif c == "(" and depth == 0:
            if name.startswith(ANON, i):
                i += len(ANON)
                continue
            end = i
            break
        i += 1
    plain, depth = [], 0
    for c in name[:end]:
        if c == "<":
            depth += 1
        if depth == 0:
            plain.append(c)
        if c == ">" and depth > 0:
            depth -= 1
    plain = "".join(plain)
    start, i = 0, 0
    while i < len(plain):
        if plain.startswith(ANON, i):
            i += len(ANON)
            continue
        if plain[i] == " ":
            start = i + 1
        i += 1
    return plain[start:] or name


def per_name(path):
    with open(path) as f:
        d = json.load(f)
    out = {}
    for e in d["traceEvents"] if isinstance(d, dict) else d:
        if e.get("ph") == "X" and e.get("cat") == "kernel":
            n, t = out.get(short_name(e["name"]), (0, 0.0))
            out[short_name(e["name"])] = (n + 1, t + e["dur"] * 1e3)
    return out


def main():
    p = argparse.ArgumentParser(description=__doc__)
    p.add_argument("a")
    p.add_argument("b")
    p.add_argument("--label-a", default="A")
    p.add_argument("--label-b", default="B")
    p.add_argument("--tolerance", type=float, default=0.01)
    p.add_argument("--min-share", type=float, default=0.01)
    p.add_argument("--top", type=int, default=12)
    args = p.parse_args()
    a, b = per_name(args.a), per_name(args.b)
    total_a = sum(t for _, t in a.values())
    total_b = sum(t for _, t in b.values())
    count_a = sum(n for n, _ in a.values())
    count_b = sum(n for n, _ in b.values())
    rows, bad = [], []
    for name in sorted(set(a) | set(b), key=lambda k: -max(a.get(k, (0, 0))[1],
                                                           b.get(k, (0, 0))[1])):
        na, ta = a.get(name, (0, 0.0))
        nb, tb = b.get(name, (0, 0.0))
        rel = (tb - ta) / ta if ta else float("inf")
        big = max(ta, tb) >= args.min_share * max(total_a, total_b, 1)
        wrong = na != nb or (big and abs(rel) > args.tolerance)
        rows.append((name, na, nb, ta, tb, rel, wrong))
        if wrong:
            bad.append(name)
    print(f"{'kernel (short name)':58} {args.label_a:>7} {args.label_b:>7} "
          f"{args.label_a + ' ms':>10} {args.label_b + ' ms':>10} {'delta':>8}")
    for name, na, nb, ta, tb, rel, wrong in rows[:args.top] + [r for r in rows[args.top:] if r[6]]:
        print(f"{name[:58]:58} {na:7d} {nb:7d} {ta / 1e6:10.3f} {tb / 1e6:10.3f} "
              f"{100 * rel:7.2f}%{'  <-' if wrong else ''}")
    total_rel = (total_b - total_a) / total_a if total_a else float("inf")
    print(f"all kernels: {count_a} vs {count_b}, {total_a / 1e6:.3f} vs {total_b / 1e6:.3f} ms "
          f"({100 * total_rel:+.2f}%), {len(a)} vs {len(b)} names")
    ok = count_a == count_b and abs(total_rel) <= args.tolerance and not bad and count_a > 0
    print(f"compare {'PASS' if ok else 'FAIL'}: {count_a} kernels, {len(a)} names, total time "
          f"{100 * total_rel:+.2f}%, names off: {len(bad)}"
          + (f" ({', '.join(bad[:3])})" if bad else ""))
    return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
