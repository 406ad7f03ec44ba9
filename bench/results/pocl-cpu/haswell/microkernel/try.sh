#!/usr/bin/env bash
# One gemm_fast set forced on 1024^3 SGEMM (strict mode, column-major NT, which
# gemm_fast reads in place, and row-major NN), oclblas-bench alone; prints the
# GFLOPS of each. From the project root after ./run.sh build:
#   bash bench/results/pocl-cpu/haswell/microkernel/try.sh LABEL PARAMS
set -u
out=${OUT_DIR:-/tmp/microkernel}
mkdir -p "$out"
export OPENBLAS_NUM_THREADS=2
lab=$1 p=$2
for lt in "col NT" "row NN"; do
  set -- $lt
  build/bench/oclblas-bench --routine gemm --shapes 1024x1024x1024 --layout "$1" --trans "$2" --peers none \
    --math strict --quiet --min-time 0.5 --override "gemm_fast:$p" --csv "$out/$lab-$1.csv" > /dev/null 2>&1
  printf "%s %s%s=%s " "$lab" "$1" "$2" "$(awk -F, 'NR==2{print $13}' "$out/$lab-$1.csv")"
done
echo "  $p"
