#!/usr/bin/env bash
# gemv_t's splits before (main at 9994823, unpacked in build-s12base) and after they must at least
# double the work-groups: on a lent GPU from the project root, column-major T on shapes whose plan
# the change alters on the H100 or the H200 (and 4096^2, whose plan it keeps), both trees in turn,
# three times, cuBLAS beside once (S, if set, the shapes instead). Writes $OUT/gemv-split.tgz:
# split.txt (run, tree, shape, us) and each tree's plans.
source .device/env.sh
set -uo pipefail
o=$OUT/gemv-split; mkdir -p $o
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $o/device.txt
for t in new base; do
  src=$([ $t = new ] && echo . || echo build-s12base)
  { cmake -S $src -B /tmp/g$t -DCMAKE_BUILD_TYPE=Release -DOCLBLAS_BUILD_TUNER=OFF -DOCLBLAS_BUILD_CBLAS=OFF -DOCLBLAS_BUILD_TESTS=OFF &&
    cmake --build /tmp/g$t -j16 --target oclblas-bench; } > $o/build-$t.log 2>&1 || { tail -30 $o/build-$t.log; exit 1; }
done
S=${S:-2048x1906,4096x625,4096x976,4096x1906,8192x500,8192x976,16384x256,16384x976,32768x400,65536x256,65536x500,4096x4096}
for run in 1 2 3; do
  for t in base new; do
    /tmp/g$t/bench/oclblas-bench --routine gemv --shapes $S --layout col --trans TN --min-time 0.05 --quiet \
      --peers $([ $run = 1 ] && [ $t = base ] && echo cublas || echo none) --csv $o/f.csv > /dev/null 2>&1 || echo "fail $run $t" >> $o/fail.txt
    awk -F, -v r=$run -v t=$t 'NR>1{print r, ($10 == "cublas" ? "cublas" : t), $5 "x" $6, $11 * 1000}' $o/f.csv >> $o/split.txt
  done
done
for t in base new; do
  OCLBLAS_VERBOSE=1 /tmp/g$t/bench/oclblas-bench --routine gemv --shapes $S --layout col --trans TN --peers none \
    --min-time 0.001 --quiet 2>&1 | grep "^oclblas: sgemv" | sort -u > $o/plans-$t.txt
done
rm -f $o/f.csv
tar czf $OUT/gemv-split.tgz -C $OUT gemv-split && rm -rf $o
