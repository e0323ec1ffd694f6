#!/bin/sh
# Install the Debian 12 packages bpfperf needs to build and test, when missing.
# Usage: scripts/deps.sh [--bench | --test]   (--bench adds bpftrace and hyperfine;
# --test adds the other tools the tests open our files in: hotspot's perfparser;
# and clang's libFuzzer runtime for the fuzz pass)
set -e
pkgs="build-essential pkg-config meson ninja-build clang llvm bpftool libbpf-dev
      libelf-dev libdw-dev zlib1g-dev libzstd-dev libcapstone-dev libtraceevent-dev libcmocka-dev linux-perf strace
      python3 iproute2"
[ "${1:-}" = "--bench" ] && pkgs="$pkgs bpftrace hyperfine time g++"
[ "${1:-}" = "--test" ] && pkgs="$pkgs hotspot libclang-rt-14-dev"
missing=""
for p in $pkgs; do
  dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing="$missing $p"
done
if [ -n "$missing" ]; then
  if [ "$(id -u)" != 0 ]; then
    echo "deps: missing Debian packages:$missing; run as root (or: sudo apt-get install$missing)" >&2
    exit 1
  fi
  echo "deps: installing$missing"
  export DEBIAN_FRONTEND=noninteractive
  apt-get update -qq
  apt-get install -y -qq --no-install-recommends $missing >/dev/null
fi
# tracefs is where syscall and other tracepoint formats live.
if [ ! -d /sys/kernel/tracing/events ] && [ "$(id -u)" = 0 ]; then
  mount -t tracefs nodev /sys/kernel/tracing 2>/dev/null || true
fi
