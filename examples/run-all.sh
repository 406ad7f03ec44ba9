#!/usr/bin/env bash
# Builds and runs every example against an installed oclblas, as a user of
# that installed tree would: nothing from the build tree, LD_LIBRARY_PATH
# and LD_PRELOAD unset, the prefix anywhere (CI uses a temporary folder
# outside the loader's path, so the installed run paths are what is tested).
#
#   examples/run-all.sh PREFIX [PYTHON]
#
# PREFIX: where `cmake --install build --prefix PREFIX` put oclblas.
# PYTHON: an interpreter whose environment has the Python package installed
# (`pip install .` from the checkout, which bundles its own build of the
# library; CI installs the wheel into a fresh virtual environment), with
# numpy, pytest, matplotlib (and pyopencl for oclblas.cl's tests); with it,
# the package's example and tests run against that installed package, and
# oclblas-bench --png draws with it. Without it the Python parts are left
# out (and said so).
#
# Each example prints its result; this script prints a line per example and
# "examples: N passed, N failed" at the end, and fails if any did.
set -euo pipefail
[ $# -ge 1 ] || { echo "usage: $0 PREFIX [PYTHON]" >&2; exit 2; }
P=$(cd "$1" && pwd)
PY=${2:-}
if [ -n "$PY" ]; then # an absolute path that keeps a virtual environment's own link
  PY=$(command -v "$PY")
  case $PY in /*) ;; *) PY=$(cd "$(dirname "$PY")" && pwd)/$(basename "$PY") ;; esac
fi
src=$(cd "$(dirname "$0")/.." && pwd)
work=$(mktemp -d /tmp/oclblas-examples-XXXXXX)
trap 'rm -rf "$work"' EXIT
unset LD_LIBRARY_PATH LD_PRELOAD
export OCLBLAS_CACHE_DIR=$work/cache # one compile for all examples, and nothing left in ~/.cache
export PKG_CONFIG_PATH=$P/lib/pkgconfig
libdir=$P/lib
cc=${CC:-cc}

passed=0 failed=0 failures=""
run() {
  local name=$1
  shift
  echo "== $name"
  set +e
  (set -e; "$@")
  local rc=$?
  set -e
  if [ $rc -eq 0 ]; then
    passed=$((passed + 1))
    echo "-- $name: passed"
  else
    failed=$((failed + 1))
    failures="$failures $name"
    echo "-- $name: FAILED (status $rc)"
  fi
}

# What `cmake --install` promises (docs/install.md).
installed_tree() {
  for f in lib/liboclblas.so.0 lib/liboclblas_cblas.so.0 lib/pkgconfig/oclblas.pc lib/pkgconfig/oclblas_cblas.pc \
           lib/cmake/oclblas/oclblasConfig.cmake include/oclblas.h include/oclblas_cblas.h \
           bin/oclblas-bench bin/oclblas-tune share/oclblas/plot.py; do
    [ -e "$P/$f" ] || { echo "missing: $P/$f"; return 1; }
  done
}

# Installed tools find the libraries by their run path, and oclblas-bench
# finds plot.py beside its installed self, run from anywhere (here: through
# PATH, from another folder).
tools() {
  cd "$work"
  PATH=$P/bin:$PATH oclblas-bench --sizes 48 --routine all --peers none --quiet --csv bench.csv
  grep -q '^sgemm,row,N,N,48,48,48,' bench.csv
  PATH=$P/bin:$PATH oclblas-bench --first-call 64 --peers none
  "$P/bin/oclblas-tune" --help > /dev/null
  if [ -n "$PY" ]; then
    OCLBLAS_BENCH_PYTHON=$PY PATH=$P/bin:$PATH oclblas-bench --sizes 32,64 --routine gemm --peers none --quiet \
      --png bench.png
    [ "$(head -c 4 bench.png | tail -c 3)" = "PNG" ]
  fi
}

# pkg-config: OpenCL comes with oclblas (a public requirement), so a
# program that calls OpenCL itself links with nothing more. The consumer
# gives its programs a run path to the prefix, as for any library outside
# the loader's path.
pkgconfig_host_api() {
  "$cc" -std=c11 -Wall -Wextra -Werror "$src/examples/c/host_api.c" -o "$work/host_api" \
    $(pkg-config --cflags --libs oclblas) -Wl,-rpath,"$(pkg-config --variable=libdir oclblas)" -lm
  "$work/host_api"
}
pkgconfig_device_buffers() {
  "$cc" -std=c11 -Wall -Wextra -Werror "$src/examples/c/device_buffers.c" -o "$work/device_buffers" \
    $(pkg-config --cflags --libs oclblas) -Wl,-rpath,"$(pkg-config --variable=libdir oclblas)" -lm
  "$work/device_buffers"
}
pkgconfig_dropin() {
  "$cc" -std=c11 -Wall -Wextra -Werror "$src/examples/c/dropin.c" -o "$work/dropin" \
    $(pkg-config --cflags --libs oclblas_cblas) -Wl,-rpath,"$(pkg-config --variable=libdir oclblas_cblas)" -lm
  "$work/dropin"
}

# find_package(oclblas) from a C++ project that targets OpenCL 3.0.
cmake_consumer() {
  cmake -S "$src/examples/cmake" -B "$work/cmake" -DCMAKE_PREFIX_PATH="$P" -DCMAKE_BUILD_TYPE=Release > /dev/null
  cmake --build "$work/cmake" > /dev/null
  "$work/cmake/oclblas_cmake_example"
}

# Fortran linked against the drop-in (liboclblas_cblas finds liboclblas by
# its own run path, at link time and at run time), and the same program
# linked against the system BLAS with the drop-in preloaded from the prefix.
fortran() {
  gfortran "$src/examples/fortran/sgemm.f90" -o "$work/fortran" -L"$libdir" -loclblas_cblas -Wl,-rpath,"$libdir"
  OCLBLAS_VERBOSE=1 "$work/fortran" 2> "$work/fortran.log"
  grep -q "oclblas: sgemm " "$work/fortran.log"
}
preload() {
  LD_PRELOAD=$libdir/liboclblas_cblas.so.0 python3 -c 'print("python3 started with the drop-in preloaded")' \
    2> "$work/preload.log"
  if [ -s "$work/preload.log" ]; then cat "$work/preload.log"; return 1; fi
  if ! pkg-config --exists blas; then
    echo "no system BLAS (pkg-config blas): the preloaded Fortran program is left out"
    return 0
  fi
  gfortran "$src/examples/fortran/sgemm.f90" -o "$work/fortran-blas" $(pkg-config --libs blas)
  LD_PRELOAD=$libdir/liboclblas_cblas.so.0 OCLBLAS_VERBOSE=1 "$work/fortran-blas" 2> "$work/preload.log"
  grep -q "oclblas: sgemm " "$work/preload.log" # reached oclblas, not the system BLAS
  grep -q "oclblas: sgemv " "$work/preload.log"
}

# ScaLAPACK's PSGEMM over 2 MPI processes whose local sgemm_ the drop-in
# serves, preloaded and linked (examples/scalapack/run.sh); where Open MPI
# and ScaLAPACK are installed (examples/scalapack/deps.sh installs them, as
# CI does).
scalapack() {
  "$src/examples/scalapack/run.sh" "$P"
}

# The Python package installed in PYTHON's environment: its example and
# tests run from outside the checkout, so that they import the installed
# package, which must load the library it bundles (OCLBLAS_TEST_INSTALLED).
python_package() {
  cd "$work"
  "$PY" "$src/examples/python/example.py"
  OCLBLAS_TEST_INSTALLED=1 "$PY" -m pytest -q -p no:cacheprovider "$src/python/tests"
}

run installed-tree installed_tree
run tools tools
run pkg-config-host-api pkgconfig_host_api
run pkg-config-device-buffers pkgconfig_device_buffers
run pkg-config-dropin pkgconfig_dropin
run cmake-consumer cmake_consumer
run fortran fortran
run preload preload
if "$src/examples/scalapack/deps.sh" --check; then
  run scalapack scalapack
else
  echo "no mpirun or ScaLAPACK (examples/scalapack/deps.sh installs them): the ScaLAPACK example is left out"
fi
if [ -n "$PY" ]; then
  run python python_package
else
  echo "no PYTHON given: the Python package's example and tests are left out"
fi
echo "examples: $passed passed, $failed failed${failures:+ (failed:$failures)}"
[ "$failed" -eq 0 ]
