#!/usr/bin/env bash
# The measurements of issue 28 on a machine with 2 GPUs (nvidia-h100-x2 or
# nvidia-h200-x2): ScaLAPACK's PSGEMM over 2 MPI processes, one GPU each,
# their local sgemm_ by oclblas (the drop-in preloaded) and, for
# comparison, by OpenBLAS; and one process using both GPUs through
# oclblas's host-pointer path (oclblas-hostcheck, OCLBLAS_DEVICE naming
# both). Every PSGEMM result is checked on 64 sampled elements against
# float64 (psgemm exits 1 otherwise), and so is every oclblas-hostcheck one.
#
#   examples/scalapack/stage-gpu.sh                      (here, once, after ../shared/gpu/stage.sh)
#   source .device/env.sh && examples/scalapack/gpu.sh OUT [STEPS]   (there, from the project root)
#
# STEPS, in the order given (default: build small large host):
#   build   oclblas (liboclblas, the drop-in, oclblas-hostcheck) in $BUILD
#           (default build-gpu) and the example into OUT/bin; the machine's
#           GPUs, cores, memory and the BLAS libraries into OUT/machine.txt
#   small   N = 8192: oclblas with NB 256 and 1024, each with PBLAS's panel
#           width (32) and with --kb 1024 and 8192; the first again with
#           OCLBLAS_VERBOSE=1, a log per process and a summary of where
#           each local call went; OpenBLAS with NB 256, panel widths 32 and
#           1024 (and with OPENBLAS_CORETYPE set to the CPU's best kernels
#           when Debian's OpenBLAS chose its generic Prescott ones)
#   large   N = 32768: oclblas with NB 1024, --kb 4096 and 32768 (one
#           local call per process); one
#           process with both GPUs (a 1x1 grid: one local call); and
#           N = 16384 with PBLAS's own panel width, once
#   host    oclblas-hostcheck at 8192 and 32768 on both GPUs and on one
# A step takes a few minutes (the lent machine runs one command for at most
# 10): run `build small` and `large host` as two commands on the same
# machine if need be.
#
# OUT gets: results.txt (everything printed), psgemm.csv (a row per PSGEMM
# run), hostcheck.txt, verbose-rank0.log, verbose-rank1.log,
# verbose-summary.txt, machine.txt, build.log.
# Environment: BUILD, REPS (timed PSGEMM calls after the first, default 2),
# N_SMALL, N_MID, N_LARGE (8192, 16384, 32768: smaller ones make a dry run
# of the whole script on any OpenCL device, e.g. PoCL),
# MPI_SINGLE_COPY (Open MPI's shared-memory single copy: none, the
# default, as containers often forbid CMA; cma to try it), MPI_BTL (Open
# MPI's transports, default self,vader: shared memory; self,tcp if that
# fails there).
set -uo pipefail
out=${1:?usage: gpu.sh OUT [build] [small] [large] [host]}
shift
steps=${*:-build small large host}
root=$(cd "$(dirname "$0")/../.." && pwd)
cd "$root"
mkdir -p "$out/bin"
out=$(cd "$out" && pwd)
build=${BUILD:-build-gpu}
reps=${REPS:-2}
small=${N_SMALL:-8192} mid=${N_MID:-16384} large=${N_LARGE:-32768}
t0=$(date +%s)
stamp() { echo "[$(($(date +%s) - t0)) s] $*" | tee -a "$out/results.txt"; }

# Open MPI and ScaLAPACK, staged by stage-gpu.sh: unpacked here if env.sh
# ran before they were staged, and told where they now live (OPAL_PREFIX).
devroot=${DEVROOT:-/tmp/devroot}
if [ ! -x "$devroot/usr/bin/orterun" ]; then
  ls .device/debs/openmpi-bin_*.deb > /dev/null 2>&1 || { echo "no Open MPI in .device/debs: run stage-gpu.sh first" >&2; exit 2; }
  for f in .device/debs/*.deb; do dpkg -x "$f" "$devroot"; done
fi
lib=$devroot/usr/lib/x86_64-linux-gnu
export OPAL_PREFIX=$devroot/usr PMIX_MCA_mca_base_component_path=$lib/pmix2/lib/pmix PATH=$devroot/usr/bin:$PATH
# (Debian 12 still puts a few libraries, libnl among them, under /lib.)
export LD_LIBRARY_PATH=$lib:$lib/openblas-pthread:$devroot/lib/x86_64-linux-gnu:${LD_LIBRARY_PATH:-}
export LIBRARY_PATH=$lib:$lib/openblas-pthread:${LIBRARY_PATH:-}
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1 OMPI_MCA_plm=isolated
export OMPI_MCA_btl_vader_single_copy_mechanism=${MPI_SINGLE_COPY:-none}
export OMPI_MCA_pml=ob1 OMPI_MCA_btl=${MPI_BTL:-self,vader}
export OCLBLAS_CACHE_DIR=$out/cache
mpirun=("$devroot/usr/bin/orterun" --bind-to none)
cores=$(nproc)
half=$((cores / 2))

# The GPUs as OpenCL indices P:D, one per process.
gpus=$(clinfo -l 2>/dev/null | awk '/^Platform #/ { p = $2; gsub(/[#:]/, "", p) }
  /Device #/ && /NVIDIA|GPU/ { d = $0; sub(/.*Device #/, "", d); sub(/:.*/, "", d); printf "%s%s:%s", sep, p, d; sep = " " }')
gpu_list=$(echo "$gpus" | tr ' ' ',')
[ "$(echo "$gpus" | wc -w)" -ge 2 ] || echo "gpu.sh: fewer than 2 GPUs found by clinfo -l ('$gpus')" | tee -a "$out/results.txt"

# Libraries still missing from the process's search path: the fallback
# packages (libraries a base image has) are added at the end of it.
missing_libs() { ldd "$@" 2>/dev/null | awk '/not found/ { print $1 }' | sort -u; }
fallback_if_missing() {
  [ -n "$(missing_libs "$@")" ] || return 0
  mkdir -p /tmp/devroot-fallback
  for f in .device/debs-fallback/*.deb; do dpkg -x "$f" /tmp/devroot-fallback; done
  export LD_LIBRARY_PATH=$LD_LIBRARY_PATH:/tmp/devroot-fallback/usr/lib/x86_64-linux-gnu:/tmp/devroot-fallback/lib/x86_64-linux-gnu
  echo "added the fallback libraries for: $(missing_libs "$@" | tr '\n' ' ')" | tee -a "$out/results.txt"
}

# psgemm LABEL NP [VAR=VALUE...] -- ARGS: one PSGEMM run, the drop-in
# preloaded unless LABEL starts with openblas; its output to results.txt.
psgemm() {
  local label=$1 np=$2 envs=()
  shift 2
  while [ "$1" != -- ]; do envs+=(-x "$1"); shift; done
  shift
  local pre=()
  case "$label" in openblas*) ;; *) pre=(-x "LD_PRELOAD=$root/$build/cblas/liboclblas_cblas.so.0") ;; esac
  local threads=$((cores / np))
  stamp "psgemm $label: $np process(es), $*"
  "${mpirun[@]}" -np "$np" -x OPENBLAS_NUM_THREADS=$threads -x OCLBLAS_HOST_THREADS=$threads "${pre[@]}" \
    "${envs[@]}" "$out/bin/psgemm" --reps "$reps" --csv "$out/psgemm.csv" "$@" 2>&1 | tee -a "$out/results.txt"
  local rc=${PIPESTATUS[0]}
  [ "$rc" -eq 0 ] || { status=1; echo "exit status $rc" | tee -a "$out/results.txt"; }
}

# The CPU's best OpenBLAS kernels, for when Debian's chose the generic ones.
best_core() { grep -q avx512f /proc/cpuinfo && echo SkylakeX || echo Haswell; }

fallback_if_missing "$devroot/usr/bin/orterun" $([ -x "$out/bin/psgemm" ] && echo "$out/bin/psgemm")
status=0
for step in $steps; do
  case "$step" in
    build)
      stamp "build"
      { cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release &&
        cmake --build "$build" -j"$cores" --target oclblas oclblas_cblas oclblas-hostcheck &&
        make -C examples/scalapack OCLBLAS_INC="$root/include" OCLBLAS_LIB="$root/$build/cblas" OUT="$out/bin"; } \
        > "$out/build.log" 2>&1 || { tail -30 "$out/build.log"; exit 1; }
      fallback_if_missing "$out/bin/psgemm" "$devroot/usr/bin/orterun" "$root/$build/cblas/liboclblas_cblas.so.0"
      {
        echo "date: $(date -u +%Y-%m-%dT%H:%MZ); commit: $(git rev-parse --short HEAD 2>/dev/null)"
        echo "GPUs (OpenCL P:D): $gpus"
        clinfo -l 2>&1
        nvidia-smi --query-gpu=index,name,pci.bus_id,memory.total --format=csv 2>&1
        echo "host: $cores processors ($(grep -m1 'model name' /proc/cpuinfo | cut -d: -f2)), $(free -g | awk '/Mem:/ {print $2}') GiB"
        "${mpirun[@]}" --version 2>&1 | head -1
        echo "libraries missing: $(missing_libs "$out/bin/psgemm" "$devroot/usr/bin/orterun" | tr '\n' ' ')"
      } > "$out/machine.txt"
      cat "$out/machine.txt"
      ;;
    small)
      for nb in 256 1024; do
        for kb in "" 1024 8192; do
          psgemm "oclblas" 2 -- --size "$small" --nb "$nb" ${kb:+--kb $kb} --devices "$gpus"
        done
      done
      stamp "psgemm oclblas, OCLBLAS_VERBOSE=1: where each local call went"
      "${mpirun[@]}" -np 2 -x OPENBLAS_NUM_THREADS=$half -x OCLBLAS_HOST_THREADS=$half -x OCLBLAS_VERBOSE=1 \
        -x "LD_PRELOAD=$root/$build/cblas/liboclblas_cblas.so.0" \
        sh -c 'exec "$0" "$@" 2> "'"$out"'/verbose-rank$OMPI_COMM_WORLD_RANK.log"' \
        "$out/bin/psgemm" --size "$small" --nb 256 --reps 1 --devices "$gpus" | tee -a "$out/results.txt"
      [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
      for r in 0 1; do
        echo "== rank $r ($out/verbose-rank$r.log)"
        awk '/oclblas: sgemm [0-9]+x[0-9]+x[0-9]+ [NT][NT]:/ {
               if (/[NT][NT]: on the host by/) host++
               else if (/[NT][NT]: [0-9]+ devices?, .* tiles of/ || /[NT][NT]: device .* in place \(/) dev++
               if (match($0, /: [0-9.]+ ms \(/)) { s = substr($0, RSTART + 2); ms += s + 0 }
               if (match($0, /[0-9.e+-]+ GB to the device/)) to += substr($0, RSTART) + 0
               if (match($0, /and [0-9.e+-]+ GB back/)) back += substr($0, RSTART + 4) + 0
               if (/cost model/ && !shown++) print "  e.g. " $0 }
             END { printf "  local calls: %d on the host, %d on the device: %.1f ms in the device calls, %.3g GB to the device, %.3g GB back\n", host, dev, ms, to, back }' \
          "$out/verbose-rank$r.log"
        grep -m2 -E "default device|host BLAS" "$out/verbose-rank$r.log" | sed 's/^/  /'
      done | tee "$out/verbose-summary.txt" | tee -a "$out/results.txt"
      for kb in "" 1024; do
        psgemm "openblas" 2 -- --size "$small" --nb 256 ${kb:+--kb $kb}
      done
      if grep -q "kernels for Prescott" "$out/results.txt"; then
        psgemm "openblas-$(best_core)" 2 OPENBLAS_CORETYPE="$(best_core)" -- --size "$small" --nb 256 --kb 1024
      fi
      ;;
    large)
      for kb in 4096 "$large"; do # the second: one local call per process
        psgemm "oclblas" 2 -- --size "$large" --nb 1024 --kb "$kb" --devices "$gpus"
      done
      psgemm "oclblas-1process-2gpus" 1 -- --size "$large" --nb 1024 --devices "$gpu_list"
      reps=1 psgemm "oclblas" 2 -- --size "$mid" --nb 1024 --devices "$gpus"
      ;;
    host)
      for list in "$gpu_list" "${gpu_list%%,*}"; do
        stamp "oclblas-hostcheck, one process, OCLBLAS_DEVICE=$list"
        OCLBLAS_DEVICE=$list "$build/bench/oclblas-hostcheck" --sizes "$small,$large" --reps 3 2>&1 |
          tee -a "$out/hostcheck.txt" | tee -a "$out/results.txt"
        [ "${PIPESTATUS[0]}" -eq 0 ] || status=1
      done
      ;;
    *) echo "unknown step $step" >&2; exit 2 ;;
  esac
done
stamp "done, exit $status"
exit $status
