#!/usr/bin/env python3
"""Fetching 200 images from a local server: `gallery create --jobs 8` against `--jobs 1`.

Twice: with no added latency (what the two cores can do) and with 50 ms per response (a real
server is never 0 ms away). The server is Python's ThreadingHTTPServer on 127.0.0.1.

    python3 Tests/Benchmarks/fetch_jobs.py [WORKDIR]
"""
import os
import sys
import time

from benchlib import ROOT, ImageHandler, ImageServer, gallery_binary, median_seconds, report

work = sys.argv[1] if len(sys.argv) > 1 else "/tmp/gallerykit-bench"
os.makedirs(work, exist_ok=True)
sample = open(os.path.join(ROOT, "Specs/Examples/images/01-dawn.jpg"), "rb").read()
latency = {"seconds": 0.0}


class Handler(ImageHandler):
    protocol_version = "HTTP/1.1"
    # Headers and body go out in separate writes: without this, Nagle's algorithm and delayed
    # ACKs add 40 ms to every response on a kept-alive connection.
    disable_nagle_algorithm = True

    def image(self, path):
        time.sleep(latency["seconds"])
        return sample + path.encode()  # distinct bytes per URL


server = ImageServer(Handler)
port = server.port
urls = [f"http://127.0.0.1:{port}/photo-{index}.jpg" for index in range(200)]
gallery = gallery_binary()
output = os.path.join(work, "fetched.gallery")

for delay in (0.0, 0.05):
    latency["seconds"] = delay
    print(f"200 images from 127.0.0.1, {int(delay * 1000)} ms added per response, cached")
    rows = []
    for jobs in (1, 8):
        command = [gallery, "create", output, "--force", "--cache", "--quiet", "--jobs", str(jobs), *urls]
        rows.append((f"gallery create --jobs {jobs}", median_seconds(command, runs=3)))
    report(rows)
    print(f"  speed-up with 8 jobs: {rows[0][1] / rows[1][1]:.1f}x")
server.shutdown()
