#!/usr/bin/env bash
# On a lent GPU, from the project root: gemm_direct sets with a 32 x 32
# tile against the entry's 16 x 16, each forced by override, (1) at the
# rate the cost model takes for a direct set (1024^3 row-major NN, by
# bench/results/shapes-model/calibrate.c, with the smaller squares beside
# it) and (2) on the batched preset's small batches, both layouts and four
# transposes, strict mode, forced to gemm_direct, beside the entry's own
# plan and cuBLAS. Writes $OUT/rates.tgz.
#   bench/results/nvidia-h100/direct-batched/rates.sh
source .device/env.sh
dest=$OUT/rates
mkdir -p "$dest"
OUT=$dest bash bench/results/shapes-model.sh build new . > /dev/null 2>&1 || { echo "build failed"; exit 1; }
gcc -O2 -DCL_TARGET_OPENCL_VERSION=120 -DCL_USE_DEPRECATED_OPENCL_1_2_APIS -o /tmp/calibrate \
  bench/results/shapes-model/calibrate.c -Iinclude -L/tmp/new -loclblas -lOpenCL -Wl,-rpath,/tmp/new || exit 1
sets="entry:WGD=16,KWGD=32,MDIMCD=8,NDIMCD=16,KWID=4,PADA=0,PADB=1
w32-k16-8x16:WGD=32,KWGD=16,MDIMCD=8,NDIMCD=16,KWID=4,PADA=1,PADB=1
w32-k32-16x16:WGD=32,KWGD=32,MDIMCD=16,NDIMCD=16,KWID=4,PADA=1,PADB=1
w32-k16-8x8:WGD=32,KWGD=16,MDIMCD=8,NDIMCD=8,KWID=4,PADA=1,PADB=1
w32-k16-8x8-nopad:WGD=32,KWGD=16,MDIMCD=8,NDIMCD=8,KWID=4,PADA=0,PADB=0"
{
  echo "mode strict"
  echo "routine GEMM_MIN_INDIRECT=1048576"
  for s in $sets; do
    echo "label ${s%%:*}"
    echo "set gemm_direct ${s#*:}"
    for t in NN NT TN TT; do echo "gemm row $t 1024 1024 1024 0"; done
    for n in 128 256 512; do echo "gemm row NN $n $n $n 0"; done
  done
} > "$dest/calibrate-list.txt"
/tmp/calibrate < "$dest/calibrate-list.txt" > "$dest/calibrate.csv" 2> "$dest/calibrate-err.txt"
echo "calibrate: exit $?" >> "$dest/log.txt"
bench() { # NAME BATCH [OVERRIDES...]: one of the small batches, both layouts, four transposes
  local name=$1 b=$2
  shift 2
  /tmp/new/bench/oclblas-bench --routine gemm --shapes "${b%%:*}" --batch "${b#*:}" --layout both --trans NN,NT,TN,TT \
    --math strict "$@" --min-time 0.05 --quiet --csv "$dest/$name-${b%%:*}x${b#*:}.csv" > /dev/null 2>&1
  echo "$name ${b}: exit $?" >> "$dest/log.txt"
}
for b in 32x32x32:1000 128x128x128:256 128x128x64:64; do
  bench plan "$b" --peers cublas
  for s in $sets; do
    bench "${s%%:*}" "$b" --peers none --override "gemm_direct:${s#*:}" --override routine:GEMM_MIN_INDIRECT=1048576
  done
done
OCLBLAS_VERBOSE=1 /tmp/new/bench/oclblas-bench --routine gemm --preset batched --math strict --peers none \
  --min-time 0.001 --quiet 2>&1 | grep "^oclblas: batch" | sort -u > "$dest/plans.txt"
cat "$dest/log.txt"
cd "$OUT" && tar czf rates.tgz rates && rm -rf rates
