#!/usr/bin/env bash
# GPU check of gemm_cpu's commit (8efd30d + 70993c5's tree before its test change, as it ran): the
# new tree's GPU tests, and the shapes preset of both trees, strict, main before gemm_cpu (af119e1)
# unpacked by git archive af119e1 | tar -x -C build-s15base and carried to the machine. From the
# project root after ../shared/gpu/stage.sh: bench/results/nvidia-h200/gemm-cpu-check/run.sh
source .device/env.sh
set -uo pipefail
o=$OUT/gpu-check; mkdir -p $o
m=bench/results/shapes-model.sh
OUT=$o bash $m build new . build base build-s15base > /dev/null 2>&1
ctest --test-dir /tmp/new --output-on-failure -j4 --timeout 300 \
  -R '^(test_plan|test_sgemm|test_sgemv|test_batched|test_batched_copies|test_gemm_tc|test_lifetime|test_cache|test_threads)$' > $o/ctest.txt 2>&1
echo "ctest exit $?" >> $o/log.txt
for t in base new; do
  /tmp/$t/bench/oclblas-bench --preset shapes --layout row --peers cublas --math strict --min-time 0.05 --quiet --csv $o/$t-strict.csv > /dev/null 2>&1
  echo "preset $t: $?" >> $o/log.txt
done
OCLBLAS_VERBOSE=1 /tmp/new/bench/oclblas-bench --routine gemm --sizes 1024 --layout col --peers none --reps 2 --quiet 2>&1 | grep "^oclblas: sgemm" | sort -u > $o/plans.txt
tar czf $OUT/gpu-check.tgz -C $OUT gpu-check
