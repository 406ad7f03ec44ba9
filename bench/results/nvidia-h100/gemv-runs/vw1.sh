#!/usr/bin/env bash
# gemv_n's VW 1 sets against the entry's (VW 2) on SGEMVs from 1000 to 8192, aligned and odd
# (column-major N; row-major T runs the same plan), three times in turn, cuBLAS beside: on a
# lent GPU from the project root; one line a shape and set into $OUT/gemv-vw1/vw1.txt
# (run, shape, set, us), the first run's plans into plans.txt.
source .device/env.sh
set -uo pipefail
o=$OUT/gemv-vw1; mkdir -p $o
{ cmake -S . -B /tmp/bs -DCMAKE_BUILD_TYPE=Release -DOCLBLAS_BUILD_TUNER=OFF -DOCLBLAS_BUILD_CBLAS=OFF -DOCLBLAS_BUILD_TESTS=OFF && cmake --build /tmp/bs -j16 --target oclblas-bench; } > $o/build.log 2>&1 || { tail -30 $o/build.log; exit 1; }
B=/tmp/bs/bench/oclblas-bench
S=1000x1000,1024x1024,2000x2000,2048x2048,3001x2999,3000x3000,4000x4000,4096x4096,5000x5000,6000x6000,8192x8192
sets=("-" "WGS=256,WPT=1,VW=1,UNR=16,STRM=1 4" "WGS=256,WPT=1,VW=1,UNR=16,STRM=1 2" "WGS=256,WPT=2,VW=2,UNR=8,STRM=1 2")
for run in 1 2 3; do
  for s in "${sets[@]}"; do
    args=(); p=entry
    if [ "$s" != - ]; then p="${s% *},gpc=${s#* }"; args=(--override "gemv_n:${s% *}" --override "routine:GEMV_GROUPS_PER_CU=${s#* }"); fi
    $B --shapes $S --routine gemv --layout col --trans NN --peers $([ $run = 1 ] && [ "$s" = - ] && echo cublas || echo none) \
      --min-time 0.05 --quiet "${args[@]}" --csv $o/f.csv > /dev/null 2>&1 || echo "fail $run $p" >> $o/fail.txt
    awk -F, -v r=$run -v p="$p" 'NR>1{print r, $5 "x" $6, ($10 == "cublas" ? "cublas" : p), $11 * 1000}' $o/f.csv >> $o/vw1.txt
    [ $run = 1 ] && OCLBLAS_VERBOSE=1 $B --shapes $S --routine gemv --layout col --trans NN --peers none --min-time 0.001 \
      --quiet "${args[@]}" 2>&1 | grep "^oclblas: sgemv" | sort -u | sed "s/^/$p /" >> $o/plans.txt
  done
done
rm -f $o/f.csv
tar czf $OUT/gemv-vw1.tgz -C $OUT gemv-vw1 && rm -rf $o
