#!/usr/bin/env bash
# debian-major.sh SUITE MAJOR — the whole suite (bash test.sh: the build with
# -Werror and assertions, unit, pg_regress, isolation and shell tests) on
# PostgreSQL MAJOR as Debian SUITE ships it, in a `debootstrap --variant=minbase`
# chroot of Debian's own packages.  Run as root.  For example
#   bash tools/debian-major.sh trixie 17
#   bash tools/debian-major.sh sid 18
#   bash tools/debian-major.sh experimental 19   # sid, PostgreSQL from experimental
#
# The chroot is built outside the checkout, in $GLICKO2_CHROOTS (default
# /var/tmp/glicko2-chroots/SUITE-MAJOR), and kept: a later run updates its
# packages instead of building it again (GLICKO2_CHROOT_FRESH=1 rebuilds it).
# The checkout's tracked files are copied in; /proc and /dev/shm are mounted
# while it runs and unmounted on exit.  The mirror is the one this machine's
# apt uses (/etc/apt/sources.list*), or $DEBIAN_MIRROR.
#
# Prints test.sh's output, whose last line is "N passed, N failed", and exits
# 0 when everything passed, 1 when something failed, and 3 (with one line
# starting "UNAVAILABLE") when the mirror cannot be reached or a package
# cannot be installed: then nothing was tested.
set -uo pipefail
cd "$(dirname "$0")/.."
[ $# -eq 2 ] || { echo "usage: $0 SUITE MAJOR (e.g. trixie 17, sid 18, experimental 19)" >&2; exit 2; }
suite=$1 major=$2
[ "$(id -u)" -eq 0 ] || { echo "$0: debootstrap and chroot need root" >&2; exit 2; }
what="PostgreSQL $major (Debian $suite)"
unavailable() { echo "UNAVAILABLE  $what: $* -- not tested"; exit 3; }

# The mirror: the first Debian archive (not -security) apt is configured with.
mirror=${DEBIAN_MIRROR:-$(cat /etc/apt/sources.list /etc/apt/sources.list.d/*.list \
  /etc/apt/sources.list.d/*.sources 2>/dev/null |
  sed -nE 's,^(URIs:|deb)[[:space:]]+(\[[^]]*\][[:space:]]+)?(https?://[^[:space:]]*/debian)/?([[:space:]].*)?$,\3,p' | head -1)}
[ -n "$mirror" ] || unavailable "no Debian mirror in /etc/apt/sources.list*"

# experimental is not a whole distribution: a sid chroot whose PostgreSQL
# (server, server-dev, client, libpq) comes from experimental.
base=$suite
[ "$suite" = experimental ] && base=sid
pg_packages=(postgresql-"$major" postgresql-server-dev-"$major" postgresql-client-"$major" libpq5 libpq-dev)

root=${GLICKO2_CHROOTS:-/var/tmp/glicko2-chroots}/$suite-$major
mkdir -p "$(dirname "$root")"
# One run per chroot at a time.
exec 9>"$root.lock"
flock 9

mounted=()
cleanup() {
  # Servers a test left running in the chroot (found by their root directory).
  local p
  for p in /proc/[0-9]*; do
    [ "$(readlink "$p/root" 2>/dev/null)" = "$root" ] && kill -9 "${p#/proc/}" 2>/dev/null
  done
  local i
  for ((i = ${#mounted[@]} - 1; i >= 0; i--)); do umount -l "${mounted[i]}" 2>/dev/null; done
}
trap cleanup EXIT
mount_in() { # type target
  mkdir -p "$2"
  mountpoint -q "$2" || { mount -t "$1" "$1" "$2" && mounted+=("$2"); }
}
in_root() { chroot "$root" /usr/bin/env -i PATH=/usr/sbin:/usr/bin:/sbin:/bin HOME=/root \
  LANG=C.UTF-8 DEBIAN_FRONTEND=noninteractive "$@"; }

release=$mirror/dists/$base/Release
if ! curl -fsS -o /dev/null --max-time 30 "$release" 2>/dev/null &&
   ! wget -q -O /dev/null --timeout=30 "$release" 2>/dev/null; then
  unavailable "mirror $mirror unreachable ($release)"
fi

# The setup's output, named in the UNAVAILABLE line when it fails.
setup_log=$root.setup.log
: >"$setup_log"
# A chroot left half-built (or GLICKO2_CHROOT_FRESH) is built again; what an
# interrupted run left mounted in it is unmounted first.
if [ -n "${GLICKO2_CHROOT_FRESH:-}" ] || [ ! -e "$root/.glicko2-ready" ]; then
  awk -v r="$root/" 'index($2, r) == 1 { print $2 }' /proc/mounts | sort -r | xargs -r umount -l
  rm -rf --one-file-system "$root"
  echo "== debootstrap --variant=minbase $base $root ($mirror)"
  debootstrap --variant=minbase "$base" "$root" "$mirror" >>"$setup_log" 2>&1 ||
    unavailable "debootstrap $base from $mirror failed ($setup_log)"
  # The mirror's unstable and experimental Release files can be past their
  # Valid-Until; no service starts in the chroot, no cluster is created.
  echo 'Acquire::Check-Valid-Until "false";' >"$root/etc/apt/apt.conf.d/99glicko2"
  printf '#!/bin/sh\nexit 101\n' >"$root/usr/sbin/policy-rc.d"
  chmod 755 "$root/usr/sbin/policy-rc.d"
  mkdir -p "$root/etc/postgresql-common/createcluster.d"
  echo 'create_main_cluster = false' >"$root/etc/postgresql-common/createcluster.d/glicko2.conf"
  {
    echo "deb $mirror $base main"
    [ "$suite" = experimental ] && echo "deb $mirror experimental main"
  } >"$root/etc/apt/sources.list"
  touch "$root/.glicko2-ready"
fi

# postgresql-common's postinst needs /proc; PostgreSQL's shared memory /dev/shm.
mount_in proc "$root/proc"
mount_in tmpfs "$root/dev/shm"

echo "== $what: packages from $mirror"
in_root apt-get update -qq >>"$setup_log" 2>&1 ||
  unavailable "apt-get update from $mirror failed ($setup_log)"
wanted=("${pg_packages[@]}")
[ "$suite" = experimental ] && wanted=("${pg_packages[@]/%//experimental}")
in_root apt-get install -y -qq --no-install-recommends -o Dpkg::Options::=--force-confold \
  "${wanted[@]}" make gcc libc6-dev >>"$setup_log" 2>&1 ||
  unavailable "apt-get install ${wanted[*]} failed ($setup_log)"
in_root apt-get -y -qq -o Dpkg::Options::=--force-confold upgrade >>"$setup_log" 2>&1 ||
  unavailable "apt-get upgrade failed ($setup_log)"
pg_config=/usr/lib/postgresql/$major/bin/pg_config
[ -x "$root$pg_config" ] || unavailable "no $pg_config after installing ${pg_packages[0]}"

# The checkout's tracked files, readable by the test server (it runs as
# postgres and reads the built files in place).
rm -rf "$root/build" "$root"/tmp/*
mkdir -p "$root/build/glicko2"
chmod 755 "$root/build" "$root/build/glicko2"
git ls-files -z | tar --null -T - -cf - | tar -xf - -C "$root/build/glicko2"
# What the shell tests need besides PostgreSQL (tools/ensure-deps.sh, with the
# packages test.sh adds when it runs it).
in_root bash -c "cd /build/glicko2 && PG_MAJOR=$major bash tools/ensure-deps.sh r-cran-bradleyterry2 python3-rdata" \
  >>"$setup_log" 2>&1 || unavailable "tools/ensure-deps.sh failed ($setup_log)"

echo "== $what: $(in_root "$pg_config" --version), bash test.sh (set up in ${SECONDS}s)"
in_root bash -c "cd /build/glicko2 && PG_CONFIG=$pg_config bash test.sh" </dev/null
