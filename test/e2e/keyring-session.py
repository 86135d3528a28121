#!/usr/bin/env python3
# A real OS credential store for the tests, with nothing installed: the Linux kernel keyring (keyutils),
# reached by syscall through ctypes (no keyctl binary, no D-Bus). It joins a new anonymous session keyring
# of its own, so no test touches the machine's, then runs the steps read as JSON from stdin, each scpctl
# run a child that inherits that session keyring, and reads keys back directly, not through scpctl.
#   steps: [{"run": [argv...], "input": "text"?, "env": {...}}, {"read": "DESCRIPTION"}, {"clear": "TEXT"}]
#   --deny-writes: the session keyring refuses new keys (a store that does not answer)
#   --probe: only whether this machine lets a process join a session keyring of its own (exit 0, else 77)
# Prints one JSON list: {"code", "stdout", "stderr"} per run, {"value"} (null: no such key) per read.
import ctypes
import json
import subprocess
import sys

SYS_KEYCTL = {"x86_64": 250, "aarch64": 219}[__import__("platform").machine()]
KEYCTL_JOIN_SESSION_KEYRING, KEYCTL_SETPERM, KEYCTL_DESCRIBE = 1, 5, 6
KEYCTL_SEARCH, KEYCTL_READ, KEYCTL_INVALIDATE = 10, 11, 21
KEY_SPEC_SESSION_KEYRING = -3

libc = ctypes.CDLL(None, use_errno=True)
libc.syscall.restype = ctypes.c_long


def keyctl(*args):
    result = libc.syscall(SYS_KEYCTL, *args)
    return result, ctypes.get_errno()


def search(description):
    key, _ = keyctl(KEYCTL_SEARCH, KEY_SPEC_SESSION_KEYRING, b"user", description.encode(), 0)
    return key if key >= 0 else None


def read(description):
    key = search(description)
    if key is None:
        return None
    buffer = ctypes.create_string_buffer(65536)
    size, _ = keyctl(KEYCTL_READ, key, buffer, 65536)
    return buffer.raw[:size].decode() if size >= 0 else None


def clear(text):
    # Every key this test made: the persistent keyring, linked into the session, outlives it.
    gone = 0
    for line in open("/proc/keys"):
        fields = line.split()
        if fields[7] == "user" and text in line:
            keyctl(KEYCTL_INVALIDATE, int(fields[0], 16))
            gone += 1
    return gone


def main():
    session, errno = keyctl(KEYCTL_JOIN_SESSION_KEYRING, None)
    if session < 0:
        if "--probe" in sys.argv:
            sys.exit(77)
        sys.exit(f"keyring-session: cannot join a session keyring (errno {errno})")
    if "--probe" in sys.argv:
        return
    if "--deny-writes" in sys.argv:
        # possessor: view, read, search, link; no write: add_key into it is refused
        keyctl(KEYCTL_SETPERM, session, 0x1B0B0000)
    results = []
    for step in json.load(sys.stdin):
        if "run" in step:
            done = subprocess.run(step["run"], input=step.get("input", ""), capture_output=True, text=True, env=step["env"], timeout=60)
            results.append({"code": done.returncode, "stdout": done.stdout, "stderr": done.stderr})
        elif "read" in step:
            results.append({"value": read(step["read"])})
        elif "clear" in step:
            results.append({"cleared": clear(step["clear"])})
    json.dump(results, sys.stdout)


main()
