#!/usr/bin/env bash
# The accurate mode's gemm_tc with A split into its BF16 words as it is staged (SPLIT = 1) against
# the same sets splitting as warps load fragments (SPLIT = 0), one build, cuBLAS FP32 in the same
# runs; then gemm_tc's GPU test. From the project root after ../shared/gpu/stage.sh, on a lent GPU:
#   bench/results/nvidia-h100/tc-split/run.sh          (writes $OUT/tc-split/)
source .device/env.sh
set -uo pipefail
o=$OUT/tc-split; mkdir -p $o
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm --format=csv > $o/device.txt 2>&1
bash bench/results/shapes-model.sh build new . > $o/build.txt 2>&1 || { cat /tmp/build-new.log | tail -40 > $o/build-fail.txt; exit 1; }
b=/tmp/new/bench/oclblas-bench
fixed="STAGES=2,CP_ASYNC=0,PADA=8,PADB=8,PRODUCTS=6,PROMOTE=0,LOOP=1,FRAGV=1,CHUNK=1,KPAIR=0"
declare -A tile=(
  [t128x128-w128x32]="BM=128,BN=128,BK=16,WM=128,WN=32"
  [t128x128-w64x64]="BM=128,BN=128,BK=16,WM=64,WN=64"
  [t128x128-w64x32]="BM=128,BN=128,BK=16,WM=64,WN=32"
  [t128x64-w64x32]="BM=128,BN=64,BK=16,WM=64,WN=32"
  [t128x64-w128x32]="BM=128,BN=64,BK=16,WM=128,WN=32"
)
for name in t128x128-w128x32 t128x128-w64x64 t128x128-w64x32 t128x64-w64x32 t128x64-w128x32; do
  for split in 0 1; do
    f=$o/$name-split$split
    $b --routine gemm --sizes 2048,4096,8192 --layout col --trans NT --peers cublas --math accurate \
      --override "gemm_tc:${tile[$name]},SPLIT=$split,$fixed" --min-time 0.1 --quiet --csv $f.csv > $f.txt 2>&1
    echo "$name split $split: exit $?" >> $o/log.txt
  done
done
# The user's path: row-major NN (A stored with k contiguous: read along k, or turned for SPLIT = 1),
# checked against OpenBLAS.
for split in 0 1; do
  f=$o/row-nn-split$split
  $b --routine gemm --sizes 1024,2048,4096 --layout row --trans NN,TT --peers cublas,openblas --math accurate \
    --override "gemm_tc:${tile[t128x128-w128x32]},SPLIT=$split,$fixed" --min-time 0.1 --quiet --csv $f.csv > $f.txt 2>&1
  echo "row NN split $split: exit $?" >> $o/log.txt
done
ctest --test-dir /tmp/new --output-on-failure --timeout 300 -R '^test_gemm_tc$' > $o/ctest.txt 2>&1
echo "ctest: $?" >> $o/log.txt
