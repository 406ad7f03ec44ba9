#!/usr/bin/env bash
# gemm_fast adding its split of k up in its own launch on NVIDIA, against sum_slices' launch: on a
# lent GPU from the project root, with main before the change (git archive 10106d2) unpacked in
# build-s14base. Builds both (../../shapes-model.sh's steps), runs the new tree's GPU tests, then
# forced splits (the entry's set for every shape by --override, so the rules plan; k cut into 2,
# 4, 8 or 16 slices by GEMM_MAX_SLICE_K) in both trees, twice, then the shapes preset of both in
# both modes and the new tree's plans. Writes $OUT/split-finish-RUN.tgz.
#   bench/results/nvidia-h200/split-finish/run.sh RUN [SET]   (SET: the entry's gemm_fast set)
source .device/env.sh
set -uo pipefail
run=$1
set=${2:-MWG=128,NWG=64,KWG=16,MDIMC=8,NDIMC=8,MDIMA=8,NDIMB=16,KWI=8,VWM=4,VWN=4,STRM=1,STRN=1,SA=1,SB=1}
dest=$OUT
export OUT=$dest/split-finish-$run
mkdir -p "$OUT"
m=bench/results/shapes-model.sh
bash $m build new . build base build-s14base > /dev/null 2>&1
OCLBLAS_VERBOSE=1 /tmp/new/tests/test_sgemm > /tmp/sgemm-verbose.txt 2>&1
echo "test_sgemm verbose: exit $?, $(grep -c 'added up by the last' /tmp/sgemm-verbose.txt) plans finishing in the launch" >> "$OUT/log.txt"
grep -E "split k|FAILED" /tmp/sgemm-verbose.txt >> "$OUT/log.txt"
for rep in 1; do
  for t in base new; do
    for mx in 512 256 128; do
      OCLBLAS_CACHE_DIR=/tmp/cache-$t /tmp/$t/bench/oclblas-bench --routine gemm --shapes 1000x1000x1000,1024x1024x1024,512x512x512,2048x2048x2048,4096x128x4096,128x4096x4096 \
        --layout col --trans NN,TN --math strict --peers none --min-time 0.05 --quiet \
        --override gemm_fast:$set --override routine:GEMM_MAX_SLICE_K=$mx --csv /tmp/f.csv > /dev/null 2>&1 ||
        echo "forced $t $mx $rep failed" >> "$OUT/log.txt"
      awk -F, -v r=$rep -v t=$t -v x=$mx 'NR>1 && $10=="oclblas"{print r, t, x, $3 $4, $5 "x" $6 "x" $7, $11 * 1000}' /tmp/f.csv >> "$OUT/forced.txt"
    done
  done
done
for t in base new; do
  for mx in 512 256 128; do
    OCLBLAS_VERBOSE=1 /tmp/$t/bench/oclblas-bench --routine gemm --shapes 1000x1000x1000,1024x1024x1024,512x512x512,2048x2048x2048,4096x128x4096,128x4096x4096 \
      --layout col --trans NN,TN --math strict --peers none --reps 2 --quiet \
      --override gemm_fast:$set --override routine:GEMM_MAX_SLICE_K=$mx 2>&1 | grep "^oclblas: sgemm" | sort -u | sed "s/^/$mx /" >> "$OUT/forced-plans-$t.txt"
  done
done
# Registers and spills of every gemm_fast program the forced runs built.
python3 bench/results/nvidia-h200/split-finish/registers.py base=/tmp/cache-base new=/tmp/cache-new > "$OUT/registers.txt" 2>&1
bash $m compare base compare new plans new > /dev/null 2>&1
rm -f /tmp/f.csv
tar czf "$dest/split-finish-$run.tgz" -C "$dest" "split-finish-$run" && rm -rf "$OUT"
