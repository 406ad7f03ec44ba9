#!/usr/bin/env bash
# Builds the PSGEMM example against the oclblas installed in PREFIX and runs
# it with 2 MPI processes on the default OpenCL device (PoCL in CI), small
# enough for CI (seconds):
#   1. the drop-in preloaded over the system BLAS, beta != 0: the result
#      checks, and every process's sgemm_ is the drop-in's and its last
#      local call ran on the device;
#   2. the program linked against the drop-in, odd sizes, a 2x1 grid, a
#      panel width of its own (--kb), negative alpha, and host memory copied
#      to device buffers as on a discrete GPU (OCLBLAS_HOST_ZERO_COPY=0);
#   3. the same program with the system BLAS alone (the comparison);
#   4. the check's self-test: one sampled element spoiled (--corrupt) must
#      fail the run.
# Every local call above HOST_MAX goes to the device (OCLBLAS_HOST_CALLS=
# device), so that the runs exercise oclblas rather than the cost model's
# choice of the host on a CPU device.
#   examples/scalapack/run.sh PREFIX
# Needs mpirun and ScaLAPACK (deps.sh installs them). Fails on the first
# check that does not hold.
set -euo pipefail
[ $# -eq 1 ] || { echo "usage: $0 PREFIX" >&2; exit 2; }
P=$(cd "$1" && pwd)
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d /tmp/oclblas-scalapack-XXXXXX)
trap 'rm -rf "$work"' EXIT
export OCLBLAS_CACHE_DIR=${OCLBLAS_CACHE_DIR:-$work/cache}
make -s -C "$here" OCLBLAS="$P" OUT="$work"

# Open MPI: allowed to run as root (CI is root), more processes than cores,
# no binding of a process to one core (oclblas and OpenBLAS use threads),
# shared memory without the single-copy mechanism (CMA), which containers
# often forbid, and its own launcher for processes of this machine (no ssh).
export OMPI_ALLOW_RUN_AS_ROOT=1 OMPI_ALLOW_RUN_AS_ROOT_CONFIRM=1
export OMPI_MCA_btl_vader_single_copy_mechanism=none OMPI_MCA_plm=isolated
mpirun=(mpirun --oversubscribe --bind-to none -np 2)
export OCLBLAS_HOST_CALLS=device
dropin=$P/lib/liboclblas_cblas.so.0

# run NAME EXPECTED_STATUS COMMAND...: the log in $work/NAME.log, shown.
run() {
  local name=$1 expect=$2 status=0
  shift 2
  echo "-- $name: $*"
  "$@" > "$work/$name.log" 2>&1 || status=$?
  cat "$work/$name.log"
  [ "$status" -eq "$expect" ] || { echo "$name: exit status $status, expected $expect"; return 1; }
}
# Every rank's line of the log matching a pattern: 2 of them.
both() { [ "$(grep -c -- "$2" "$work/$1.log")" -eq 2 ] || { echo "$1: not 2 lines with '$2'"; return 1; }; }

run preloaded 0 "${mpirun[@]}" -x LD_PRELOAD="$dropin" "$work/psgemm" --size 512 --nb 64 --beta 0.5 --devices "0:0"
grep -q "check ok" "$work/preloaded.log"
both preloaded "sgemm_ from .*liboclblas_cblas.so.0"
both preloaded "its last local sgemm_ in oclblas: on the device"

run linked 0 env OCLBLAS_HOST_ZERO_COPY=0 "${mpirun[@]}" "$work/psgemm-oclblas" --m 500 --n 384 --k 448 --nb 48 \
  --kb 128 --grid 2x1 --alpha -1.5 --beta 0.25 --devices "0:0"
grep -q "check ok" "$work/linked.log"
grep -q "PBLAS panel width 128 (--kb)" "$work/linked.log"
both linked "sgemm_ from .*liboclblas_cblas.so.0"
both linked "its last local sgemm_ in oclblas: on the device"
if grep -q "ms, 0 GB to the device" "$work/linked.log"; then # copied, not in place
  echo "linked: a last local call moved nothing over the bus"
  exit 1
fi

run system-blas 0 "${mpirun[@]}" "$work/psgemm" --size 512 --nb 64 --beta 0.5
grep -q "check ok" "$work/system-blas.log"
both system-blas "oclblas not in the process"

run corrupt 1 "${mpirun[@]}" -x LD_PRELOAD="$dropin" "$work/psgemm" --size 256 --nb 32 --corrupt --reps 1
grep -q "check FAILED" "$work/corrupt.log"
echo "scalapack: all runs as expected"
