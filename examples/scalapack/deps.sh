#!/usr/bin/env bash
# What the ScaLAPACK example needs beyond oclblas's own dependencies, on
# Debian: Open MPI's mpirun and ScaLAPACK built for Open MPI (with BLACS).
#   examples/scalapack/deps.sh          installs them where missing (apt-get,
#                                       sudo unless root), then checks
#   examples/scalapack/deps.sh --check  only checks: status 0 when mpirun is
#                                       there and a program links ScaLAPACK
set -euo pipefail
pkgs="libscalapack-openmpi-dev openmpi-bin"

present() {
  command -v mpirun > /dev/null &&
    printf 'void psgemm_(void);\nint main(void) { psgemm_(); return 0; }\n' |
    ${CC:-cc} -x c - -o /dev/null -lscalapack-openmpi > /dev/null 2>&1
}

if [ "${1:-}" = --check ]; then
  present
  exit
fi
"$(dirname "$0")"/../../tools/apt-ensure.sh $pkgs
present || { echo "deps.sh: mpirun or ScaLAPACK (-lscalapack-openmpi) still missing" >&2; exit 1; }
