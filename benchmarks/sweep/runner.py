"""One interpreter's timer.py process, asked one request at a time; a crash
or a hang is the answer to the request that caused it, and a fresh process
takes the next one."""
from __future__ import annotations

import json
import os
import selectors
import subprocess
import tempfile
import time

TIMER = os.path.join(os.path.dirname(os.path.abspath(__file__)), "timer.py")
REQUEST_TIMEOUT = 60.0  # seconds; the first request also waits for `import torch`


class Timer:
    def __init__(self, python: str):
        self.python = os.path.abspath(python)
        self.proc = None
        self.version = None

    def start(self) -> None:
        # Outside the checkout, with no PYTHONPATH: each side imports its own torch.
        env = {k: v for k, v in os.environ.items() if k != "PYTHONPATH"}
        self.proc = subprocess.Popen([self.python, TIMER], stdin=subprocess.PIPE, stdout=subprocess.PIPE,
                                     stderr=subprocess.DEVNULL, cwd=tempfile.gettempdir(), env=env)

    def ask(self, request: dict, timeout: float = REQUEST_TIMEOUT) -> dict:
        if self.proc is None:
            self.start()
        try:
            self.proc.stdin.write((json.dumps(request) + "\n").encode())
            self.proc.stdin.flush()
        except BrokenPipeError:
            return self.lost("exited before the request")
        line = self.read_line(timeout)
        if line is None:
            return self.lost(f"no answer within {timeout:.0f}s (hang)")
        if not line:
            return self.lost("exit status {rc}")
        reply = json.loads(line)
        self.version = reply.pop("torch", self.version)
        return reply

    def read_line(self, timeout: float) -> bytes | None:
        """The next line, b"" at EOF, or None on timeout."""
        sel = selectors.DefaultSelector()
        sel.register(self.proc.stdout, selectors.EVENT_READ)
        deadline = time.monotonic() + timeout
        buffer = b""
        try:
            while not buffer.endswith(b"\n"):
                left = deadline - time.monotonic()
                if left <= 0 or not sel.select(timeout=left):
                    return None
                chunk = os.read(self.proc.stdout.fileno(), 1 << 16)
                if not chunk:
                    return b""
                buffer += chunk
        finally:
            sel.close()
        return buffer

    def lost(self, why: str) -> dict:
        if self.proc.poll() is None:
            self.proc.kill()
        rc = self.proc.wait()
        self.proc = None
        return {"ok": False, "error": "crash: " + why.format(rc=rc)}

    def close(self) -> None:
        if self.proc is not None:
            self.proc.stdin.close()
            self.proc.wait()
            self.proc = None
