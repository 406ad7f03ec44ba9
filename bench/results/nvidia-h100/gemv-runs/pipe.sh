#!/usr/bin/env bash
# gemv_n's software-pipelined loop (STRM 1; an experiment, not landed) against the loop before it:
# on a lent GPU, from the root of a checkout of 94dfaf0 with pipe.patch applied (git apply
# bench/results/nvidia-h100/gemv-runs/pipe.patch), with 94dfaf0 unpacked in $1 (git archive 94dfaf0 | tar -x -C DIR).
# Builds both, runs gemv's tests on the new build, then the shapes preset's SGEMVs of both builds
# in turn twice (cuBLAS and CLBlast beside), and a few gemv_n sets and GEMV_GROUPS_PER_CU values
# forced at 4096^2 and 8192^2 (column-major N). Results under $OUT/gemv-pipe.
source .device/env.sh
set -uo pipefail
base=$1
o=$OUT/gemv-pipe; mkdir -p $o
t0=$(date +%s); stamp() { echo "[$(($(date +%s) - t0)) s] $*"; }
nvidia-smi --query-gpu=name,driver_version --format=csv > $o/gpu.txt
{ cmake -S . -B /tmp/bn -DCMAKE_BUILD_TYPE=Release && cmake --build /tmp/bn -j16; } > $o/build-new.log 2>&1 || { tail -30 $o/build-new.log; exit 1; }
{ cmake -S $base -B /tmp/bb -DCMAKE_BUILD_TYPE=Release -DOCLBLAS_BUILD_TUNER=OFF -DOCLBLAS_BUILD_CBLAS=OFF -DOCLBLAS_BUILD_TESTS=OFF && cmake --build /tmp/bb -j16 --target oclblas-bench; } > $o/build-base.log 2>&1 || { tail -30 $o/build-base.log; exit 1; }
stamp built
ctest --test-dir /tmp/bn -R 'sgemv|batched|plan' --output-on-failure --timeout 300 > $o/ctest.txt 2>&1; stamp "ctest $?"
for run in 1 2; do
  for t in base new; do
    b=/tmp/bn; [ $t = base ] && b=/tmp/bb
    $b/bench/oclblas-bench --preset shapes --routine gemv --peers cublas,clblast --min-time 0.05 --quiet \
      --csv $o/gemv-$t-$run.csv > /dev/null 2>&1; stamp "gemv $t $run: $?"
  done
done
OCLBLAS_VERBOSE=1 /tmp/bn/bench/oclblas-bench --preset shapes --routine gemv --peers none --min-time 0.001 --quiet 2>&1 |
  grep "^oclblas: sgemv" | sort -u > $o/plans.txt
# Forced: the entry's set with UNR 4, 8, 16 and 32; VW 4; GEMV_GROUPS_PER_CU 1, 2, 4, 8.
for run in 1 2; do
  for t in base new; do
    b=/tmp/bn; [ $t = base ] && b=/tmp/bb
    for p in UNR=4 UNR=8 UNR=16 UNR=32 "VW=4,UNR=8" "VW=4,UNR=16"; do
      $b/bench/oclblas-bench --shapes 4096x4096,8192x8192 --routine gemv --layout col --trans NN --peers none \
        --min-time 0.05 --quiet --override "gemv_n:WGS=256,WPT=1,VW=2,STRM=1,$p" --csv $o/f.csv > /dev/null 2>&1
      awk -F, -v t=$t -v r=$run -v p="$p" 'NR>1{print t, r, $5 "x" $6, p, $11 * 1000}' $o/f.csv >> $o/forced.txt
    done
    for g in 1 2 4 8; do
      $b/bench/oclblas-bench --shapes 4096x4096,8192x8192 --routine gemv --layout col --trans NN --peers none \
        --min-time 0.05 --quiet --override "routine:GEMV_GROUPS_PER_CU=$g" --csv $o/f.csv > /dev/null 2>&1
      awk -F, -v t=$t -v r=$run -v p="gpc=$g" 'NR>1{print t, r, $5 "x" $6, p, $11 * 1000}' $o/f.csv >> $o/forced.txt
    done
  done
done
rm -f $o/f.csv
stamp done
