#!/usr/bin/env python3
"""Merge oclblas-bench CSV files of repeated runs: each library's best rate per problem.

usage: best-of.py OUT.csv RUN1.csv RUN2.csv ...
       best-of.py --compare BEFORE.csv AFTER.csv [--peer openblas]

On a machine shared with other work (our 2-core CI machine), one run's rates
vary by tens of percent; the best of a few runs is what the code can do. The
merged file has the columns of the inputs, each row the run where that
library was fastest on that problem, its ratio column recomputed against
oclblas's best. --compare prints, per problem, oclblas's rate before and
after and each against the peer's best (by default OpenBLAS).
"""
import csv
import sys


def key(row):
    # batch: absent from files written before oclblas-bench had --batch
    return tuple(row.get(c) or "1" if c == "batch" else row[c]
                 for c in ("routine", "layout", "trans_a", "trans_b", "m", "n", "k", "batch"))


def read(paths):
    best, order, fields = {}, [], None
    for path in paths:
        with open(path, newline="") as f:
            r = csv.DictReader(f)
            fields = fields or r.fieldnames
            for row in r:
                if not row["rate"]:
                    continue
                k = (key(row), row["library"])
                if k not in best:
                    order.append(k)
                if k not in best or float(row["rate"]) > float(best[k]["rate"]):
                    best[k] = row
    return best, order, fields


def merge(out, paths):
    best, order, fields = read(paths)
    with open(out, "w", newline="") as f:
        w = csv.DictWriter(f, fieldnames=fields)
        w.writeheader()
        for k in order:
            row = dict(best[k])
            mine = best.get((k[0], "oclblas"))
            if mine and float(row["rate"]) > 0:
                row["ratio_oclblas_to_lib"] = "%.4f" % (float(mine["rate"]) / float(row["rate"]))
            w.writerow(row)


def compare(before, after, peer):
    b, order, _ = read([before])
    a, _, _ = read([after])
    print("%-34s %10s %10s %10s %8s %8s" % ("problem", "before", "after", peer, "b/peer", "a/peer"))
    for k, lib in order:
        if lib != "oclblas":
            continue
        r = b[(k, lib)]
        unit = "GF/s" if r["unit"] == "GFLOPS" else "GB/s"
        name = "%s %s %s%s %sx%s%s" % (k[0], k[1], k[2], k[3] if k[3] != "-" else "", k[4], k[5],
                                       "x" + k[6] if k[0] == "sgemm" else "")
        before_rate = float(r["rate"])
        after_rate = float(a[(k, lib)]["rate"]) if (k, lib) in a else float("nan")
        p = [float(x[(k, peer)]["rate"]) for x in (a, b) if (k, peer) in x]
        peer_rate = max(p) if p else float("nan")
        print("%-34s %10.1f %10.1f %10.1f %8.2f %8.2f  %s" % (name, before_rate, after_rate, peer_rate,
                                                         before_rate / peer_rate, after_rate / peer_rate, unit))


def main(argv):
    if len(argv) >= 3 and argv[0] == "--compare":
        peer = argv[argv.index("--peer") + 1] if "--peer" in argv else "openblas"
        compare(argv[1], argv[2], peer)
        return 0
    if len(argv) < 2 or argv[0].startswith("--"):
        print(__doc__, file=sys.stderr)
        return 2
    merge(argv[0], argv[1:])
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv[1:]))
