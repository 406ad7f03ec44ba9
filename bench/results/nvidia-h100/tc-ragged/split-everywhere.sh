#!/usr/bin/env bash
# SPLIT 0 against 1 for every shape: the tree at a735f7a (exp/head) against the same tree with the
# H100 and H200 entries' gemm_tc set for every shape at SPLIT 0 (exp/s0; rates untouched), so that
# the model's plans stay and only the program differs; the batched and shapes presets, default
# (accurate) mode, row-major. Made before the run, from the project root:
#   mkdir -p exp/head exp/s0; git archive a735f7a | tar -x -C exp/head; git archive a735f7a | tar -x -C exp/s0
#   rm -rf exp/*/bench/results; sed -i 's/"SPLIT": 1,/"SPLIT": 0,/' exp/s0/database/nvidia/h1*.json exp/s0/database/nvidia/h2*.json
#   (only the set for every shape has SPLIT 1 there); then on a lent GPU:
#   bench/results/nvidia-h100/tc-ragged/split-everywhere.sh     (writes $OUT/split/)
source .device/env.sh
set -u
o=$OUT/split; mkdir -p $o
pack() { tar czf $OUT/split.tgz -C $OUT split; }
OUT=$o bash bench/results/shapes-model.sh build head exp/head build s0 exp/s0 > $o/build.txt 2>&1
for t in head s0; do
  /tmp/$t/bench/oclblas-bench --preset batched --layout row --peers cublas,clblast --math accurate --min-time 0.05 \
    --quiet --csv $o/$t-batched.csv > $o/$t-batched.txt 2>&1
  echo "$t batched $?" >> $o/log.txt; pack
done
for t in s0 head; do
  /tmp/$t/bench/oclblas-bench --preset shapes --layout row --peers cublas --math accurate --min-time 0.05 \
    --quiet --csv $o/$t-shapes.csv > $o/$t-shapes.txt 2>&1
  echo "$t shapes $?" >> $o/log.txt; pack
done
