#!/usr/bin/env bash
# gemm_tc's split as three variants of the kernel, each built in its own tree: base (the split in
# integer operations, ties away), cvt (cvt.rn.bf16x2.f32, the tree as committed with it) and novol
# (cvt, and mma.sync's inline asm not volatile), on the H100 entry's set with A split as staged
# and as warps load it; then a search over sets with SPLIT = 1 (oclblas-tune, full strategy) and
# gemm_tc's GPU test on the entry with SPLIT = 1. From the project root after stage.sh, with
# exp/base/kernels/gemm_tc.cl and exp/novol/kernels/gemm_tc.cl made beside the tree (see README):
#   bench/results/nvidia-h100/tc-split/variants.sh     (writes $OUT/tc-split-variants.tgz)
source .device/env.sh
set -uo pipefail
o=$OUT/tc-split-variants; mkdir -p $o
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > $o/device.txt 2>&1
OUT=$o bash bench/results/shapes-model.sh build cvt . graft base . exp/base kernels/gemm_tc.cl \
  graft novol . exp/novol kernels/gemm_tc.cl > $o/build.txt 2>&1
fixed="BM=128,BN=128,BK=16,WM=128,WN=32,STAGES=2,CP_ASYNC=0,PADA=8,PADB=8,PRODUCTS=6,PROMOTE=0,LOOP=1,FRAGV=1,CHUNK=1,KPAIR=0"
for round in 1 2; do
  for tree in base cvt novol; do
    for split in 1 0; do
      f=$o/$tree-split$split-r$round
      /tmp/$tree/bench/oclblas-bench --routine gemm --sizes 4096,8192 --layout col --trans NT --peers cublas \
        --math accurate --override "gemm_tc:$fixed,SPLIT=$split" --min-time 0.1 --quiet --csv $f.csv > $f.txt 2>&1
      echo "$tree split $split round $round: exit $?" >> $o/log.txt
    done
  done
done
ctest --test-dir /tmp/cvt --output-on-failure --timeout 300 -R '^test_gemm_tc$' > $o/ctest.txt 2>&1
echo "ctest: $?" >> $o/log.txt
cmake -S . -B /tmp/full -DCMAKE_BUILD_TYPE=Release > /tmp/full-cmake.log 2>&1 && cmake --build /tmp/full -j16 --target oclblas-tune > /tmp/full-build.log 2>&1
/tmp/full/tuner/oclblas-tune -d gpu -k gemm_tc -s full -t 150 \
  --values gemm_tc:BM=64,128:BN=64,128,256:BK=16:WM=64,128:WN=16,32,64:PADA=8:PADB=4,8:SPLIT=1 \
  -o $o/tune.json > $o/tune.txt 2>&1
echo "tune: $?" >> $o/log.txt
tar czf $OUT/tc-split-variants.tgz -C $OUT tc-split-variants
