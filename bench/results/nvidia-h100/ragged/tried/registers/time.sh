#!/usr/bin/env bash
# On a lent H100, from the project root, with `git archive 1a2241e` in
# .s5-base: that tree built with each version of kernels/gemm_fast.cl
# grafted in (bench/results/shapes-model.sh's graft), timed on three
# problems whose operands are whole tiles, twice -> $OUT/t-NAME-RUN.csv.
#   A: the edge tiles moved back (the kernel as landed), B: the first tile
#   of k before the loop (first-k-tile.patch), C: the kernel before with only
#   its count of k tiles rounded up (the code whole tiles run is the
#   kernel before's).
source .device/env.sh
here=bench/results/nvidia-h100/ragged/tried/registers
out=$OUT
export OUT=$out/x
mkdir -p /tmp/var/A/kernels /tmp/var/B/kernels /tmp/var/C/kernels
cp kernels/gemm_fast.cl /tmp/var/A/kernels/
patch -s -o /tmp/var/B/kernels/gemm_fast.cl .s5-base/kernels/gemm_fast.cl $here/first-k-tile.patch
sed 's|const int num_k_tiles = (k_slice ? min(k_slice, K - k_begin) : K) / KWG;|const int k_len = k_slice ? min(k_slice, K - k_begin) : K;\n    const int num_k_tiles = (k_len + KWG - 1) / KWG;|' \
  .s5-base/kernels/gemm_fast.cl > /tmp/var/C/kernels/gemm_fast.cl
for v in A B C; do bash bench/results/shapes-model.sh graft $v .s5-base /tmp/var/$v kernels/gemm_fast.cl > /dev/null 2>&1; done
for run in 1 2; do
  for v in A B C; do
    /tmp/$v/bench/oclblas-bench --routine gemm --shapes 4096x4096x4096,64x16384x1024,2048x2048x2048 --trans NN,NT \
      --layout row --math strict --peers none --min-time 0.1 --quiet --csv $out/t-$v-$run.csv > /dev/null 2>&1
  done
done
