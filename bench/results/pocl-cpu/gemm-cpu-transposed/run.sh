#!/usr/bin/env bash
# gemm_cpu computing C^T = B^T A^T where that packs less, against the call's own orientation: the
# shapes and batched presets against OpenBLAS, main before (3d5bdec, built by: git archive 3d5bdec | tar -x -C
# /tmp/cpubase3-src; cmake -S /tmp/cpubase3-src -B /tmp/cpubase3 -DCMAKE_BUILD_TYPE=Release
# -DOCLBLAS_BUILD_TUNER=OFF -DOCLBLAS_BUILD_TESTS=OFF; cmake --build /tmp/cpubase3 --target
# oclblas-bench) and this tree (./run.sh build), in turn, runs FIRST to LAST, from the project root:
#   bench/results/pocl-cpu/gemm-cpu-transposed/run.sh LABEL FIRST LAST   (LABEL: pocl or intel;
#   intel sets OCL_ICD_VENDORS to Intel's CPU runtime, .ci/intel-opencl.sh)
set -uo pipefail
label=$1 first=$2 last=$3
here=bench/results/pocl-cpu/gemm-cpu-transposed
[ "$label" = intel ] && export OCL_ICD_VENDORS=$(.ci/intel-opencl.sh 2>/dev/null | tail -1)
export OPENBLAS_NUM_THREADS=2
for run in $(seq "$first" "$last"); do
  for t in base new; do
    b=$([ $t = base ] && echo /tmp/cpubase3 || echo build)/bench/oclblas-bench
    for preset in shapes batched; do
      $b --preset $preset --routine gemm --peers openblas --math strict --quiet \
        --csv $here/$label-$preset-$t-$run.csv > /dev/null 2>&1
      echo "$label $preset $t $run: exit $?" >> $here/log.txt
    done
  done
done
