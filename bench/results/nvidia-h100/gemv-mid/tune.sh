#!/usr/bin/env bash
# gemv_n's set for the class gemv-small (k <= 1, m*n <= 26000000), tuned on
# SGEMV 4096 x 4096 as whole plans, then the shapes preset's SGEMVs with the
# compiled-in entry (base) and the tuned one (new), alternating, twice.
# On a lent GPU from the project root: bash bench/results/nvidia-h100/gemv-mid/tune.sh SECONDS
# Writes $OUT/gm (log.txt, tune.txt, entry.json, gemv-{base,new}-{1,2}.csv, plans).
source .device/env.sh
set -uo pipefail
secs=${1:-240}
o=$OUT/gm
mkdir -p "$o"
t0=$(date +%s)
stamp() { echo "[$(($(date +%s) - t0)) s] $*" | tee -a "$o/log.txt"; }
nvidia-smi --query-gpu=name,driver_version --format=csv >> "$o/log.txt" 2>&1
name=$(nvidia-smi --query-gpu=name --format=csv,noheader | head -1)
case $name in *H200*) entry=database/nvidia/h200.json ;; *) entry=database/nvidia/h100.json ;; esac
{ cmake -S . -B /tmp/gm -DCMAKE_BUILD_TYPE=Release -DOCLBLAS_BUILD_CBLAS=OFF -DOCLBLAS_BUILD_TESTS=OFF &&
  cmake --build /tmp/gm -j16; } > /tmp/gm-build.log 2>&1 || { tail -30 /tmp/gm-build.log; exit 1; }
stamp "built; tune $secs s from $entry"
cp "$entry" "$o/entry.json"
/tmp/gm/tuner/oclblas-tune -d gpu -k gemv_n -t "$secs" --class "gemv-small:k <= 1, m*n <= 26000000:4096x4096" \
  -o "$o/entry.json" -j "$o/tune.journal" > "$o/tune.txt" 2>&1
stamp "tune exit $?"
B=/tmp/gm/bench/oclblas-bench
for run in 1 2; do
  for t in base new; do
    db=(env)
    [ $t = new ] && db=(env OCLBLAS_DATABASE="$o/entry.json")
    for layout in row col; do
      "${db[@]}" $B --preset shapes --routine gemv --layout $layout --peers cublas --min-time 0.05 --quiet \
        --csv "$o/gemv-$t-$layout-$run.csv" > /dev/null 2>&1
    done
    stamp "gemv $t $run"
  done
done
for t in base new; do
  db=(env)
  [ $t = new ] && db=(env OCLBLAS_DATABASE="$o/entry.json")
  for layout in row col; do
    "${db[@]}" OCLBLAS_VERBOSE=1 $B --preset shapes --routine gemv --layout $layout --peers none --min-time 0.001 \
      --quiet 2>&1 | grep "^oclblas: sgemv" | sort -u
  done > "$o/plans-$t.txt"
done
gzip -f "$o/tune.journal"
