#!/usr/bin/env bash
# ensure-deps.sh — install what building and testing glicko2 needs on Debian,
# only where it is missing.  Extra packages can be named as arguments.
# PG_MAJOR: the PostgreSQL whose server and server-dev packages it needs
# (default 15, Debian 12's; tools/debian-major.sh gives its chroot's).
set -euo pipefail
major=${PG_MAJOR:-15}

# python3-* and nodejs: test/shell/clients.sh (the client adapters);
# pg-bsd-indent: make indent and its check (tools/indent.sh), on the host's
# PostgreSQL only (test.sh says where it does not run the check).
indent=(); [ "$major" = 15 ] && indent=(pg-bsd-indent)
packages=(make gcc postgresql-"$major" postgresql-server-dev-"$major" "${indent[@]}" python3-networkx
          python3-psycopg python3-psycopg-pool python3-psycopg2 python3-asyncpg python3-sqlalchemy
          python3-pip python3-setuptools python3-wheel nodejs "$@")
missing=()
for p in "${packages[@]}"; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
done

# node-postgres for test/shell/clients.sh: Debian's node-pg where it installs
# (it needs Debian's nodejs), else clients/node's locked copy from npm.
node_pg() {
  NODE_PATH=/usr/share/nodejs:$PWD/clients/node/node_modules:$(npm root -g 2>/dev/null) node -e "require('pg')" >/dev/null 2>&1 && return
  if [ "$(id -u)" -eq 0 ] && apt-get install -y -qq --no-install-recommends node-pg </dev/null >/dev/null 2>&1; then
    return
  fi
  echo "node-pg not installable here: npm ci in clients/node"
  (cd clients/node && npm ci --no-audit --no-fund >/dev/null)
}
cd "$(dirname "$0")/.."
if [ ${#missing[@]} -eq 0 ]; then node_pg; exit; fi

if [ "$(id -u)" -ne 0 ]; then
  echo "missing packages: ${missing[*]} (run as root, or install them with apt-get)" >&2
  exit 1
fi
echo "installing: ${missing[*]}"
export DEBIAN_FRONTEND=noninteractive
apt-get update -qq
apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
node_pg
