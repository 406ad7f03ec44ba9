#!/usr/bin/env bash
# The H200 entry's borrowed gemm_tc peeled factors and class tc-short-k, before (exp/before, as for
# compare.sh) and after, on problems whose plans they change: 1000^3 and 4096 x 4096 x 128 in the
# four transposes, and a batch of 256 x 128^3, row-major, cuBLAS in the same runs, twice each.
# On a lent H200: bench/results/nvidia-h100/tc-ragged/h200.sh    (writes $OUT/tc-ragged-h200/)
source .device/env.sh
set -uo pipefail
o=$OUT/tc-ragged-h200; mkdir -p $o
OUT=$o bash bench/results/shapes-model.sh build before exp/before build after . > $o/build.txt 2>&1
for run in 1 2; do
  for tree in before after; do
    /tmp/$tree/bench/oclblas-bench --routine gemm --shapes 1000x1000x1000,4096x4096x128 --trans NN,NT,TN,TT --layout row \
      --peers cublas --math accurate --min-time 0.05 --quiet --csv $o/$tree-$run.csv > $o/$tree-$run.txt 2>&1
    /tmp/$tree/bench/oclblas-bench --routine gemm --shapes 128x128x128 --batch 256 --trans NN,NT,TN,TT --layout row \
      --peers cublas --math accurate --min-time 0.05 --quiet --csv $o/$tree-batch-$run.csv > $o/$tree-batch-$run.txt 2>&1
  done
done
OCLBLAS_VERBOSE=1 /tmp/after/bench/oclblas-bench --routine gemm --shapes 1000x1000x1000,4096x4096x128 --trans NN,NT,TN,TT --layout row \
  --peers none --math accurate --reps 1 --min-time 0.001 --quiet 2>&1 | grep -E "^oclblas: sgemm" | sort -u > $o/after-plans.txt
tar czf $OUT/tc-ragged-h200.tgz -C $OUT tc-ragged-h200
