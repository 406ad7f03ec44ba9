#!/usr/bin/env bash
# On a lent H200, from the project root: base (main at a1b3591, `git
# archive` unpacked in .s9-base) and new (this tree: the H200 entry with the
# H100's measured facts for the sets both entries share) built side by
# side; the shapes preset (row-major) and the batched preset, in the default
# (accurate) and strict modes, base then new, beside cuBLAS FP32 and
# CLBlast; new's plans. Writes $OUT/NAME.tgz.
#   bench/results/nvidia-h200/h100-facts/compare.sh NAME [PRESETS]   (default: shapes batched)
source .device/env.sh
dest=$OUT
export OUT=$dest/$1
mkdir -p "$OUT"
bash bench/results/shapes-model.sh build new . build base .s9-base > /dev/null 2>&1 || { echo "build failed"; exit 1; }
for preset in ${2:-shapes batched}; do
  layout=()
  [ $preset = shapes ] && layout=(--layout row) # as the earlier runs of the preset; batched: both
  for mode in accurate strict; do
    for t in base new; do
      /tmp/$t/bench/oclblas-bench --preset $preset "${layout[@]}" --math $mode --peers cublas,clblast --min-time 0.05 --quiet \
        --csv "$OUT/$preset-$t-$mode.csv" > /dev/null 2>&1
      echo "$preset $t $mode: exit $?" >> "$OUT/log.txt"
    done
    OCLBLAS_VERBOSE=1 /tmp/new/bench/oclblas-bench --preset $preset "${layout[@]}" --math $mode --peers none --min-time 0.001 \
      --quiet 2>&1 | grep "^oclblas: \(sgem\|batch\)" | sort -u > "$OUT/$preset-plans-$mode.txt"
  done
done
cat "$OUT/log.txt"
cd "$dest" && tar czf "$1.tgz" "$1" && rm -rf "$1"
