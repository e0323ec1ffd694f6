#!/bin/sh
# gen-vmlinux-h.sh BPFTOOL BTF OUT: kernel type header for CO-RE BPF programs.
set -e
if [ ! -r "$2" ]; then
  echo "error: cannot read kernel BTF at $2: the running kernel was built without CONFIG_DEBUG_INFO_BTF;" >&2
  echo "       build on a kernel with BTF (Debian 12's kernels have it)" >&2
  exit 1
fi
"$1" btf dump file "$2" format c > "$3.tmp"
mv "$3.tmp" "$3"
