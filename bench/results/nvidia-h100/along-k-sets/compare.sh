#!/usr/bin/env bash
# On a lent H100, from the project root: base (main before this change,
# `git archive 0c325f0` unpacked in .s4-base) and new (this tree) built side
# by side; the GPU tests of new; for both, the shapes preset (both modes,
# twice) and the batched preset (both modes); the plans of new. Writes
# $OUT/compare.tgz (bench/results/shapes-model.sh's steps and file names).
source .device/env.sh
dest=$OUT
export OUT=$dest/compare
mkdir -p "$OUT"
m=bench/results/shapes-model.sh
bash $m build new . build base .s4-base > /dev/null 2>&1
ctest --test-dir /tmp/new --timeout 300 -j4 -R '^(test_gemm_tc|test_sgemm|test_sgemv|test_batched|test_batched_copies|test_batched_chunks|test_plan|test_model|test_host_plan|test_threads)$' \
  > "$OUT/ctest.txt" 2>&1
echo "GPU tests of new: exit $?" >> "$OUT/log.txt"
for run in 1 2; do
  bash $m compare base compare new > /dev/null 2>&1
  for f in base-default base-strict new-default new-strict; do mv "$OUT/$f.csv" "$OUT/$f-$run.csv"; done
done
bash $m plans new > /dev/null 2>&1
for t in base new; do
  for mode in accurate strict; do
    /tmp/$t/bench/oclblas-bench --preset batched --math $mode --peers cublas,clblast --min-time 0.05 --quiet \
      --csv "$OUT/batched-$t-$mode.csv" > /dev/null 2>&1
    echo "batched $t $mode: exit $?" >> "$OUT/log.txt"
  done
done
cat "$OUT/log.txt"
cd "$dest" && tar czf compare.tgz compare && rm -rf compare
