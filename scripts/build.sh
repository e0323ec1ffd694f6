#!/bin/sh
# Configure and build: build/ and, with --asan, build-asan/ (AddressSanitizer +
# UndefinedBehaviorSanitizer). Reconfigures each time so new test files are seen.
set -e
cd "$(dirname "$0")/.."
setup() {  # dir, options...
  d=$1; shift
  if [ -f "$d/build.ninja" ]; then meson setup --reconfigure "$d" "$@" >/dev/null
  else meson setup "$d" "$@" >/dev/null; fi
  ninja -C "$d" >/dev/null
}
setup build
if [ "${1:-}" = "--asan" ]; then
  setup build-asan -Db_sanitize=address,undefined -Db_lundef=false -Dbuildtype=debug
fi
