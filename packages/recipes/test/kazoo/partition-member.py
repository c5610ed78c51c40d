"""A kazoo SetPartitioner member driven by the interop tests (kazoo's documented loop).

Usage: partition-member.py HOSTS PATH IDENTIFIER TIME_BOUNDARY_S SESSION_TIMEOUT_S ITEM...
Prints one JSON object per line: joined (with its session id), acquired (its share), release, failed,
finished. "finish" on stdin (or stdin closing) finishes the partitioner and exits; a member still running
after five minutes exits on its own, so none outlives a test run.
"""
import json
import os
import sys
import threading
import time

from kazoo.client import KazooClient


def say(**fields):
    print(json.dumps(fields), flush=True)


def main():
    deadline = threading.Timer(300, lambda: os._exit(3))
    deadline.daemon = True
    deadline.start()
    hosts, path, identifier, time_boundary, session_timeout = sys.argv[1:6]
    items = sys.argv[6:]
    client = KazooClient(hosts=hosts, timeout=float(session_timeout))
    client.start(timeout=30)
    stop = threading.Event()

    def read_commands():
        for line in sys.stdin:
            if line.strip() == "finish":
                break
        stop.set()

    threading.Thread(target=read_commands, daemon=True).start()
    partitioner = client.SetPartitioner(
        path=path, set=items, identifier=identifier, time_boundary=float(time_boundary)
    )
    say(event="joined", identifier=identifier, session="%x" % client.client_id[0])
    reported = None
    while not stop.is_set():
        if partitioner.failed:
            say(event="failed")
            return
        elif partitioner.release:
            say(event="release")
            partitioner.release_set()
        elif partitioner.acquired:
            if reported != partitioner.state_id:
                reported = partitioner.state_id
                say(event="acquired", items=sorted(partitioner))
            time.sleep(0.05)
        elif partitioner.allocating:
            partitioner.wait_for_acquire(0.2)
    partitioner.finish()
    say(event="finished")
    client.stop()
    os._exit(0)


main()
