#!/bin/bash
# Issue 23: the H100 with its entries hidden (OCLBLAS_DATABASE_HIDE=device), the shapes preset in both modes against CLBlast.
source .device/env.sh
o=$OUT/h; mkdir -p $o
(cmake -S . -B /tmp/q -DCMAKE_BUILD_TYPE=Release -DOCLBLAS_BUILD_TUNER=OFF && cmake --build /tmp/q -j16 --target oclblas-bench) > $o/build.log 2>&1 || { tail -20 $o/build.log; exit 1; }
B=/tmp/q/bench/oclblas-bench
for m in accurate strict; do
OCLBLAS_DATABASE_HIDE=device $B --preset shapes --layout row --peers clblast,cublas --math $m --min-time 0.05 --quiet --csv $o/hidden-$m.csv > /dev/null 2>&1; echo "hidden $m $?"
done
OCLBLAS_DATABASE_HIDE=device OCLBLAS_VERBOSE=1 $B --preset shapes --layout row --peers none --reps 2 --quiet > /dev/null 2> /tmp/hp.txt; grep -E "^oclblas: (sgemm|sgemv) " /tmp/hp.txt | sort -u > $o/hidden-plans.txt
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $o/gpu.txt
cd $o && tar czf ../h.tgz . && cd .. && rm -rf h
