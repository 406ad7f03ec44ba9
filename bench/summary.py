#!/usr/bin/env python3
"""The summary lines the results' READMEs quote, from oclblas-bench CSV files.

usage: summary.py [--peer NAME] [--below X] [--routine NAME] [--before BASE.csv [--changed F]] RUN.csv ...

For each file: the peer's time over oclblas's (kernel time, device_ms, else
wall_ms) on every problem both measured, as a geometric mean, its smallest
and largest, and how many problems fall below X (default 1.0). The peer is
cublas when a file has it, else clblast, else openblas, unless --peer names
one; --routine keeps sgemm or sgemv alone. With --before, the peer is
oclblas in BASE.csv (its time over this file's: a speedup), and --changed F
lists each problem whose time changed by more than the fraction F.
"""
import csv
import math
import sys


def times(path, routine):
    out = {}
    with open(path, newline="") as f:
        for row in csv.DictReader(f):
            if routine and row["routine"] != routine:
                continue
            key = tuple(row.get(c) or "" for c in ("routine", "layout", "trans_a", "trans_b", "m", "n", "k", "batch"))
            t = row["device_ms"] or row["wall_ms"]
            if t:
                out.setdefault(key, {})[row["library"]] = float(t)
    return out


def main(argv):
    peer, below, routine, before, changed, paths = None, 1.0, None, None, None, []
    i = 0
    while i < len(argv):
        if argv[i] in ("--peer", "--below", "--routine", "--before", "--changed") and i + 1 < len(argv):
            if argv[i] == "--peer":
                peer = argv[i + 1]
            elif argv[i] == "--below":
                below = float(argv[i + 1])
            elif argv[i] == "--before":
                before = argv[i + 1]
            elif argv[i] == "--changed":
                changed = float(argv[i + 1])
            else:
                routine = argv[i + 1]
            i += 2
        elif argv[i].startswith("-"):
            print(__doc__, file=sys.stderr)
            return 2
        else:
            paths.append(argv[i])
            i += 1
    if not paths:
        print(__doc__, file=sys.stderr)
        return 2
    base = times(before, routine) if before else None
    for path in paths:
        t = times(path, routine)
        if base is not None:  # the base file's oclblas as the peer
            p = "oclblas before"
            t = {key: {p: base[key]["oclblas"], "oclblas": v["oclblas"]}
                 for key, v in t.items() if "oclblas" in v and "oclblas" in base.get(key, {})}
        else:
            libs = {lib for v in t.values() for lib in v}
            p = peer or next((l for l in ("cublas", "clblast", "openblas") if l in libs), None)
        ratios = [v[p] / v["oclblas"] for v in t.values() if p in v and "oclblas" in v]
        if not ratios:
            print("%s: no problem with both oclblas and %s" % (path, p))
            continue
        gm = math.exp(sum(math.log(r) for r in ratios) / len(ratios))
        print("%s: %s / oclblas over %d problems: geomean %.3f, %.2f to %.2f, below %g: %d"
              % (path, p, len(ratios), gm, min(ratios), max(ratios), below, sum(r < below for r in ratios)))
        if changed is not None:
            for key, v in sorted(t.items()):
                if p in v and "oclblas" in v and abs(v[p] / v["oclblas"] - 1) > changed:
                    print("  %s %s %s%s %sx%sx%s%s: %.1f -> %.1f us, x%.2f"
                          % (key[0], key[1], key[2], key[3], key[4], key[5], key[6],
                             " batch " + key[7] if key[7] not in ("", "1") else "",
                             v[p] * 1e3, v["oclblas"] * 1e3, v[p] / v["oclblas"]))
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
