#!/usr/bin/env bash
# Where the time of mid-size squares goes on a GPU, strict mode: the plan the model chooses, and
# gemm_fast with each of the entry's sets and some with more work-items per tile forced by
# --override, each with k whole or cut into slices (GEMM_MAX_SLICE_K), against cuBLAS FP32 in the
# same runs; then the tree's GPU tests. From the project root after ../shared/gpu/stage.sh:
#   bench/results/nvidia-h100/small-squares/run.sh    (writes $OUT/small-squares.tgz)
source .device/env.sh
set -uo pipefail
o=$OUT/small-squares; mkdir -p $o
bash bench/results/shapes-model.sh build new . > $o/build.txt 2>&1
b=/tmp/new/bench/oclblas-bench
shapes=512x512x512,768x768x768,1000x1000x1000,1024x1024x1024,1536x1536x1536
common="--routine gemm --shapes $shapes --layout row --trans NN --peers cublas --math strict --min-time 0.05 --quiet"
OCLBLAS_VERBOSE=1 $b $common --reps 2 --peers none 2>&1 | grep "^oclblas: sgemm" | sort -u > $o/plans-model.txt
$b $common --csv $o/model.csv > /dev/null 2>&1; echo "model: $?" >> $o/log.txt
tail="KWG=16,KWI=8,STRM=1,STRN=1,SA=1,SB=1"
declare -A set=(
  [main-128x64-64]="MWG=128,NWG=64,MDIMC=8,NDIMC=8,MDIMA=8,NDIMB=16,VWM=4,VWN=4"
  [small-64x128-128]="MWG=64,NWG=128,MDIMC=16,NDIMC=8,MDIMA=32,NDIMB=16,VWM=2,VWN=4"
  [smalltile-64x64-256]="MWG=64,NWG=64,MDIMC=16,NDIMC=16,MDIMA=16,NDIMB=16,VWM=4,VWN=4"
  [new-128x64-128]="MWG=128,NWG=64,MDIMC=16,NDIMC=8,MDIMA=16,NDIMB=16,VWM=4,VWN=4"
  [new-64x128-128]="MWG=64,NWG=128,MDIMC=8,NDIMC=16,MDIMA=8,NDIMB=16,VWM=4,VWN=4"
  [new-64x64-64]="MWG=64,NWG=64,MDIMC=8,NDIMC=8,MDIMA=8,NDIMB=8,VWM=4,VWN=4"
  [new-128x128-256]="MWG=128,NWG=128,MDIMC=16,NDIMC=16,MDIMA=16,NDIMB=16,VWM=4,VWN=4"
  [new-64x32-32]="MWG=64,NWG=32,MDIMC=8,NDIMC=4,MDIMA=8,NDIMB=4,VWM=4,VWN=4"
)
for name in "${!set[@]}"; do
  for slice in 0 512 256; do
    f=$o/$name-k$slice
    OCLBLAS_VERBOSE=1 $b $common --reps 2 --peers none --override "gemm_fast:${set[$name]},$tail" \
      --override "routine:GEMM_MAX_SLICE_K=$slice" 2>&1 | grep "^oclblas: sgemm" | sort -u > $f.plans
    $b $common --override "gemm_fast:${set[$name]},$tail" --override "routine:GEMM_MAX_SLICE_K=$slice" \
      --csv $f.csv > $f.txt 2>&1
    echo "$name k$slice: $?" >> $o/log.txt
  done
done
ctest --test-dir /tmp/new --output-on-failure -j4 --timeout 300 \
  -R '^(test_plan|test_sgemm|test_batched|test_batched_copies|test_cache|cblas_batch|test_gemm_tc)$' > $o/ctest.txt 2>&1
echo "ctest: $?" >> $o/log.txt
tar czf $OUT/small-squares.tgz -C $OUT small-squares && rm -rf $o
