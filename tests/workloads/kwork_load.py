#!/usr/bin/env python3
# kwork_load.py OUTDIR SECONDS: kernel work for bpfperf kwork's tests, for
# SECONDS: TCP traffic over loopback (NET_RX/NET_TX softirqs), small writes
# with fsync in OUTDIR (block irqs and softirqs, writeback workqueue items)
# and a cache drop every half second (workqueue items).
#
# kwork_load.py OUTDIR SECONDS FIFO PID: the same, bracketed for a count
# check: bpfperf kwork (PID, run with -v) writes its messages to FIFO; once
# it says its programs are attached, /proc/softirqs and /proc/interrupts are
# copied to OUTDIR/{softirqs,interrupts}.0 and CLOCK_MONOTONIC (bpfperf's
# clock) to OUTDIR/t.0; after the load the same to *.1, then PID gets
# SIGINT, and its messages go on to OUTDIR/bpfperf.err. No process starts
# at the edges of the window (in a guest, an exec reads its files over 9p:
# virtio irqs that /proc's window would not hold).
import os, signal, socket, sys, threading, time

out, secs = sys.argv[1], float(sys.argv[2])
fifo = pid = None
if len(sys.argv) > 4:
    fifo, pid = open(sys.argv[3]), int(sys.argv[4])
    log = open(os.path.join(out, "bpfperf.err"), "w")
    for line in fifo:
        log.write(line)
        if "tracing started" in line:
            break
    else:
        sys.exit("bpfperf ended before attaching")
    log.flush()


def snap(i):
    for n in ("softirqs", "interrupts"):
        with open("/proc/" + n) as f, open(os.path.join(out, "%s.%d" % (n, i)), "w") as o:
            o.write(f.read())
    with open(os.path.join(out, "t.%d" % i), "w") as o:
        o.write("%d\n" % time.monotonic_ns())


if fifo:
    snap(0)
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
if fifo:
    snap(1)
    os.kill(pid, signal.SIGINT)
    for line in fifo:
        log.write(line)
