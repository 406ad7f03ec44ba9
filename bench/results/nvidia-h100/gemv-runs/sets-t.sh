#!/usr/bin/env bash
# gemv_t's sets forced (column-major T: each output a dot product down a column): work-group size,
# work-items per column, vector width, unroll, at 2048^2, 3000^2, 3001 x 2999 and 4096^2, once, the
# entry's plans measured first and last with cuBLAS beside. On a lent GPU from the project root;
# one line a set and shape into $OUT/gemv-sets-t/sets.txt (shape, set, us).
source .device/env.sh
set -uo pipefail
o=$OUT/gemv-sets-t; mkdir -p $o
{ cmake -S . -B /tmp/bs -DCMAKE_BUILD_TYPE=Release -DOCLBLAS_BUILD_TUNER=OFF -DOCLBLAS_BUILD_CBLAS=OFF -DOCLBLAS_BUILD_TESTS=OFF && cmake --build /tmp/bs -j16 --target oclblas-bench; } > $o/build.log 2>&1 || { tail -30 $o/build.log; exit 1; }
B=/tmp/bs/bench/oclblas-bench
S=2048x2048,3000x3000,3001x2999,4096x4096
entry() {
  $B --shapes $S --routine gemv --layout col --trans TN --peers cublas --min-time 0.05 --quiet --csv $o/f.csv > /dev/null 2>&1
  awk -F, 'NR>1{print $5 "x" $6, ($10 == "cublas" ? "cublas" : "entry"), $11 * 1000}' $o/f.csv >> $o/sets.txt
}
entry
for wgs in 64 128 256; do for tpc in 32 64 128; do for vw in 1 2 4; do for unr in 2 4 8; do
  [ $tpc -gt $wgs ] && continue
  p="WGS=$wgs,TPC=$tpc,VW=$vw,UNR=$unr"
  $B --shapes $S --routine gemv --layout col --trans TN --peers none --min-time 0.05 --quiet \
    --override "gemv_t:$p" --csv $o/f.csv > /dev/null 2>&1 || echo "fail $p" >> $o/fail.txt
  awk -F, -v p="$p" 'NR>1{print $5 "x" $6, p, $11 * 1000}' $o/f.csv >> $o/sets.txt
done; done; done; done
entry
rm -f $o/f.csv
tar czf $OUT/gemv-sets-t.tgz -C $OUT gemv-sets-t && rm -rf $o
