#!/usr/bin/env bash
# oclblas: set up, build and run, on a Debian machine.
#   ./run.sh          install what is missing, build, and benchmark SGEMM and SGEMV
#                     against OpenBLAS (and CLBlast) on the default OpenCL device
#   ./run.sh test     install what is missing, build, and run the tests but the slow ones
#                     (ctest label slow; a few minutes on 2 cores)
#   ./run.sh test all the same with every test, as CI runs them
#   ./run.sh build    only install and build
# Extra arguments after "bench" go to oclblas-bench, e.g. ./run.sh bench --preset quick
set -euo pipefail
cd "$(dirname "$0")"
what=${1:-bench}
[ $# -gt 0 ] && shift
case "$what" in
  build | bench) ;;
  test) [ $# -eq 0 ] || [ "$*" = all ] || { echo "usage: $0 test [all]" >&2; exit 2; } ;;
  *) echo "usage: $0 [bench [options] | test [all] | build]" >&2; exit 2 ;;
esac

pkgs="build-essential cmake pkgconf gfortran ocl-icd-opencl-dev opencl-headers pocl-opencl-icd clinfo
      libopenblas-dev libcmocka-dev libclblast1 python3 python3-venv"
tools/apt-ensure.sh $pkgs

build=${OCLBLAS_BUILD_DIR:-build}
cmake -S . -B "$build" -DCMAKE_BUILD_TYPE=Release ${OCLBLAS_CMAKE_ARGS:-} >/dev/null
cmake --build "$build" -j"$(nproc)"

case "$what" in
  build) ;;
  test)
    if [ "${1:-}" = all ]; then
      ctest --test-dir "$build" --output-on-failure -j1
    else
      ctest --test-dir "$build" --output-on-failure -j1 --label-exclude '^slow$'
    fi
    ;;
  bench) "$build/bench/oclblas-bench" "$@" ;;
esac
