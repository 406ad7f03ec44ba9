#!/bin/bash
# Final run, part A: build base (d8ed65b, .s3-base) and new (this tree), GPU tests of new,
# the shapes preset in both modes for both, the plans of new.
source .device/env.sh
o=$OUT/a; mkdir -p $o; export OUT=$o
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > $o/gpu.txt
(cmake -S . -B /tmp/new -DCMAKE_BUILD_TYPE=Release && cmake --build /tmp/new -j16) > $o/build.log 2>&1 || { tail -30 $o/build.log; exit 1; }
bash bench/results/shapes-model.sh build base .s3-base > /dev/null 2>&1 || { tail -20 $o/log.txt; exit 1; }
echo "built at $SECONDS s"
ctest --test-dir /tmp/new --timeout 300 -j4 -R '^(test_gemm_tc|test_sgemm|test_sgemv|test_batched|test_batched_copies|test_batched_chunks|cblas_batch|test_plan|test_model|test_host|test_args|test_extents|test_mathmode|test_threads|test_settings)$' > $o/ctest.txt 2>&1; echo "ctest rc $? at $SECONDS s"; grep -E "tests passed|Failed|\*\*\*" $o/ctest.txt | head
bash bench/results/shapes-model.sh compare base compare new > /dev/null 2>&1; echo "compared at $SECONDS s"
cd $OUT && tar czf ../a.tgz . && cd .. && rm -rf a
