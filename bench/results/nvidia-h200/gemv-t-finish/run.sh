#!/usr/bin/env bash
# gemv_t adding its split up in its own launch on NVIDIA, against gemv_reduce's second launch: on a
# lent GPU from the project root, with main before the change (git archive 00b7dcd) unpacked in
# build-s13base. Builds both, runs the SGEMV, batched, plan and lifetime tests of the new tree,
# then column-major T on shapes that split (and two that do not, with the new tree also forced to
# split them by GEMV_T_GROUPS_PER_CU 32: "new-gpc32"), both trees in turn, three times, cuBLAS
# beside once; then the shapes preset's SGEMVs of both, twice. Writes $OUT/gemv-t-finish.tgz.
source .device/env.sh
set -uo pipefail
o=$OUT/gemv-t-finish; mkdir -p $o
t0=$(date +%s); stamp() { echo "[$(($(date +%s) - t0)) s] $*" >> $o/log.txt; }
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $o/device.txt
{ cmake -S . -B /tmp/fnew -DCMAKE_BUILD_TYPE=Release -DOCLBLAS_BUILD_TUNER=OFF -DOCLBLAS_BUILD_CBLAS=OFF && cmake --build /tmp/fnew -j16; } > $o/build-new.log 2>&1 || { tail -30 $o/build-new.log; exit 1; }
{ cmake -S build-s13base -B /tmp/fbase -DCMAKE_BUILD_TYPE=Release -DOCLBLAS_BUILD_TUNER=OFF -DOCLBLAS_BUILD_CBLAS=OFF -DOCLBLAS_BUILD_TESTS=OFF && cmake --build /tmp/fbase -j16 --target oclblas-bench; } > $o/build-base.log 2>&1 || { tail -30 $o/build-base.log; exit 1; }
stamp built
ctest --test-dir /tmp/fnew -R '^(test_sgemv|test_batched|test_plan|test_lifetime)$' -j4 --output-on-failure --timeout 300 > $o/ctest.txt 2>&1; stamp "ctest $?"
S=2048x256,4096x256,4096x625,4096x976,8192x500,8192x625,16384x256,16384x976,32768x400,65536x256,65536x625,2000x2000,4096x1220
for run in 1 2 3; do
  for t in base new new-gpc32; do
    b=/tmp/f${t%-gpc32}/bench/oclblas-bench; args=(); [ $t = new-gpc32 ] && args=(--override routine:GEMV_T_GROUPS_PER_CU=32)
    $b --routine gemv --shapes $S --layout col --trans TN --min-time 0.05 --quiet "${args[@]}" \
      --peers $([ $run = 1 ] && [ $t = base ] && echo cublas || echo none) --csv $o/f.csv > /dev/null 2>&1 || echo "fail $run $t" >> $o/log.txt
    awk -F, -v r=$run -v t=$t 'NR>1{print r, ($10 == "cublas" ? "cublas" : t), $5 "x" $6, $11 * 1000}' $o/f.csv >> $o/t.txt
  done
done
stamp "gemv T"
for t in base new new-gpc32; do
  b=/tmp/f${t%-gpc32}/bench/oclblas-bench; args=(); [ $t = new-gpc32 ] && args=(--override routine:GEMV_T_GROUPS_PER_CU=32)
  OCLBLAS_VERBOSE=1 $b --routine gemv --shapes $S --layout col --trans TN --peers none --min-time 0.001 --quiet "${args[@]}" 2>&1 |
    grep "^oclblas: sgemv" | sort -u > $o/plans-$t.txt
done
for run in 1 2; do
  for t in base new; do
    /tmp/f$t/bench/oclblas-bench --preset shapes --routine gemv --peers cublas --min-time 0.05 --quiet \
      --csv $o/preset-$t-$run.csv > /dev/null 2>&1; stamp "preset $t $run: $?"
  done
done
rm -f $o/f.csv
tar czf $OUT/gemv-t-finish.tgz -C $OUT gemv-t-finish && rm -rf $o
