# SPDX-License-Identifier: GPL-2.0-only
"""Code in a private anonymous executable mapping (//anon), as a JIT runs
it: a jump to itself, until SIGALRM ends the process after SECS seconds.
Usage: jit_loop.py SECS [PIDFILE]"""
import ctypes, mmap, os, platform, signal, sys
if len(sys.argv) > 2:
    open(sys.argv[2], "w").write(str(os.getpid()))
code = b"\xeb\xfe" if platform.machine() in ("x86_64", "i686") else b"\x00\x00\x00\x14"  # jmp .
m = mmap.mmap(-1, 4096, flags=mmap.MAP_PRIVATE | mmap.MAP_ANONYMOUS,
              prot=mmap.PROT_READ | mmap.PROT_WRITE | mmap.PROT_EXEC)
m.write(code)
signal.setitimer(signal.ITIMER_REAL, float(sys.argv[1]))   # SIGALRM ends it
ctypes.CFUNCTYPE(None)(ctypes.addressof(ctypes.c_char.from_buffer(m)))()
