#!/usr/bin/env bash
# gemm_cpu against gemm_fast on a CPU: the shapes and batched presets against OpenBLAS, main
# before gemm_cpu (af119e1, built by: git archive af119e1 | tar -x -C /tmp/cpubase-src; cmake -S
# /tmp/cpubase-src -B /tmp/cpubase -DCMAKE_BUILD_TYPE=Release -DOCLBLAS_BUILD_TUNER=OFF
# -DOCLBLAS_BUILD_TESTS=OFF; cmake --build /tmp/cpubase --target oclblas-bench) and this tree
# (./run.sh build), in turn, runs FIRST to LAST, from the project root:
#   bench/results/pocl-cpu/gemm-cpu/run.sh LABEL FIRST LAST   (LABEL: pocl or intel; intel sets
#   OCL_ICD_VENDORS to Intel's CPU runtime, .ci/intel-opencl.sh)
set -uo pipefail
# BASE (the before tree's build, default /tmp/cpubase) and HERE (the results folder, default this
# one) let a later comparison run the same steps (../gemm-cpu-in-place, ../gemm-cpu-transposed).
label=$1 first=$2 last=$3
base=${BASE:-/tmp/cpubase}
here=${HERE:-bench/results/pocl-cpu/gemm-cpu}
[ "$label" = intel ] && export OCL_ICD_VENDORS=$(.ci/intel-opencl.sh 2>/dev/null | tail -1)
export OPENBLAS_NUM_THREADS=2
for run in $(seq "$first" "$last"); do
  for t in base new; do
    b=$([ $t = base ] && echo "$base" || echo build)/bench/oclblas-bench
    for preset in shapes batched; do
      $b --preset $preset --routine gemm --peers openblas --math strict --quiet \
        --csv $here/$label-$preset-$t-$run.csv > /dev/null 2>&1
      echo "$label $preset $t $run: exit $?" >> $here/log.txt
    done
  done
done
