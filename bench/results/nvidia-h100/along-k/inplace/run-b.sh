#!/bin/bash
# Final run, part B (same machine, after A): the batched preset in both modes, base and new.
source .device/env.sh
o=$OUT/b; mkdir -p $o
for t in base new; do for m in accurate strict; do
  /tmp/$t/bench/oclblas-bench --preset batched --math $m --peers cublas,clblast --min-time 0.05 --quiet --csv $o/batched-$t-$m.csv > $o/batched-$t-$m.txt 2>&1; echo "batched $t $m $? at $SECONDS s"
done; done
for t in base new; do
  /tmp/$t/bench/oclblas-bench --routine gemv --shapes 65536x256,256x65536,3001x2999,4096x4096,8192x8192 --layout both --trans NN,TN --peers cublas,clblast --min-time 0.05 --quiet --csv $o/gemv-$t.csv > $o/gemv-$t.txt 2>&1; echo "gemv $t $?"
  for m in accurate tf32; do /tmp/$t/bench/oclblas-bench --sizes 4096,8192 --math $m --routine gemm --peers cublas --min-time 0.1 --quiet --csv $o/tc-$t-$m.csv > $o/tc-$t-$m.txt 2>&1; echo "tc $t $m $?"; done
done
OUT=$o bash bench/results/shapes-model.sh plans new > /dev/null 2>&1
OCLBLAS_VERBOSE=1 /tmp/new/bench/oclblas-bench --preset batched --peers none --reps 2 --quiet > /dev/null 2> $o/plans-batched.txt
cd $OUT && tar czf b.tgz b && rm -rf b
