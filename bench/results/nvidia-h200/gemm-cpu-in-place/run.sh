#!/usr/bin/env bash
# GPU check of gemm_cpu reading operands as stored and of oclblas_cache_fill building every program
# of a set: the new tree's GPU tests (test_cache fills the cache with gemm_tc's forms for the math
# modes), a fill's status and files, and the shapes preset of
# both trees, strict, main before (3363116) unpacked by git archive 3363116 | tar -x -C
# build-s16base and carried to the machine. From the project root after ../shared/gpu/stage.sh:
#   bench/results/nvidia-h200/gemm-cpu-in-place/run.sh
source .device/env.sh
set -uo pipefail
o=$OUT/gpu-check; mkdir -p $o
m=bench/results/shapes-model.sh
OUT=$o bash $m build new . build base build-s16base > /dev/null 2>&1
ctest --test-dir /tmp/new --output-on-failure -j4 --timeout 600 \
  -R '^(test_plan|test_sgemm|test_sgemv|test_batched|test_batched_copies|test_gemm_tc|test_lifetime|test_cache|test_threads|cblas_batch|test_mathmode)$' > $o/ctest.txt 2>&1
echo "ctest exit $?" >> $o/log.txt
( export OCLBLAS_CACHE_DIR=/tmp/fill-cache; rm -rf /tmp/fill-cache
  python3 -c "
import ctypes; l=ctypes.CDLL('/tmp/new/liboclblas.so')
d=ctypes.c_void_p(); c=ctypes.c_void_p(); q=ctypes.c_void_p()
assert l.oclblas_default_device(ctypes.byref(d), ctypes.byref(c), ctypes.byref(q)) == 0
print('fill status', l.oclblas_cache_fill(d))"
  echo "fill: $(ls /tmp/fill-cache | wc -l) files" ) >> $o/log.txt 2>&1
for t in base new; do
  /tmp/$t/bench/oclblas-bench --preset shapes --layout row --peers cublas --math strict --min-time 0.05 --quiet --csv $o/$t-strict.csv > /dev/null 2>&1
  echo "preset $t: $?" >> $o/log.txt
done
tar czf $OUT/gpu-check.tgz -C $OUT gpu-check
