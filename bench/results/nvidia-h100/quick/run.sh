#!/usr/bin/env bash
# Issue 23 on the GPU: the fallback with the device's entries hidden against CLBlast, a quick
# tuning run as for a new device, and the preset with its entry.
source .device/env.sh
o=$OUT/q; mkdir -p $o
(cmake -S . -B /tmp/q -DCMAKE_BUILD_TYPE=Release && cmake --build /tmp/q -j16) > $o/build.log 2>&1 || { tail -20 $o/build.log; exit 1; }
B=/tmp/q/bench/oclblas-bench
OCLBLAS_DATABASE_HIDE=device $B --preset shapes --layout row --peers clblast,cublas --min-time 0.05 --quiet --csv $o/hidden.csv > $o/hidden.txt 2>&1; echo "hidden $?"
OCLBLAS_DATABASE_HIDE=device /usr/bin/time -f "wall %e s" /tmp/q/tuner/oclblas-tune --quick -d gpu -o $o/quick.json > $o/quick.txt 2>&1; echo "quick $?"; tail -3 $o/quick.txt
OCLBLAS_DATABASE_HIDE=device OCLBLAS_DATABASE=$o/quick.json $B --preset shapes --layout row --peers clblast,cublas --min-time 0.05 --quiet --csv $o/quick-entry.csv > $o/quick-entry.txt 2>&1; echo "quick-entry $?"
$B --preset shapes --layout row --peers clblast,cublas --min-time 0.05 --quiet --csv $o/shipped.csv > $o/shipped.txt 2>&1; echo "shipped $?"
nvidia-smi --query-gpu=name,driver_version --format=csv,noheader > $o/gpu.txt
cd $o && tar czf /tmp/q.tgz . && cd / && rm -rf $o && mv /tmp/q.tgz $OUT/
