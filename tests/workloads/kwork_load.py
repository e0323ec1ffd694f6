#!/usr/bin/env python3
# kwork_load.py OUTDIR SECONDS: kernel work for bpfperf kwork's tests, for
# SECONDS: TCP traffic over loopback (NET_RX/NET_TX softirqs), small writes
# with fsync in OUTDIR (block irqs and softirqs, writeback workqueue items)
# and a cache drop every half second (workqueue items).
import os, socket, sys, threading, time

out, secs = sys.argv[1], float(sys.argv[2])

end = time.monotonic() + secs
srv = socket.socket()
srv.bind(("127.0.0.1", 0))
srv.listen(1)

def sink():
    c, _ = srv.accept()
    while c.recv(65536):
        pass

t = threading.Thread(target=sink, daemon=True)
t.start()
cli = socket.create_connection(srv.getsockname())
cli.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)

def disk():
    path = os.path.join(out, "fsync.dat")
    fd = os.open(path, os.O_CREAT | os.O_WRONLY, 0o600)
    last_drop = 0.0
    while time.monotonic() < end:
        os.write(fd, b"x" * 4096)
        os.fsync(fd)
        if time.monotonic() - last_drop > 0.5:
            last_drop = time.monotonic()
            try:
                with open("/proc/sys/vm/drop_caches", "w") as f:
                    f.write("3\n")
            except OSError:
                pass
    os.close(fd)
    os.unlink(path)

d = threading.Thread(target=disk)
d.start()
msg = b"y" * 512
while time.monotonic() < end:
    cli.sendall(msg)
d.join()
cli.close()
