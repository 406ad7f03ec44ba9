#!/usr/bin/env bash
# The shapes and batched presets in the default (accurate) mode before (c573f42, the tree in
# exp/before made by `git archive c573f42 | tar -x -C exp/before`) and after (this tree: gemm_tc
# splitting A as staged, by cvt, the entries' set and rate), cuBLAS and CLBlast in the same runs,
# with the plans the after tree chooses; then the after tree's GPU tests. On a lent GPU:
#   bench/results/nvidia-h100/tc-split/compare.sh      (writes $OUT/tc-split-compare/)
source .device/env.sh
set -uo pipefail
o=$OUT/tc-split-compare; mkdir -p $o
# What has run so far as one file (a run cut short by its time limit still sends it).
pack() { tar czf $OUT/tc-split-compare.tgz -C $OUT tc-split-compare; }
OUT=$o bash bench/results/shapes-model.sh build before exp/before build after . > $o/build.txt 2>&1
for tree in before after; do
  /tmp/$tree/bench/oclblas-bench --preset shapes --layout row --peers cublas,clblast --math accurate \
    --min-time 0.05 --quiet --csv $o/$tree-shapes.csv > $o/$tree-shapes.txt 2>&1
  echo "$tree shapes: exit $?" >> $o/log.txt
  pack
done
/tmp/after/bench/oclblas-bench --routine gemm --sizes 2048,4096,8192 --layout col --trans NT --peers cublas \
  --math accurate --override "gemm_tc:BM=128,BN=128,BK=16,WM=128,WN=32,STAGES=2,CP_ASYNC=0,SPLIT=1,PADA=8,PADB=8,PRODUCTS=6,PROMOTE=0,LOOP=1,FRAGV=1,CHUNK=1,KPAIR=0" \
  --min-time 0.1 --quiet > $o/after-set-alone.txt 2>&1
ctest --test-dir /tmp/after --output-on-failure --timeout 300 -R '^(test_gemm_tc|test_plan|test_sgemm|test_batched)$' > $o/ctest.txt 2>&1
echo "ctest: $?" >> $o/log.txt
pack
for tree in before after; do
  for p in "--shapes 256x256x65536 --trans NT,TT" "--shapes 128x128x128 --batch 256 --trans NN,NT"; do
    OCLBLAS_VERBOSE=1 /tmp/$tree/bench/oclblas-bench --routine gemm $p --layout row --peers none --math accurate \
      --reps 1 --min-time 0.001 --quiet 2>&1 | grep -E "^oclblas: (sgemm|batch)" | sort -u >> $o/$tree-plans.txt
  done
done
pack
for tree in before after; do
  /tmp/$tree/bench/oclblas-bench --preset batched --layout row --peers cublas,clblast --math accurate \
    --min-time 0.05 --quiet --csv $o/$tree-batched.csv > $o/$tree-batched.txt 2>&1
  echo "$tree batched: exit $?" >> $o/log.txt
  pack
done
