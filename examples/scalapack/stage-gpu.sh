#!/usr/bin/env bash
# Stages Open MPI and ScaLAPACK for the lent GPU machines, beside what
# ../shared/gpu/stage.sh stages (the OpenCL loader, OpenBLAS, gfortran's
# runtime): that machine reaches no package registry, so the Debian packages
# travel as .deb files in .device/ at the project root, which .device/env.sh
# unpacks there (into /tmp/devroot, on LD_LIBRARY_PATH); gpu.sh beside this
# script unpacks them itself when env.sh ran before they were staged.
# Run on the development machine (Debian 12), from anywhere in the checkout,
# after ../shared/gpu/stage.sh.
#
# The packages (found with apt-cache depends on libscalapack-openmpi-dev and
# openmpi-bin, then ldd on mpirun, libmpi, libscalapack and every Open MPI
# component):
# - .device/debs: ScaLAPACK, Open MPI and every library they or Open MPI's
#   components load that a machine without MPI need not have. Unpacked
#   first on LD_LIBRARY_PATH, so libraries that every glibc system has are
#   left out: libc6, libgcc-s1, libstdc++6.
# - .device/debs-fallback: libraries that a base Debian or Ubuntu image
#   has (zlib, udev, uuid, libatomic, libquadmath): an older copy first on
#   LD_LIBRARY_PATH could shadow the machine's newer one, so gpu.sh unpacks
#   these elsewhere and adds them at the end of the path, only when ldd
#   finds them missing there.
# Not staged: libhwloc-plugins (hwloc's optional plugins and their X11
# libraries: hwloc runs without them), openssh-client (Open MPI starts the
# processes of one machine itself; gpu.sh selects its `isolated` launcher).
# Not checkable here: whether the GPU machine's image lacks anything else
# these need; gpu.sh prints every library ldd finds missing before it runs.
set -euo pipefail
root=$(git rev-parse --show-toplevel)
cd "$root"
mkdir -p .device/debs .device/debs-fallback
pkgs="libscalapack-openmpi2.2 libscalapack-openmpi-dev openmpi-bin openmpi-common libopenmpi3
      libevent-core-2.1-7 libevent-pthreads-2.1-7 libhwloc15 libpmix2 libmunge2 libfabric1 librdmacm1
      libibverbs1 ibverbs-providers libnl-3-200 libnl-route-3-200 libpsm2-2 libpsm-infinipath1 libucx0 libnuma1"
fallback="zlib1g libudev1 libuuid1 libatomic1 libquadmath0"
[ -n "$(ls /var/lib/apt/lists 2>/dev/null | grep -v lock | head -1)" ] || apt-get update -qq
download() { # folder, packages: each once
  local dir=$1 p
  shift
  for p in "$@"; do
    ls "$dir/${p}_"*.deb > /dev/null 2>&1 && continue
    (cd "$dir" && apt-get download "$p" 2>&1 | grep -v '^W: Download is performed unsandboxed' || true)
    ls "$dir/${p}_"*.deb > /dev/null 2>&1 || { echo "stage-gpu: could not download $p" >&2; exit 1; }
  done
}
download .device/debs $pkgs
download .device/debs-fallback $fallback
echo "staged for ScaLAPACK: $(echo $pkgs | wc -w) packages in .device/debs, $(echo $fallback | wc -w) in" \
  ".device/debs-fallback ($(du -sh .device | cut -f1) in .device); on the GPU machine:" \
  "source .device/env.sh && examples/scalapack/gpu.sh OUT"
