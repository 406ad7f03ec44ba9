#!/bin/bash
# gemv_t with its long-column path specialised: SGEMV shapes, base and new, and the SGEMV tests.
source .device/env.sh
o=$OUT/r; mkdir -p $o; export OUT=$o
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > $o/gpu.txt
(cmake -S . -B /tmp/new -DCMAKE_BUILD_TYPE=Release && cmake --build /tmp/new -j16) > $o/build.log 2>&1 || { tail -30 $o/build.log; exit 1; }
bash bench/results/shapes-model.sh build base .s3-base > /dev/null 2>&1 || { tail -20 $o/log.txt; exit 1; }
ctest --test-dir /tmp/new --timeout 300 -j4 -R '^(test_sgemv|test_batched|test_plan)$' > $o/ctest.txt 2>&1; echo "ctest rc $?"; grep -E "tests passed|Failed|\*\*\*" $o/ctest.txt | head
for r in 1 2; do for t in base new; do
  /tmp/$t/bench/oclblas-bench --routine gemv --shapes 65536x256,256x65536,3001x2999,4096x4096,8192x8192 --layout both --trans NN,TN --peers cublas,clblast --min-time 0.05 --quiet --csv $o/gemv-$t-$r.csv > /dev/null 2>&1; echo "gemv $t $r $?"
done; done
echo "done at $SECONDS s"
cd $OUT && tar czf ../r.tgz . && cd .. && rm -rf r
