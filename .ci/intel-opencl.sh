#!/usr/bin/env bash
# Intel's OpenCL runtime for CPUs, a second OpenCL implementation beside
# PoCL, installed as a user would: from PyPI (intel-opencl-rt, with
# intel-cmplr-lib-rt for the math libraries it links) into a virtual
# environment of its own, plus a folder holding one ICD file that points
# the loader at its libintelocl.so. The library finds its own libraries
# through its RUNPATH ($ORIGIN), so no LD_LIBRARY_PATH is needed. Running it
# again with the runtime in place does nothing. It prints that folder last:
#   OCL_ICD_VENDORS=<it> clinfo -l     Intel's platform alone
#   OCL_ICD_VENDORS=<it> ctest ...     the test suite on it
# Usage: .ci/intel-opencl.sh [DIR]
#   DIR  where it goes (default /opt/intel-opencl-rt as root, else
#        ~/.local/opt/intel-opencl-rt); the ICD folder is DIR/icd
#   INTEL_OPENCL_RT_VERSION  the PyPI release (default 2026.2.0)
set -euo pipefail
version=${INTEL_OPENCL_RT_VERSION:-2026.2.0}
if [ $# -gt 0 ]; then
  dir=$1
elif [ "$(id -u)" -eq 0 ]; then
  dir=/opt/intel-opencl-rt
else
  dir=$HOME/.local/opt/intel-opencl-rt
fi
mkdir -p "$dir"
dir=$(cd "$dir" && pwd)
icd=$dir/icd/intel-cpu.icd
lib=$dir/lib/libintelocl.so

installed() {
  [ -x "$dir/bin/pip" ] && [ -f "$lib" ] &&
    "$dir/bin/pip" show --disable-pip-version-check intel-opencl-rt intel-cmplr-lib-rt 2>/dev/null |
    grep -c "^Version: $version\$" | grep -qx 2
}
if ! installed; then
  echo "installing Intel's OpenCL runtime $version from PyPI into $dir" >&2
  [ -x "$dir/bin/python" ] || python3 -m venv "$dir"
  "$dir/bin/python" -m pip install --quiet --disable-pip-version-check \
    "intel-opencl-rt==$version" "intel-cmplr-lib-rt==$version" >&2
fi
[ -f "$lib" ] || { echo "intel-opencl-rt installed no $lib" >&2; exit 1; }
# The package's own ICD file names a placeholder path; ours names the library.
mkdir -p "$dir/icd"
[ "$(cat "$icd" 2>/dev/null)" = "$lib" ] || echo "$lib" > "$icd"
if command -v clinfo >/dev/null && ! OCL_ICD_VENDORS=$dir/icd clinfo -l 2>/dev/null | grep -q "Intel(R) OpenCL"; then
  echo "the OpenCL loader finds no Intel platform through $icd" >&2
  exit 1
fi
echo "$dir/icd"
