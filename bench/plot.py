#!/usr/bin/env python3
"""Plot oclblas-bench CSV results: rate against size, one line per library.

usage: plot.py RESULTS.csv OUT.png [--title TEXT]
       plot.py --check      exit 0 when matplotlib can be imported

Square problems only (m = n = k for sgemm, m = n for sgemv); one panel per
routine and operation (layout and transposes), GFLOPS for sgemm, GB/s for
sgemv. Rows without a rate (an empty cell) are left out; CSV files of older
versions, with "-" and 0 where nothing was measured, are read too. Needs
matplotlib (Debian: python3-matplotlib; pip: matplotlib). oclblas-bench runs
it with python3 from PATH, or with $OCLBLAS_BENCH_PYTHON.
"""
import csv
import sys
from collections import defaultdict


def import_pyplot():
    """matplotlib.pyplot on a file-only backend, or None after saying which
    interpreter lacks it."""
    try:
        import matplotlib
        matplotlib.use("Agg")
        import matplotlib.pyplot as plt
        return plt
    except ImportError as e:
        print("plot.py: the Python interpreter %s (Python %d.%d) cannot import matplotlib (%s): install it "
              "(Debian: apt-get install python3-matplotlib; pip install matplotlib), or set OCLBLAS_BENCH_PYTHON "
              "to an interpreter that has it" % (sys.executable, sys.version_info[0], sys.version_info[1], e),
              file=sys.stderr)
        return None


def main(argv):
    if argv[1:] == ["--check"]:
        return 0 if import_pyplot() else 1
    if len(argv) < 3:
        print(__doc__.strip(), file=sys.stderr)
        return 2
    src, out = argv[1], argv[2]
    title = argv[argv.index("--title") + 1] if "--title" in argv else None
    plt = import_pyplot()
    if plt is None:
        return 1
    # panel -> library -> [(size, rate)]
    panels = defaultdict(lambda: defaultdict(list))
    units = {}
    devices = set()
    with open(src, newline="") as f:
        for row in csv.DictReader(f):
            gemm = row["routine"] == "sgemm"
            m, n = int(row["m"]), int(row["n"])
            if m != n or (gemm and int(row["k"]) != m) or not row["rate"]:
                continue
            op = row["trans_a"] + (row["trans_b"] if gemm else "")
            batch = row.get("batch") or "1"  # absent before oclblas-bench had --batch
            key = (row["routine"], row["layout"], op + ("" if batch == "1" else ", batches of " + batch))
            panels[key][row["library"]].append((m, float(row["rate"])))
            units[key] = row["unit"]
            if row["library"] not in ("openblas",):
                devices.add(row["device"])
    if not panels:
        print("plot.py: no square problems in " + src, file=sys.stderr)
        return 1
    keys = sorted(panels)
    fig, axes = plt.subplots(1, len(keys), figsize=(5.5 * len(keys), 4.2), squeeze=False)
    for ax, key in zip(axes[0], keys):
        for lib in sorted(panels[key]):
            pts = sorted(panels[key][lib])
            ax.plot([p[0] for p in pts], [p[1] for p in pts], marker="o", label=lib)
        ax.set_xscale("log", base=2)
        ax.set_xlabel("size (m = n" + (" = k)" if key[0] == "sgemm" else ")"))
        ax.set_ylabel(units[key])
        ax.set_title("%s %s-major %s" % key)
        ax.grid(True, which="both", alpha=0.3)
        ax.legend()
    fig.suptitle(title or ("oclblas-bench: " + ", ".join(sorted(devices))))
    fig.tight_layout()
    fig.savefig(out, dpi=110)
    print("wrote " + out)
    return 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
