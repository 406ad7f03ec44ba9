#!/usr/bin/env bash
# gemv_n adding its splits up in its own launch (the last work-group to arrive) against
# gemv_reduce's second launch: on a lent GPU, from the project root, with the tree before the
# change unpacked in $1 (git archive 94dfaf0 | tar -x -C DIR). Builds the tree (new), the tree with
# GEMV_FINISH_MAX_ADDS unbounded (all: every split of gemv_n finished in its launch) and the base (94dfaf0);
# runs the sgemv, batched and plan tests on the new build, then the shapes preset's SGEMVs of each
# build in turn twice (cuBLAS and CLBlast beside). Results under
# $OUT/gemv-finish.
source .device/env.sh
set -uo pipefail
base=$1
o=$OUT/gemv-finish; mkdir -p $o
t0=$(date +%s); stamp() { echo "[$(($(date +%s) - t0)) s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv > $o/gpu.txt
{ cmake -S . -B /tmp/bn -DCMAKE_BUILD_TYPE=Release && cmake --build /tmp/bn -j16; } > $o/build-new.log 2>&1 || { tail -30 $o/build-new.log; exit 1; }
sed -i 's/^#define GEMV_FINISH_MAX_ADDS .*/#define GEMV_FINISH_MAX_ADDS 1000000/' src/plan/plan.c
{ cmake -S . -B /tmp/ba -DCMAKE_BUILD_TYPE=Release -DOCLBLAS_BUILD_TUNER=OFF -DOCLBLAS_BUILD_CBLAS=OFF -DOCLBLAS_BUILD_TESTS=OFF && cmake --build /tmp/ba -j16 --target oclblas-bench; } > $o/build-all.log 2>&1 || { tail -30 $o/build-all.log; exit 1; }
[ -x /tmp/bb/bench/oclblas-bench ] || { cmake -S $base -B /tmp/bb -DCMAKE_BUILD_TYPE=Release -DOCLBLAS_BUILD_TUNER=OFF -DOCLBLAS_BUILD_CBLAS=OFF -DOCLBLAS_BUILD_TESTS=OFF && cmake --build /tmp/bb -j16 --target oclblas-bench; } > $o/build-base.log 2>&1 || { tail -30 $o/build-base.log; exit 1; }
stamp built
ctest --test-dir /tmp/bn -R 'sgemv|batched|plan' --output-on-failure --timeout 300 > $o/ctest.txt 2>&1; stamp "ctest $?"
for run in 1 2; do
  for t in base new all; do
    b=/tmp/b${t:0:1}
    $b/bench/oclblas-bench --preset shapes --routine gemv --peers cublas,clblast --min-time 0.05 --quiet \
      --csv $o/gemv-$t-$run.csv > /dev/null 2>&1; stamp "gemv $t $run: $?"
  done
done
for t in new all; do
  OCLBLAS_VERBOSE=1 /tmp/b${t:0:1}/bench/oclblas-bench --preset shapes --routine gemv --peers none --min-time 0.001 --quiet 2>&1 |
    grep "^oclblas: sgemv" | sort -u > $o/plans-$t.txt
done
stamp done
tar czf $OUT/gemv-finish.tgz -C $OUT gemv-finish && rm -rf $o
