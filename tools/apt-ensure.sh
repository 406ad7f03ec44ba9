#!/usr/bin/env bash
# Installs those of the Debian packages named as arguments that are not
# installed yet (with sudo when not root), quietly; does nothing when all
# are. Shared by ./run.sh and the examples' dependency scripts.
set -euo pipefail
missing=""
for p in "$@"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
[ -n "$missing" ] || exit 0
echo "installing:$missing"
sudo=""
[ "$(id -u)" -ne 0 ] && sudo="sudo"
export DEBIAN_FRONTEND=noninteractive
$sudo apt-get update -qq
$sudo apt-get install -y -qq --no-install-recommends $missing > /dev/null
