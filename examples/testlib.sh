# Helpers for the integration tests of the examples (tests/integration/test_run_*.sh),
# sourced after tests/integration/lib.sh: workloads with known results.
EX="$BUILD/examples"
need_examples() {
  [ -f "$EX/tracex4.bpf.o" ] || fail "examples not built: $EX/tracex4.bpf.o missing (ninja -C $BUILD)"
}
# A copy of dd with a unique command name, so that other processes' writes
# (other tests, other users) do not reach the comm-filtered examples.
uniq_dd() {
  cp "$(command -v dd)" "$TMP/bpfpdd$$" || fail "cannot copy dd"
  DD="$TMP/bpfpdd$$"
  DDCOMM=$(basename "$DD" | cut -c1-15)
}
# udp_send N PORT [SIZE]: N datagrams to 127.0.0.1:PORT (bounded, loopback only)
udp_send() {
  python3 - "$1" "$2" "${3:-1}" <<'PY'
import socket, sys
n, port, size = int(sys.argv[1]), int(sys.argv[2]), int(sys.argv[3])
s = socket.socket(socket.AF_INET, socket.SOCK_DGRAM)
for _ in range(n):
    s.sendto(b"x" * size, ("127.0.0.1", port))
PY
}
# a UDP port on 127.0.0.1 that nobody listens on
closed_udp_port() {
  python3 -c 'import socket; s=socket.socket(socket.AF_INET,socket.SOCK_DGRAM); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])'
}
# wait_attached FILE: wait (max 10 s) for the -v "attached" line
wait_attached() {
  i=0
  while ! grep -q "attached" "$1" 2>/dev/null; do
    i=$((i + 1)); [ $i -gt 100 ] && { cat "$1"; fail "bpfperf run did not attach within 10 s"; }
    sleep 0.1
  done
}
