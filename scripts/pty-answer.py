#!/usr/bin/env python3
"""Runs a command on a pseudo-terminal, answers one prompt, prints what it wrote.

usage: pty-answer.py PROMPT ANSWER COMMAND [ARG...]
Used by the end-to-end tests to check behaviour that only happens on a terminal
(the password prompt, progress bars). Exits with the command's exit status.
"""
import os
import pty
import sys
import time


def main():
    prompt, answer, argv = sys.argv[1].encode(), sys.argv[2].encode(), sys.argv[3:]
    pid, fd = pty.fork()
    if pid == 0:
        os.execvp(argv[0], argv)
    seen = b""
    answered = False
    deadline = time.time() + 30
    while time.time() < deadline:
        try:
            chunk = os.read(fd, 4096)
        except OSError:
            break
        if not chunk:
            break
        seen += chunk
        if not answered and prompt in seen:
            time.sleep(0.1)  # let getpass switch echo off before typing
            os.write(fd, answer + b"\n")
            answered = True
    _, status = os.waitpid(pid, 0)
    sys.stdout.write(seen.decode(errors="replace"))
    sys.exit(os.waitstatus_to_exitcode(status))


if __name__ == "__main__":
    main()
