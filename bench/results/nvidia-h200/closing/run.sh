#!/usr/bin/env bash
# The closing GPU run: the merged main's GPU tests, the shapes preset in both modes, the plans,
# the batched preset, and the host path before (b9e61a5, .base) and after.
source .device/env.sh
top=$OUT; o=$OUT/f; mkdir -p $o; export OUT=$o
(cmake -S . -B /tmp/final -DCMAKE_BUILD_TYPE=Release && cmake --build /tmp/final -j16) > $o/build.log 2>&1 || { tail -30 $o/build.log; exit 1; }
ctest --test-dir /tmp/final --timeout 400 -j4 -R '^(test_gemm_tc|test_settings|test_alloc_faults|test_batched|test_batched_copies|test_batched_chunks|cblas_batch|test_sgemm|test_sgemv|test_plan|test_model|test_host|test_args|test_extents|test_mathmode|test_threads)$' > $o/ctest.txt 2>&1; echo "ctest rc $?"; grep -E "tests passed|Failed|\*\*\*" $o/ctest.txt | head
mkdir -p /tmp/new; rm -rf /tmp/new; ln -s /tmp/final /tmp/new
bash bench/results/shapes-model.sh compare new plans new > /dev/null 2>&1; tail -12 $o/log.txt
for m in accurate strict; do /tmp/final/bench/oclblas-bench --preset batched --math $m --peers cublas,clblast --min-time 0.05 --quiet --csv $o/batched-$m.csv > $o/batched-$m.txt 2>&1; echo "batched $m $?"; done
(cmake -S .base -B /tmp/before -DCMAKE_BUILD_TYPE=Release -DOCLBLAS_BUILD_TUNER=OFF && cmake --build /tmp/before -j16 --target oclblas-bench) > $o/build-before.log 2>&1 || tail -5 $o/build-before.log
for t in before final; do /tmp/$t/bench/oclblas-bench --host --layout row --peers none --sizes 512,1024,2048,4096,8192 --min-time 0.1 --quiet --csv $o/host-$t.csv > $o/host-$t.txt 2>&1; echo "host $t $?"; done
cd $o && tar czf /tmp/final.tgz . && cd / && rm -rf $o && mv /tmp/final.tgz $top/ && ls -la $top
