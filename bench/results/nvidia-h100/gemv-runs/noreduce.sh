#!/usr/bin/env bash
# What gemv_reduce costs a split gemv_n: the library with noreduce.patch applied (an experiment:
# OCLBLAS_X_NOREDUCE=1 leaves the reduction out, the result wrong) built on a lent GPU, column-major
# N at 4096^2 and 8192^2 with and without it, GEMV_GROUPS_PER_CU 2 and 4, three times, cuBLAS once.
source .device/env.sh
set -uo pipefail
o=$OUT/noreduce; mkdir -p $o
git apply bench/results/nvidia-h100/gemv-runs/noreduce.patch || exit 1
{ cmake -S . -B /tmp/bx -DCMAKE_BUILD_TYPE=Release -DOCLBLAS_BUILD_TUNER=OFF -DOCLBLAS_BUILD_CBLAS=OFF -DOCLBLAS_BUILD_TESTS=OFF && cmake --build /tmp/bx -j16 --target oclblas-bench; } > $o/build.log 2>&1 || { tail -30 $o/build.log; exit 1; }
git apply -R bench/results/nvidia-h100/gemv-runs/noreduce.patch
B=/tmp/bx/bench/oclblas-bench
S=4096x4096,8192x8192,2048x2048
$B --shapes $S --routine gemv --layout col --trans NN --peers cublas --min-time 0.05 --quiet --csv $o/cublas.csv > /dev/null 2>&1
for run in 1 2 3; do for g in 2 4 8; do for x in 0 1; do
  env $([ $x = 1 ] && echo OCLBLAS_X_NOREDUCE=1) $B --shapes $S --routine gemv --layout col --trans NN --peers none --min-time 0.05 \
    --quiet --override "routine:GEMV_GROUPS_PER_CU=$g" --csv $o/f.csv > /dev/null 2>&1
  awk -F, -v r=$run -v p="gpc=$g noreduce=$x" 'NR>1{print r, $5 "x" $6, p, $11 * 1000}' $o/f.csv >> $o/times.txt
done; done; done
rm -f $o/f.csv
