#!/usr/bin/env bash
# gemv_n's sets forced (column-major N, the library as it is): work-group size, vectors of rows
# per work-item, vector width, unroll, and the routine's GEMV_GROUPS_PER_CU, at 4096^2, 8192^2 and
# 3001 x 2999, RUNS times (default 2). On a lent GPU from the project root; one line a set and
# shape into $OUT/gemv-sets/sets.txt (run, shape, set, us), the plan of each into plans.txt.
# The grid: WGS, WPT, VW, UNR and GEMV_GROUPS_PER_CU values as the environment gives them (the
# defaults: the grid of the first run).
source .device/env.sh
set -uo pipefail
o=$OUT/gemv-sets; mkdir -p $o
{ cmake -S . -B /tmp/bs -DCMAKE_BUILD_TYPE=Release -DOCLBLAS_BUILD_TUNER=OFF -DOCLBLAS_BUILD_CBLAS=OFF -DOCLBLAS_BUILD_TESTS=OFF && cmake --build /tmp/bs -j16 --target oclblas-bench; } > $o/build.log 2>&1 || { tail -30 $o/build.log; exit 1; }
B=/tmp/bs/bench/oclblas-bench
S=4096x4096,8192x8192,3001x2999
$B --shapes $S --routine gemv --layout col --trans NN --peers cublas --min-time 0.05 --quiet --csv $o/entry.csv > /dev/null 2>&1
for run in $(seq ${RUNS:-2}); do
for wgs in ${WGS:-128 256}; do for wpt in ${WPT:-1 2 4}; do for vw in ${VW:-2 4}; do for unr in ${UNR:-4 8}; do for g in ${GPC:-2 4}; do
  p="WGS=$wgs,WPT=$wpt,VW=$vw,UNR=$unr,STRM=1"
  $B --shapes $S --routine gemv --layout col --trans NN --peers none --min-time 0.05 --quiet \
    --override "gemv_n:$p" --override "routine:GEMV_GROUPS_PER_CU=$g" --csv $o/f.csv > /dev/null 2>&1 || echo "fail $p $g" >> $o/fail.txt
  awk -F, -v r=$run -v p="$p,gpc=$g" 'NR>1{print r, $5 "x" $6, p, $11 * 1000}' $o/f.csv >> $o/sets.txt
  [ $run = 1 ] && OCLBLAS_VERBOSE=1 $B --shapes $S --routine gemv --layout col --trans NN --peers none --min-time 0.001 --quiet \
    --override "gemv_n:$p" --override "routine:GEMV_GROUPS_PER_CU=$g" 2>&1 | grep "^oclblas: sgemv" | sort -u | sed "s/^/$p,gpc=$g /" >> $o/plans.txt
done; done; done; done; done
done
rm -f $o/f.csv
tar czf $OUT/gemv-sets.tgz -C $OUT gemv-sets && rm -rf $o
