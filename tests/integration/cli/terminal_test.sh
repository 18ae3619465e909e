#!/usr/bin/env bash
# stdout on a terminal shows each write as it is made: check-engine's first PASS line is on the
# screen long before the engine (slow to quit here) has gone, as with a line-buffered stdout. A
# pipe or a file gets full buffers (every other test).
#   terminal_test.sh EPDD FAKE_ENGINE
set -euo pipefail
python3 - "$@" <<'PY'
import os, pty, subprocess, sys, time
epdd, fake = sys.argv[1:3]
master, slave = pty.openpty()
start = time.monotonic()
p = subprocess.Popen([epdd, "check-engine", "--", fake, "--slow-quit", "1500"], stdout=slave,
                     stderr=subprocess.DEVNULL, stdin=subprocess.DEVNULL)
os.close(slave)
first, seen = None, b""
while True:
    try:
        chunk = os.read(master, 4096)
    except OSError:  # EIO: the terminal's last writer has gone
        break
    if not chunk:
        break
    seen += chunk
    if first is None and b"PASS" in seen:
        first = time.monotonic() - start
p.wait()
end = time.monotonic() - start
print(f"first PASS line after {first} s, the command ended after {end:.2f} s (status {p.returncode})")
if p.returncode != 0 or first is None or end - first < 1.0:
    sys.exit("FAIL: on a terminal, check-engine's lines came only at its end")
PY
echo "terminal test passed"
