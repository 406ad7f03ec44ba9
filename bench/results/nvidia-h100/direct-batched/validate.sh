#!/usr/bin/env bash
# On a lent GPU, from the project root: base (main at 82f0423, `git archive`
# unpacked in .s8-base) and new (this tree: a gemm_direct set with a 32 x 32
# tile in the entry, and the model pricing a direct work-group by its whole
# tile) built side by side. Step sample: the GPU tests of new; then,
# strict mode, column-major, four transposes, base then new, every problem
# of problems.txt (a sample of the shapes and batches whose plan the change
# alters, one line per batch count: COUNT SHAPE,SHAPE,...).
# Step batched: the batched preset in both modes with cuBLAS and CLBlast,
# base then new, and new's plans. Writes $OUT/validate-STEP.tgz.
#   bench/results/nvidia-h100/direct-batched/validate.sh sample|batched [PROBLEMS]
# (PROBLEMS: another list for the sample step, default problems.txt)
source .device/env.sh
here=bench/results/nvidia-h100/direct-batched
dest=$OUT
export OUT=$dest/validate-$1
mkdir -p "$OUT"
log=$OUT/log.txt
t0=$(date +%s)
stamp() { echo "[$(($(date +%s) - t0)) s] $*" >> "$log"; }
nvidia-smi --query-gpu=name,driver_version,clocks.max.sm,memory.total --format=csv >> "$log" 2>&1
bash bench/results/shapes-model.sh build new . build base .s8-base > /dev/null 2>&1
stamp built
if [ "$1" = sample ]; then
  ctest --test-dir /tmp/new --timeout 300 -j4 \
    -R '^(test_sgemm|test_database|test_batched|test_batched_copies|test_batched_chunks|test_plan|test_model|test_classes)$' \
    > "$OUT/ctest.txt" 2>&1
  stamp "GPU tests of new: exit $?"
  while read -r count shapes; do
    batch=()
    [ "$count" != 1 ] && batch=(--batch "$count") # 1: single calls
    for t in base new; do
      /tmp/$t/bench/oclblas-bench --routine gemm --shapes "$shapes" "${batch[@]}" --layout col --trans NN,NT,TN,TT \
        --math strict --peers none --min-time 0.02 --quiet --csv "$OUT/sample-$t-x$count.csv" > /dev/null 2>&1
      stamp "sample x$count $t: exit $?"
    done
  done < "${2:-$here/problems.txt}"
else
  for mode in strict accurate; do
    for t in base new; do
      /tmp/$t/bench/oclblas-bench --preset batched --math $mode --peers cublas,clblast --min-time 0.05 --quiet \
        --csv "$OUT/batched-$t-$mode.csv" > /dev/null 2>&1
      stamp "batched $t $mode: exit $?"
    done
    echo "== $mode" >> "$OUT/batched-plans.txt"
    OCLBLAS_VERBOSE=1 /tmp/new/bench/oclblas-bench --preset batched --math $mode --peers none --min-time 0.001 \
      --quiet 2>&1 | grep "^oclblas: batch" | sort -u >> "$OUT/batched-plans.txt"
  done
fi
cat "$log"
cd "$dest" && tar czf validate-$1.tgz validate-$1 && rm -rf validate-$1
