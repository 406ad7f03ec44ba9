#!/usr/bin/env bash
# gemm_cpu reading operands as stored against gemm_cpu on packed panels: the shapes and batched
# presets against OpenBLAS, main before (3363116, built by: git archive 3363116 | tar -x -C
# /tmp/cpubase2-src; cmake -S /tmp/cpubase2-src -B /tmp/cpubase2 -DCMAKE_BUILD_TYPE=Release
# -DOCLBLAS_BUILD_TUNER=OFF -DOCLBLAS_BUILD_TESTS=OFF; cmake --build /tmp/cpubase2 --target
# oclblas-bench) and this tree (./run.sh build), in turn, runs FIRST to LAST, from the project root:
#   bench/results/pocl-cpu/gemm-cpu-in-place/run.sh LABEL FIRST LAST   (LABEL: pocl or intel;
#   intel sets OCL_ICD_VENDORS to Intel's CPU runtime, .ci/intel-opencl.sh)
set -uo pipefail
label=$1 first=$2 last=$3
here=bench/results/pocl-cpu/gemm-cpu-in-place
[ "$label" = intel ] && export OCL_ICD_VENDORS=$(.ci/intel-opencl.sh 2>/dev/null | tail -1)
export OPENBLAS_NUM_THREADS=2
for run in $(seq "$first" "$last"); do
  for t in base new; do
    b=$([ $t = base ] && echo /tmp/cpubase2 || echo build)/bench/oclblas-bench
    for preset in shapes batched; do
      $b --preset $preset --routine gemm --peers openblas --math strict --quiet \
        --csv $here/$label-$preset-$t-$run.csv > /dev/null 2>&1
      echo "$label $preset $t $run: exit $?" >> $here/log.txt
    done
  done
done
