#!/usr/bin/env python3
"""The least a follower of a growing file can do: bench/remote.sh's floor of a remote capture (issue 43).

    follow.py FILE PID

Sends FILE's bytes to standard output with sendfile(2) as they come, looking every 2 ms, until process PID
(the writer) has ended and every byte is sent. No framing, no offsets kept anywhere, no reconnection: what
runboard's host helper does with far more around it.
"""
import os
import sys
import time


def alive(pid):
    try:
        with open(f"/proc/{pid}/stat") as stat:
            return stat.read().rsplit(")", 1)[1].split()[0] != "Z"
    except FileNotFoundError:
        return False


def main():
    path, pid = sys.argv[1], int(sys.argv[2])
    while not os.path.exists(path):
        time.sleep(0.002)
    fd, sent = os.open(path, os.O_RDONLY), 0
    while True:
        running = alive(pid)  # read before the size: a writer that ends after this look has its last bytes seen next
        size = os.fstat(fd).st_size
        while sent < size:
            sent += os.sendfile(1, fd, sent, size - sent)
        if not running:
            return
        time.sleep(0.002)


main()
