#!/usr/bin/env bash
# Two gemv_t sets that led sets-t.sh at 3000^2 and 3001 x 2999, against the entry's plans, on
# SGEMVs from 1000 to 4096 (column-major T; row-major N runs the same plan), three times in turn,
# cuBLAS beside once: on a lent GPU from the project root; one line a shape and set into
# $OUT/gemv-vt/vt.txt (run, shape, set, us).
source .device/env.sh
set -uo pipefail
o=$OUT/gemv-vt; mkdir -p $o
{ cmake -S . -B /tmp/bs -DCMAKE_BUILD_TYPE=Release -DOCLBLAS_BUILD_TUNER=OFF -DOCLBLAS_BUILD_CBLAS=OFF -DOCLBLAS_BUILD_TESTS=OFF && cmake --build /tmp/bs -j16 --target oclblas-bench; } > $o/build.log 2>&1 || { tail -30 $o/build.log; exit 1; }
B=/tmp/bs/bench/oclblas-bench
S=1000x1000,1024x1024,2000x2000,2048x2048,2500x2500,3000x3000,3001x2999,3500x3500,4000x4000,4096x4096
for run in 1 2 3; do
  for p in - WGS=64,TPC=32,VW=2,UNR=8 WGS=128,TPC=64,VW=1,UNR=2; do
    args=(); [ $p != - ] && args=(--override "gemv_t:$p")
    $B --shapes $S --routine gemv --layout col --trans TN --peers $([ $run = 1 ] && [ $p = - ] && echo cublas || echo none) \
      --min-time 0.05 --quiet "${args[@]}" --csv $o/f.csv > /dev/null 2>&1 || echo "fail $run $p" >> $o/fail.txt
    awk -F, -v r=$run -v p=$([ $p = - ] && echo entry || echo $p) 'NR>1{print r, $5 "x" $6, ($10 == "cublas" ? "cublas" : p), $11 * 1000}' $o/f.csv >> $o/vt.txt
  done
done
rm -f $o/f.csv
tar czf $OUT/gemv-vt.tgz -C $OUT gemv-vt && rm -rf $o
