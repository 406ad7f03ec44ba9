#!/usr/bin/env bash
# gemv_t sets for short columns (the class gemv-short, column-major m <= 512) forced against the
# entry's plans, column-major T on five short shapes, twice in turn, cuBLAS beside once: on a lent
# GPU from the project root. One line a run, shape and set into $OUT/gemv-short/sweep.txt (run,
# shape, set, us); the entry's plans into plans.txt.
source .device/env.sh
set -uo pipefail
o=$OUT/gemv-short; mkdir -p $o
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $o/device.txt
{ cmake -S . -B /tmp/bs -DCMAKE_BUILD_TYPE=Release -DOCLBLAS_BUILD_TUNER=OFF -DOCLBLAS_BUILD_CBLAS=OFF -DOCLBLAS_BUILD_TESTS=OFF && cmake --build /tmp/bs -j16 --target oclblas-bench; } > $o/build.log 2>&1 || { tail -30 $o/build.log; exit 1; }
B=/tmp/bs/bench/oclblas-bench
S=256x65536,512x32768,128x100000,256x8192,300x20000
sets=(-)
for w in 256 512 1024; do for vu in 4,4 4,2 2,4 8,2 4,1 8,1; do sets+=("WGS=$w,TPC=32,VW=${vu%,*},UNR=${vu#*,}"); done; done
for run in 1 2; do
  for p in "${sets[@]}"; do
    args=(); [ "$p" != - ] && args=(--override "gemv_t:$p")
    $B --shapes $S --routine gemv --layout col --trans TN --peers $([ $run = 1 ] && [ "$p" = - ] && echo cublas || echo none) \
      --min-time 0.03 --quiet "${args[@]}" --csv $o/f.csv > /dev/null 2>&1 || echo "fail $run $p" >> $o/fail.txt
    awk -F, -v r=$run -v p="$([ "$p" = - ] && echo entry || echo "$p")" 'NR>1{print r, $5 "x" $6, ($10 == "cublas" ? "cublas" : p), $11 * 1000}' $o/f.csv >> $o/sweep.txt
  done
done
OCLBLAS_VERBOSE=1 $B --shapes $S --routine gemv --layout col --trans TN --peers none --min-time 0.001 --quiet 2>&1 |
  grep "^oclblas: sgemv" | sort -u > $o/plans.txt
rm -f $o/f.csv
tar czf $OUT/gemv-short.tgz -C $OUT gemv-short && rm -rf $o
