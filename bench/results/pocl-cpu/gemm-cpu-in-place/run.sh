#!/usr/bin/env bash
# gemm_cpu reading operands as stored against gemm_cpu on packed panels: the shapes and batched
# presets against OpenBLAS, main before (3363116, built by: git archive 3363116 | tar -x -C
# /tmp/cpubase2-src; cmake -S /tmp/cpubase2-src -B /tmp/cpubase2 -DCMAKE_BUILD_TYPE=Release
# -DOCLBLAS_BUILD_TUNER=OFF -DOCLBLAS_BUILD_TESTS=OFF; cmake --build /tmp/cpubase2 --target
# oclblas-bench) and this tree (./run.sh build), in turn, runs FIRST to LAST, from the project root:
#   bench/results/pocl-cpu/gemm-cpu-in-place/run.sh LABEL FIRST LAST   (LABEL: pocl or intel;
#   intel sets OCL_ICD_VENDORS to Intel's CPU runtime, .ci/intel-opencl.sh)
exec env BASE=/tmp/cpubase2 HERE=bench/results/pocl-cpu/gemm-cpu-in-place bash bench/results/pocl-cpu/gemm-cpu/run.sh "$@"
