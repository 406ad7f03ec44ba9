#!/usr/bin/env bash
# gemm_tc reading ragged operands in place (m and n not whole tiles in every program, k not whole
# k-tiles in its peeled program) and the class tc-short-k (A split as warps load it where k <= 128),
# against the tree before them (exp/before: `git archive BEFORE | tar -x -C exp/before`, less its
# bench/results), in the default (accurate) mode, on a lent GPU:
#   bench/results/nvidia-h100/tc-ragged/compare.sh      (writes $OUT/tc-ragged/)
# 1. the peeled program's factors (peeled.py: the entry's set forced, column-major NT, TT and NN at
#    2048^3 and 4096^3 with k whole k-tiles, first program, and 8 short, peeled), written into this
#    GPU's entry of a copy of the tree (after);
# 2. the after tree's GPU tests;
# 3. the shapes and batched presets twice each, before and after, cuBLAS and CLBlast in the same runs;
# 4. the plans the after tree chooses; SPLIT 0 against 1 (forced) at k = 128 to 256;
# 5. the registers and spills of every gemm_tc program the runs built (../resident/resident.py).
source .device/env.sh
set -uo pipefail
o=$OUT/tc-ragged; mkdir -p $o
d=bench/results/nvidia-h100/tc-ragged
pack() { tar czf $OUT/tc-ragged.tgz -C $OUT tc-ragged; }
t0=$(date +%s)
stamp() { echo "[$(($(date +%s) - t0)) s] $*" >> $o/log.txt; }
OUT=$o bash bench/results/shapes-model.sh build before exp/before build first . > $o/build.txt 2>&1
set_tc() { echo "gemm_tc:BM=128,BN=128,BK=16,WM=128,WN=32,STAGES=2,CP_ASYNC=0,SPLIT=$1,PADA=8,PADB=8,PRODUCTS=6,PROMOTE=0,LOOP=1,FRAGV=1,CHUNK=1,KPAIR=0"; }
for t in NT TT NN; do
  OCLBLAS_VERBOSE=1 /tmp/first/bench/oclblas-bench --routine gemm --shapes 2048x2048x2048,2048x2048x2040,4096x4096x4096,4096x4096x4088 \
    --layout col --trans $t --peers none --math accurate --override "$(set_tc 1)" --min-time 0.1 --quiet --csv $o/peeled-$t.csv \
    > $o/peeled-$t.txt 2>&1
done
python3 $d/peeled.py $o/peeled-NT.csv $o/peeled-TT.csv $o/peeled-NN.csv database/nvidia/h100.json > $o/peeled.txt 2>&1
stamp "peeled: $(tail -1 $o/peeled.txt)"
OUT=$o bash bench/results/shapes-model.sh build after . >> $o/build.txt 2>&1
stamp built
ctest --test-dir /tmp/after --output-on-failure --timeout 300 -R '^(test_gemm_tc|test_plan|test_sgemm|test_batched)$' > $o/ctest.txt 2>&1
stamp "ctest: $?"
pack
rm -rf /tmp/rc-before /tmp/rc-after; mkdir -p /tmp/rc-before /tmp/rc-after
for run in 1 2; do
  for tree in before after; do
    for preset in shapes batched; do
      OCLBLAS_CACHE_DIR=/tmp/rc-$tree /tmp/$tree/bench/oclblas-bench --preset $preset --layout row --peers cublas,clblast \
        --math accurate --min-time 0.05 --quiet --csv $o/$tree-$preset-$run.csv > $o/$tree-$preset-$run.txt 2>&1
      stamp "$tree $preset $run: $?"
      pack
    done
  done
done
for p in "--shapes 1000x1000x1000,4096x4096x128,3001x2999x1000,512x512x512" "--shapes 128x128x128 --batch 256"; do
  OCLBLAS_VERBOSE=1 /tmp/after/bench/oclblas-bench --routine gemm $p --layout row --peers none --math accurate \
    --reps 1 --min-time 0.001 --quiet 2>&1 | grep -E "^oclblas: (sgemm|batch)" | sort -u >> $o/after-plans.txt
done
for s in 0 1 0 1; do
  /tmp/after/bench/oclblas-bench --routine gemm --shapes 4096x4096x128,4096x4096x192,4096x4096x256,2048x2048x256 \
    --layout col --trans NT --peers none --math accurate --override "$(set_tc $s)" --min-time 0.05 --quiet \
    >> $o/split-$s.txt 2>&1
  /tmp/after/bench/oclblas-bench --routine gemm --shapes 128x128x128,128x128x192,128x128x256 --batch 256 \
    --layout col --trans NT --peers none --math accurate --override "$(set_tc $s)" --min-time 0.05 --quiet \
    >> $o/split-$s.txt 2>&1
done
stamp "split done"
for tree in before after; do
  python3 bench/results/nvidia-h100/resident/resident.py /tmp/rc-$tree | grep '^gemm_tc' | sort -u > $o/$tree-registers.txt 2>&1
done
stamp registers
pack
