#!/bin/sh
# gen-vmlinux-h.sh BPFTOOL BTF OUT: kernel type header for CO-RE BPF programs
# from the build host's kernel BTF (meson's -Dvmlinux_h=host, or auto when the
# BTF exists; otherwise the build uses the vendored src/bpf/vmlinux/<arch>/).
set -e
if [ ! -r "$2" ]; then
  echo "error: cannot read kernel BTF at $2: the running kernel was built without CONFIG_DEBUG_INFO_BTF;" >&2
  echo "       configure with -Dvmlinux_h=vendored (or auto) to use the vendored header" >&2
  exit 1
fi
"$1" btf dump file "$2" format c > "$3.tmp"
mv "$3.tmp" "$3"
