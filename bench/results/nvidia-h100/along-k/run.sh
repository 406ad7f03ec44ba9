#!/bin/bash
# One machine: build base (d8ed65b, `git archive d8ed65b` unpacked in .s3-base) and new (this
# tree); the new tree's GPU tests; for both, the shapes preset and the batched preset in both
# modes, SGEMV shapes, gemm_tc at 4096^3 and 8192^3 in the accurate and tf32 modes; the new
# tree's plans. Writes under $OUT/r, then $OUT/r.tgz.
source .device/env.sh
o=$OUT/r; mkdir -p $o; export OUT=$o
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > $o/gpu.txt
(cmake -S . -B /tmp/new -DCMAKE_BUILD_TYPE=Release && cmake --build /tmp/new -j16) > $o/build.log 2>&1 || { tail -30 $o/build.log; exit 1; }
bash bench/results/shapes-model.sh build base .s3-base > /dev/null 2>&1 || { tail -20 $o/log.txt; exit 1; }
echo "built at $SECONDS s"
ctest --test-dir /tmp/new --timeout 300 -j4 -R '^(test_gemm_tc|test_sgemm|test_sgemv|test_batched|test_batched_copies|test_batched_chunks|cblas_batch|test_plan|test_model|test_host|test_args|test_extents|test_mathmode|test_threads|test_settings)$' > $o/ctest.txt 2>&1; echo "ctest rc $? at $SECONDS s"; grep -E "tests passed|Failed|\*\*\*" $o/ctest.txt | head
bash bench/results/shapes-model.sh compare base compare new > /dev/null 2>&1; echo "compared at $SECONDS s"
for t in base new; do for m in accurate strict; do
  /tmp/$t/bench/oclblas-bench --preset batched --math $m --peers cublas,clblast --min-time 0.05 --quiet --csv $o/batched-$t-$m.csv > /dev/null 2>&1; echo "batched $t $m $? at $SECONDS s"
done
  for m in accurate tf32; do
    /tmp/$t/bench/oclblas-bench --sizes 4096,8192 --math $m --routine gemm --peers cublas --min-time 0.1 --quiet --csv $o/tc-$t-$m.csv > /dev/null 2>&1; echo "tc $t $m $?"
  done
  /tmp/$t/bench/oclblas-bench --routine gemv --shapes 65536x256,256x65536,3001x2999,4096x4096,8192x8192 --layout both --trans NN,TN --peers cublas,clblast --min-time 0.05 --quiet --csv $o/gemv-$t.csv > /dev/null 2>&1; echo "gemv $t $?"
done
bash bench/results/shapes-model.sh plans new > /dev/null 2>&1
OCLBLAS_VERBOSE=1 /tmp/new/bench/oclblas-bench --preset batched --peers none --reps 2 --quiet > /dev/null 2> /tmp/pb.txt; grep "^oclblas: batch" /tmp/pb.txt | sort -u > $o/plans-batched.txt
echo "done at $SECONDS s"
cd $OUT && tar czf ../r.tgz . && cd .. && rm -rf r
