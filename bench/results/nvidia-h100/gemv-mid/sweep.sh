#!/usr/bin/env bash
# gemv_n's team and split of the columns forced per call (OCLBLAS_X_TEAM, OCLBLAS_X_SPLITS:
# the experiment's patch sweep.patch, applied to the tree first: git apply bench/results/nvidia-h100/gemv-mid/sweep.patch),
# column-major N, twice; each forced plan's line into plans.txt. On a lent GPU from the project root.
source .device/env.sh
set -uo pipefail
o=$OUT/sw; mkdir -p $o
nvidia-smi --query-gpu=name,driver_version --format=csv > $o/gpu.txt
{ cmake -S . -B /tmp/b -DCMAKE_BUILD_TYPE=Release -DOCLBLAS_BUILD_TUNER=OFF -DOCLBLAS_BUILD_CBLAS=OFF -DOCLBLAS_BUILD_TESTS=OFF && cmake --build /tmp/b -j16 --target oclblas-bench; } > $o/build.log 2>&1 || { tail -30 $o/build.log; exit 1; }
B=/tmp/b/bench/oclblas-bench
one() { # shape team splits tag
  local env=(env)
  [ "$2" != a ] && env+=(OCLBLAS_X_TEAM=$2)
  [ "$3" != a ] && env+=(OCLBLAS_X_SPLITS=$3)
  "${env[@]}" $B --shapes $1 --routine gemv --layout col --trans NN --peers ${4:-none} --min-time 0.05 --quiet --csv $o/r-$1-$2-$3.csv > /dev/null 2>&1 || echo "fail $1 $2 $3" >> $o/fail.txt
  "${env[@]}" OCLBLAS_VERBOSE=1 $B --shapes $1 --routine gemv --layout col --trans NN --peers none --min-time 0.001 --quiet 2>&1 | grep "^oclblas: sgemv" | sort -u | sed "s/^/$2 $3 /" >> $o/plans.txt
}
for rep in 1 2; do
for s in 4096x4096 8192x8192 3001x2999 16384x16384; do
  one $s a a cublas
  for t in 8 16 32 64; do for sp in 1 2 3 4 6; do one $s $t $sp; done; done
done
one 65536x256 a a cublas
for t in 1 2 4 8; do for sp in 1 2 4; do one 65536x256 $t $sp; done; done
one 256x65536 a a cublas
for t in 8 16 32 64 128 256; do for sp in 8 16 32 64; do one 256x65536 $t $sp; done; done
mkdir -p $o/rep$rep; mv $o/r-*.csv $o/rep$rep/
done
