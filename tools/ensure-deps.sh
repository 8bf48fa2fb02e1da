#!/usr/bin/env bash
# ensure-deps.sh — install what building and testing glicko2 needs on Debian,
# only where it is missing.  Extra packages can be named as arguments.
set -euo pipefail

packages=(make gcc postgresql-15 postgresql-server-dev-15 python3-networkx nodejs "$@")
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done
[ ${#missing[@]} -eq 0 ] && exit 0

if [ "$(id -u)" -ne 0 ]; then
  echo "missing packages: ${missing[*]} (run as root, or install them with apt-get)" >&2
  exit 1
fi
echo "installing: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
