#!/usr/bin/env bash
# Before and after a change that must not change speed: builds the library
# and oclblas-bench from two source trees and times the same problems with
# each, alternating (old, new, old, new), so that the spread of two runs of
# one build is there to compare the difference against.
#   bench/compare-builds.sh OLD_SRC NEW_SRC OUT
# OLD_SRC is a source tree of the earlier commit (git archive COMMIT | tar -x -C DIR);
# results go to OUT/{old,new}-{1,2}-*.csv and OUT/compare.txt.
# On the lent NVIDIA machines: source .device/env.sh first (the OpenCL ICD, CLBlast and
# OpenBLAS staged there).
set -uo pipefail
old=$1 new=$2 out=$3
mkdir -p "$out"
for which in old new; do
  src=$old
  [ "$which" = new ] && src=$new
  { cmake -S "$src" -B "$out/build-$which" -DCMAKE_BUILD_TYPE=Release -DOCLBLAS_BUILD_TESTS=OFF \
      -DOCLBLAS_BUILD_TUNER=OFF -DOCLBLAS_BUILD_CBLAS=OFF &&
    cmake --build "$out/build-$which" -j"$(nproc)" --target oclblas-bench; } > "$out/build-$which.log" 2>&1 ||
    { tail -20 "$out/build-$which.log"; exit 1; }
done
# The problems of issue 11's "speed unchanged": square SGEMM, the users'
# shapes, SGEMV 8192 both ways; row-major, oclblas alone (no peers).
run() { # build-dir tag
  local b="$out/build-$1/bench/oclblas-bench"
  "$b" --routine gemm --sizes 1024,2048,4096 --layout row --peers none --quiet --csv "$out/$2-square.csv" &&
    "$b" --preset users --layout row --peers none --quiet --csv "$out/$2-users.csv" &&
    "$b" --routine gemv --sizes 8192 --trans NN,TN --layout row --peers none --quiet --csv "$out/$2-gemv.csv"
}
for round in 1 2; do
  run old "old-$round" > "$out/old-$round.txt" 2>&1
  run new "new-$round" > "$out/new-$round.txt" 2>&1
done
python3 - "$out" > "$out/compare.txt" <<'EOF'
import csv, glob, os, sys
out = sys.argv[1]
def rates(tag):
    r = {}
    for f in sorted(glob.glob(os.path.join(out, tag + "-*.csv"))):
        for row in csv.DictReader(open(f)):
            if row.get("library") == "oclblas" and row.get("rate"):
                # sgemv rows have no trans_b or k (empty or a placeholder, by bench version)
                gemm = row["routine"] == "sgemm"
                key = "{} {} {}{} {}x{}{}".format(row["routine"], row["layout"], row["trans_a"],
                                                  row["trans_b"] if gemm else "", row["m"], row["n"],
                                                  "x" + row["k"] if gemm else "")
                r[key] = float(row["rate"])
    return r
o1, o2, n1, n2 = (rates(t) for t in ("old-1", "old-2", "new-1", "new-2"))
print(f"{'problem':40} {'old 1':>10} {'old 2':>10} {'new 1':>10} {'new 2':>10} {'new/old':>8} {'old spread':>10}")
for p in o1:
    if p in o2 and p in n1 and p in n2:
        old, new = max(o1[p], o2[p]), max(n1[p], n2[p])
        spread = abs(o1[p] - o2[p]) / old
        print(f"{p:40} {o1[p]:10.1f} {o2[p]:10.1f} {n1[p]:10.1f} {n2[p]:10.1f} {new / old:8.3f} {spread:10.3f}")
EOF
cat "$out/compare.txt"
