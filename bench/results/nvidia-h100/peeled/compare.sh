#!/usr/bin/env bash
# On a lent H100, from the project root: base (main before the peeled
# program, `git archive 3c38b45` unpacked in .s6-base) and new (this tree)
# built side by side. Phase 1: the GPU tests of new; for both, the shapes
# preset (both modes, twice). Phase 2 (on the same warm machine, or after
# building again): a list of ragged shapes (both modes), the batched preset
# (both modes), new's plans. Writes $OUT/compare-PHASE.tgz
# (bench/results/shapes-model.sh's steps and file names).
#   bench/results/nvidia-h100/peeled/compare.sh 1|2
source .device/env.sh
dest=$OUT
export OUT=$dest/compare-$1
mkdir -p "$OUT"
m=bench/results/shapes-model.sh
# Phase 1 builds both; phase 2 only where phase 1 did not run on this machine.
[ "$1" = 2 ] && [ -x /tmp/new/bench/oclblas-bench ] && [ -x /tmp/base/bench/oclblas-bench ] ||
  bash $m build new . build base .s6-base > /dev/null 2>&1
ragged=500x500x500,1000x1000x1000,1500x1500x1500,2000x2000x2000,3000x3000x3000,1000x1000x4000,4000x1000x1000,1000x4000x1000,2000x2000x500
if [ "$1" = 1 ]; then
  ctest --test-dir /tmp/new --timeout 300 -j4 -R '^(test_gemm_tc|test_sgemm|test_sgemv|test_batched|test_batched_copies|test_batched_chunks|test_plan|test_model|test_host_plan|test_threads)$' \
    > "$OUT/ctest.txt" 2>&1
  echo "GPU tests of new: exit $?" >> "$OUT/log.txt"
  for run in 1 2; do
    bash $m compare base compare new > /dev/null 2>&1
    for f in base-default base-strict new-default new-strict; do mv "$OUT/$f.csv" "$OUT/$f-$run.csv"; done
  done
else
  for mode in accurate strict; do
    for t in base new; do
      /tmp/$t/bench/oclblas-bench --routine gemm --shapes $ragged --layout row --trans NN,NT,TN,TT --math $mode \
        --peers cublas,clblast --min-time 0.05 --quiet --csv "$OUT/ragged-$t-$mode.csv" > /dev/null 2>&1
      echo "ragged $t $mode: exit $?" >> "$OUT/log.txt"
    done
  done
  bash $m plans new > /dev/null 2>&1
  for t in base new; do
    for mode in accurate strict; do
      /tmp/$t/bench/oclblas-bench --preset batched --math $mode --peers cublas --min-time 0.05 --quiet \
        --csv "$OUT/batched-$t-$mode.csv" > /dev/null 2>&1
      echo "batched $t $mode: exit $?" >> "$OUT/log.txt"
    done
  done
  for mode in accurate strict; do
    echo "== $mode" >> "$OUT/ragged-plans.txt"
    OCLBLAS_VERBOSE=1 OCLBLAS_MATH_MODE=$mode /tmp/new/bench/oclblas-bench --routine gemm --shapes $ragged --layout row \
      --trans NN,NT,TN,TT --peers none --min-time 0.001 --quiet 2>&1 | grep "^oclblas: sgemm" | sort -u >> "$OUT/ragged-plans.txt"
  done
fi
cat "$OUT/log.txt"
cd "$dest" && tar czf compare-$1.tgz compare-$1 && rm -rf compare-$1
