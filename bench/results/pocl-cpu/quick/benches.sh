#!/bin/bash
# The shapes preset on this machine's PoCL device with each entry (OCLBLAS_DATABASE), interleaved,
# run in this folder: BENCH=path/to/oclblas-bench (default: the build tree's).
cd "$(dirname "$0")"
b=${BENCH:-../../../../build/bench/oclblas-bench}
for i in 1 2 3; do
  for e in quick long fallback; do
    [ $e = long ] && [ $i = 1 ] && continue
    if [ $e = fallback ]; then [ $i = 3 ] && continue; env -u OCLBLAS_DATABASE $b --preset shapes --peers openblas --quiet --csv $e-$i.csv > $e-$i.txt 2>&1
    else OCLBLAS_DATABASE=$PWD/$e.json $b --preset shapes --peers openblas --quiet --csv $e-$i.csv > $e-$i.txt 2>&1; fi
    echo "$e-$i rc $? at $(date +%T)" >> benches.log
  done
done
