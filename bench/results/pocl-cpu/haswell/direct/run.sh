#!/usr/bin/env bash
# gemm_direct's sets on PoCL's haswell target: the problems the direct kernel
# serves here (single products below GEMM_MIN_INDIRECT = 64, and batches of
# them), with a set forced (`-`: the entry's), OpenBLAS beside it. From the
# project root after ./run.sh build, on an idle machine:
#   bash bench/results/pocl-cpu/haswell/direct/run.sh LABEL PARAMS|-   -> $OUT_DIR/LABEL-*.csv
set -u
out=${OUT_DIR:-bench/results/pocl-cpu/haswell/direct}
export OPENBLAS_NUM_THREADS=2
lab=$1 p=$2
ov=()
[ "$p" != - ] && ov=(--override "gemm_direct:$p")
common=(--routine gemm --layout col --trans NN,TT --peers openblas --math strict --quiet --min-time 0.2)
build/bench/oclblas-bench "${common[@]}" --shapes 16x16x16,32x32x32,48x48x48,33x40x50 "${ov[@]}" \
  --csv "$out/$lab-single.csv" > /dev/null 2>&1
for b in "16x16x16 1000" "32x32x32 1000" "48x48x48 500"; do
  set -- $b
  build/bench/oclblas-bench "${common[@]}" --shapes "$1" --batch "$2" "${ov[@]}" \
    --csv "$out/$lab-batch-$2x$1.csv" > /dev/null 2>&1
done
