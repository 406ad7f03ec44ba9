#!/usr/bin/env bash
# gemv_n's panel (the haswell entry's set: 8 columns a step, 4 splits) at 1024^2 on PoCL, five times
# each with PoCL's worker threads free to share a core and pinned one to a core (POCL_AFFINITY=1),
# alternately. From the project root: bench/results/pocl-cpu/gemv-placement/run.sh > .../placement.txt
set -uo pipefail
d=bench/results/pocl-cpu/gemv-placement
gcc -O2 -o /tmp/gemv-n-alone $d/gemv-n-alone.c -lOpenCL
opts="-DWGS=1 -DWPT=1 -DVW=8 -DUNR=8 -DSTRM=2 -DROWS_PER_GROUP=0 -DFINISH=0"
for i in 1 2 3 4 5; do
  for a in 0 1; do
    echo -n "POCL_AFFINITY=$a: "
    POCL_AFFINITY=$a R=500 /tmp/gemv-n-alone 1024 1024 "$opts" 4 0 1 | sed 's/^.*splits/splits/'
  done
done
