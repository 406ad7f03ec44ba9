#!/usr/bin/env bash
# On a lent GPU, from the project root: base (main before gemm_tc took
# batches, `git archive 0b2c0d1` unpacked in .s7-base) and new (this tree)
# built side by side. Phase 1: the GPU tests of new, gemm_tc reading
# operands along k against in place (tc-along-k.csv), the batched preset
# in the default (accurate) mode, base then new, with cuBLAS and CLBlast
# as peers. Phase 2: the strict mode the same way, the default mode once
# more, new's batch plans, and the shapes preset (single problems,
# row-major) in the default mode with new's plans. Phase 3: gemm_tc along
# k as in phase 1, twice, in base and in new. Writes $OUT/compare-PHASE.tgz.
#   bench/results/nvidia-h100/tc-batched/compare.sh 1|2|3
source .device/env.sh
dest=$OUT
export OUT=$dest/compare-$1
mkdir -p "$OUT"
m=bench/results/shapes-model.sh
log=$OUT/log.txt
t0=$(date +%s)
stamp() { echo "[$(($(date +%s) - t0)) s] $*" >> "$log"; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv >> "$log" 2>&1
bash $m build new . build base .s7-base > /dev/null 2>&1 # a warm machine keeps /tmp: build again, in seconds
stamp built
tc=$(python3 -c "import json; print(','.join('%s=%d' % kv for kv in json.load(open('database/nvidia/h100.json'))['parameters']['gemm_tc'].items()))")
along_k() { # TREE FILE: gemm_tc's set by override, without a rate, so that the rules read in place whatever can be
  /tmp/$1/bench/oclblas-bench --routine gemm --sizes 2048,4096,8192 --layout col --trans NN,NT,TN,TT --math accurate \
    --override "gemm_tc:$tc" --peers none --min-time 0.1 --quiet --csv "$OUT/$2.csv" > /dev/null 2>&1
  stamp "gemm_tc along k, $1: exit $?"
}
batched() { # TREE MODE FILE
  /tmp/$1/bench/oclblas-bench --preset batched --math $2 --peers cublas,clblast --min-time 0.05 --quiet \
    --csv "$OUT/$3.csv" > /dev/null 2>&1
  stamp "batched $1 $2: exit $?"
}
if [ "$1" = 1 ]; then
  ctest --test-dir /tmp/new --timeout 300 -j4 \
    -R '^(test_gemm_tc|test_sgemm|test_batched|test_batched_copies|test_batched_chunks|test_plan|test_model|test_threads)$' \
    > "$OUT/ctest.txt" 2>&1
  stamp "GPU tests of new: exit $?"
  along_k new tc-along-k # gemm_tc reading operands along k, against in place as they are (col NT)
  OCLBLAS_VERBOSE=1 /tmp/new/bench/oclblas-bench --routine gemm --sizes 2048 --layout col --trans NN,NT,TN,TT \
    --math accurate --override "gemm_tc:$tc" --peers none --min-time 0.001 --quiet 2>&1 | grep "^oclblas: sgemm" |
    sort -u > "$OUT/tc-along-k-plans.txt"
  batched base accurate base-accurate
  batched new accurate new-accurate
elif [ "$1" = 3 ]; then
  for round in 1 2; do
    for t in base new; do along_k $t tc-along-k-$t-$round; done
  done
else
  batched base strict base-strict
  batched new strict new-strict
  batched base accurate base-accurate-2
  batched new accurate new-accurate-2
  for t in base new; do # single problems: gemm_tc may now read operands along k
    /tmp/$t/bench/oclblas-bench --preset shapes --layout row --math accurate --peers cublas,clblast --min-time 0.05 \
      --quiet --csv "$OUT/shapes-$t-accurate.csv" > /dev/null 2>&1
    stamp "shapes $t accurate: exit $?"
  done
  OCLBLAS_VERBOSE=1 /tmp/new/bench/oclblas-bench --preset shapes --layout row --math accurate --peers none \
    --min-time 0.001 --quiet 2>&1 | grep "^oclblas: sgemm" | sort -u > "$OUT/shapes-plans.txt"
  for mode in accurate strict; do
    echo "== $mode" >> "$OUT/plans.txt"
    OCLBLAS_VERBOSE=1 /tmp/new/bench/oclblas-bench --preset batched --math $mode --peers none --min-time 0.001 \
      --quiet 2>&1 | grep "^oclblas: batch" | sort -u >> "$OUT/plans.txt"
  done
  stamp plans
fi
cat "$log"
cd "$dest" && tar czf compare-$1.tgz compare-$1 && rm -rf compare-$1
