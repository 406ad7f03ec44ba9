#!/usr/bin/env bash
# gemm_cpu computing C^T = B^T A^T where that packs less, against the call's own orientation: the
# shapes and batched presets against OpenBLAS, main before (3d5bdec, built by: git archive 3d5bdec | tar -x -C
# /tmp/cpubase3-src; cmake -S /tmp/cpubase3-src -B /tmp/cpubase3 -DCMAKE_BUILD_TYPE=Release
# -DOCLBLAS_BUILD_TUNER=OFF -DOCLBLAS_BUILD_TESTS=OFF; cmake --build /tmp/cpubase3 --target
# oclblas-bench) and this tree (./run.sh build), in turn, runs FIRST to LAST, from the project root:
#   bench/results/pocl-cpu/gemm-cpu-transposed/run.sh LABEL FIRST LAST   (LABEL: pocl or intel;
#   intel sets OCL_ICD_VENDORS to Intel's CPU runtime, .ci/intel-opencl.sh)
exec env BASE=/tmp/cpubase3 HERE=bench/results/pocl-cpu/gemm-cpu-transposed bash bench/results/pocl-cpu/gemm-cpu/run.sh "$@"
