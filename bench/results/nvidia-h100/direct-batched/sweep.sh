#!/usr/bin/env bash
# On a lent GPU, from the project root: the batched preset's smallest
# problem (1000 x 32^3, both layouts, four transposes) by gemm_direct with
# a few sets, each by override (without a rate the rules run it: the batch
# is below the crossover), beside the entry's own plan and cuBLAS.
# Writes $OUT/direct-batched.tgz.
#   bench/results/nvidia-h100/direct-batched/sweep.sh
source .device/env.sh
dest=$OUT
export OUT=$dest/direct-batched
mkdir -p "$OUT"
bash bench/results/shapes-model.sh build new . > /dev/null 2>&1
run() { # NAME [OVERRIDE]
  /tmp/new/bench/oclblas-bench --routine gemm --shapes 32x32x32 --batch 1000 --layout both --trans NN,NT,TN,TT \
    --math strict ${2:+--override "gemm_direct:$2"} --peers ${3:-none} --min-time 0.05 --quiet --csv "$OUT/$1.csv" \
    > /dev/null 2>&1
  echo "$1 ${2:-entry}: exit $?" >> "$OUT/log.txt"
}
run entry "" cublas
run w16-k32-8x16 WGD=16,KWGD=32,MDIMCD=8,NDIMCD=16,KWID=4,PADA=0,PADB=1
run w32-k32-16x16 WGD=32,KWGD=32,MDIMCD=16,NDIMCD=16,KWID=4,PADA=1,PADB=1
run w32-k32-8x8 WGD=32,KWGD=32,MDIMCD=8,NDIMCD=8,KWID=4,PADA=1,PADB=1
run w32-k16-8x16 WGD=32,KWGD=16,MDIMCD=8,NDIMCD=16,KWID=4,PADA=1,PADB=1
run w32-k32-8x32 WGD=32,KWGD=32,MDIMCD=8,NDIMCD=32,KWID=4,PADA=1,PADB=1
run w16-k16-8x8 WGD=16,KWGD=16,MDIMCD=8,NDIMCD=8,KWID=4,PADA=1,PADB=1
run w16-k32-16x16 WGD=16,KWGD=32,MDIMCD=16,NDIMCD=16,KWID=4,PADA=1,PADB=1
run w8-k32-8x8 WGD=8,KWGD=32,MDIMCD=8,NDIMCD=8,KWID=4,PADA=1,PADB=1
OCLBLAS_VERBOSE=1 /tmp/new/bench/oclblas-bench --routine gemm --shapes 32x32x32 --batch 1000 --layout both \
  --trans NN,NT,TN,TT --math strict --peers none --min-time 0.001 --quiet 2>&1 | grep "^oclblas: batch" | sort -u \
  > "$OUT/plans.txt"
cat "$OUT/log.txt"
cd "$dest" && tar czf direct-batched.tgz direct-batched && rm -rf direct-batched
