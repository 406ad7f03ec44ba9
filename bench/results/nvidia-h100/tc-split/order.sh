#!/usr/bin/env bash
# The order of the six products in gemm_tc's k16 step: as committed (each tile's six in a row, one
# dependent chain after another), il1 (product by product over the tile row's NT tiles: NT chains
# side by side) and il2 (the same over two tile rows), each built in its own tree from
# exp/il1 and exp/il2 (see README), the H100 entry's set (SPLIT = 1), twice each.
#   bench/results/nvidia-h100/tc-split/order.sh        (writes $OUT/tc-split-order/)
source .device/env.sh
set -uo pipefail
o=$OUT/tc-split-order; mkdir -p $o
OUT=$o bash bench/results/shapes-model.sh build cvt . graft il1 . exp/il1 kernels/gemm_tc.cl \
  graft il2 . exp/il2 kernels/gemm_tc.cl > $o/build.txt 2>&1
for round in 1 2; do
  for tree in cvt il1 il2; do
    /tmp/$tree/bench/oclblas-bench --routine gemm --sizes 2048,4096,8192 --layout col --trans NT --peers cublas \
      --math accurate --min-time 0.1 --quiet > $o/$tree-r$round.txt 2>&1
    echo "$tree round $round: exit $?" >> $o/log.txt
  done
done
