#!/usr/bin/env bash
# On a lent H100, from the project root: build each gemm_fast source named
# (default: the kernel before and the versions tried, patches here;
# FILE.cl@OPTIONS adds options) with NVIDIA's
# OpenCL for every set in sets.txt (the options the library passes, -D for
# every parameter and derived size) and print ptxas's registers and spill
# stores for sm_90.
#   bash bench/results/nvidia-h100/ragged/tried/registers/registers.sh [FILE.cl[@OPTIONS] ...]
source .device/env.sh
here=bench/results/nvidia-h100/ragged/tried/registers
# The versions tried: each a patch on the kernel before (1a2241e).
git show 1a2241e:kernels/gemm_fast.cl > /tmp/before.cl
for v in first-k-tile rest-after-loop rest-before-loop ragged-k-program; do
  patch -s -o /tmp/$v.cl /tmp/before.cl $here/$v.patch
done
if [ $# -eq 0 ]; then
  set -- /tmp/before.cl /tmp/first-k-tile.cl /tmp/rest-after-loop.cl /tmp/rest-before-loop.cl \
    /tmp/ragged-k-program.cl@-DRAGGED_K=0 /tmp/ragged-k-program.cl@-DRAGGED_K=1
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
