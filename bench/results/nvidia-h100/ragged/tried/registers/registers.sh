#!/usr/bin/env bash
# On a lent H100, from the project root: build each gemm_fast source named
# (default: the ones below; FILE.cl@OPTIONS adds options) with NVIDIA's
# OpenCL for every set in sets.txt (the options the library passes, -D for
# every parameter and derived size) and print ptxas's registers and spill
# stores for sm_90.
#   bash bench/results/nvidia-h100/ragged/tried/registers/registers.sh [FILE.cl[@OPTIONS] ...]
source .device/env.sh
here=bench/results/nvidia-h100/ragged/tried/registers
if [ $# -eq 0 ]; then
  git show 1a2241e:kernels/gemm_fast.cl > /tmp/before.cl # main before
  set -- /tmp/before.cl $here/first-k-tile.cl $here/rest-after-loop.cl $here/rest-before-loop.cl \
    $here/ragged-k-program.cl@-DRAGGED_K=0 $here/ragged-k-program.cl@-DRAGGED_K=1
fi
gcc -O2 -o /tmp/ptx $here/ptx.c -lOpenCL
while read -r opts; do
  echo "== $opts"
  for spec in "$@"; do
    f=${spec%%@*} extra=
    [ "$spec" != "$f" ] && extra=${spec#*@}
    /tmp/ptx "$f" "-cl-std=CL1.2 $opts -DOCLBLAS_NVIDIA=1 $extra" > /tmp/k.bin || { echo "  $spec: build failed"; continue; }
    python3 -c "import sys; b=open('/tmp/k.bin','rb').read(); i=b.find(b'.version'); j=b.find(b'\\0',i); sys.stdout.write(b[i:(j if j>0 else len(b))].decode('latin1'))" > /tmp/k.ptx
    echo "  $(basename "$spec"): $(/usr/local/cuda/bin/ptxas -arch=sm_90 -v /tmp/k.ptx -o /tmp/k.cubin 2>&1 | grep -oE "Used [0-9]+ registers|[0-9]+ bytes spill stores" | tr '\n' ' ')"
  done
done < $here/sets.txt
