"""Shared helpers for the benchmark scripts: test photos, the gallery binary, timing, and `gallery serve`."""
import http.client
import http.server
import json
import os
import re
import shutil
import socketserver
import statistics
import subprocess
import sys
import threading
import time

ROOT = os.path.abspath(os.path.join(os.path.dirname(__file__), "..", ".."))


# As the README builds it: the Swift runtime and Foundation linked in (SwiftPM's
# --static-swift-stdlib), so every start maps and binds ~15 fewer libraries (`gallery open` of a
# tiny document 20.0 -> 13.2 ms). Stop 6 saw the heap corrupted in 2 of 37 `create --cache` runs
# of 300 photos with such a build and went back; 94 runs since (stops 9 and 10, 52 of them under
# glibc's malloc checks) and valgrind on 40 photos found nothing, and no exported symbol of the
# binary clashes with libvips' libraries or modules.
# And with the README's toolset (generic metadata through accessors, not by mangled name).
STATIC = ["--static-swift-stdlib", "--toolset", ".ci/release-toolset.json"] if sys.platform.startswith("linux") else []


def gallery_binary():
    """The release build of `gallery` (built if missing): benchmarks measure what users run."""
    path = os.environ.get("GALLERY_BINARY") or os.path.join(ROOT, ".build", "release", "gallery")
    if not os.path.exists(path):
        subprocess.run(["swift", "build", "-c", "release", "--product", "gallery", *STATIC], cwd=ROOT, check=True)
    return path


def vips(*args):
    subprocess.run(["vips", *[str(arg) for arg in args]], check=True)


def fresh_work_folder(default):
    """The benchmark's folder (the first argument, else `default`), emptied, and the release binary."""
    work = sys.argv[1] if len(sys.argv) > 1 else default
    gallery = gallery_binary()
    shutil.rmtree(work, ignore_errors=True)
    os.makedirs(work)
    return work, gallery


def photo_benchmark(count=300):
    """The benchmark's folder (the first argument, else /tmp/gallerykit-bench; kept between runs,
    so that what it holds is made once), the release binary, and `count` test photos in the
    folder's `photos`."""
    work = sys.argv[1] if len(sys.argv) > 1 else "/tmp/gallerykit-bench"
    gallery = gallery_binary()
    return work, gallery, make_photos(os.path.join(work, "photos"), count)


def cached_document(gallery, path, photos):
    """`path`: a document of `photos` with their bytes and thumbnails stored, made with
    `gallery create --cache` unless an earlier run left it."""
    if not os.path.exists(path):
        subprocess.run([gallery, "create", path, "--cache", *photos], check=True, stdout=subprocess.DEVNULL)
    return path


def small_jpeg(folder):
    """The bytes of a small (600x400) JPEG made with libvips; bytes after its end (a tag) make
    copies distinct images to a content-addressed store without another encode."""
    path = os.path.join(folder, "base.jpg")
    vips("black", path + "[Q=80]", 600, 400, "--bands", "3")
    with open(path, "rb") as file:
        return file.read()


def make_photos(folder, count, width=3000, height=2000):
    """`count` distinct photo-sized JPEGs (~1–2 MB), cropped from one large noisy gradient with libvips.

    Distinct crops, not copies, so each file has its own content and SHA-256.
    """
    os.makedirs(folder, exist_ok=True)
    names = [os.path.join(folder, f"photo-{index:03d}.jpg") for index in range(count)]
    if all(os.path.exists(name) for name in names):
        return names
    base = os.path.join(folder, "base.v")
    if not os.path.exists(base):
        work = [os.path.join(folder, f"work-{n}.v") for n in range(6)]
        vips("xyz", work[0], width + 1000, height + 1000)
        vips("gaussnoise", work[1], width + 1000, height + 1000, "--sigma", "12", "--mean", "0")
        vips("extract_band", work[0], work[2], "0")
        vips("linear", work[2], work[3], str(255 / (width + 1000)), "0")
        vips("add", work[3], work[1], work[4])
        vips("bandjoin", f"{work[4]} {work[1]} {work[4]}", work[5])
        vips("cast", work[5], base, "uchar")
        for name in work:
            os.remove(name)
    for index, name in enumerate(names):
        if not os.path.exists(name):
            left, top = (index * 37) % 1000, (index * 53) % 1000
            vips("crop", base, name + "[Q=85]", str(left), str(top), str(width), str(height))
    return names


def median_seconds(command, runs=5, warmup=1, before=None, **kwargs):
    """The median wall-clock time of `command` over `runs` runs, after `warmup` unmeasured ones."""
    times = []
    for index in range(warmup + runs):
        if before:
            before()
        start = time.perf_counter()
        subprocess.run(command, check=True, stdout=subprocess.DEVNULL, **kwargs)
        if index >= warmup:
            times.append(time.perf_counter() - start)
    return statistics.median(times)


def interleaved_median_seconds(commands, runs=5, warmup=1, before=None, env=None):
    """Each command's median wall-clock time over `runs` rounds, every round running each command
    once in turn: a drift in the machine's speed (up to 30% seen here within minutes) falls on
    all of them alike, not on whichever ran last. `before` may give a function per command, run
    (unmeasured) before each of its runs."""
    times = [[] for _ in commands]
    hooks = before or [None] * len(commands)
    for index in range(warmup + runs):
        for command, samples, hook in zip(commands, times, hooks):
            if hook:
                hook()
            start = time.perf_counter()
            subprocess.run(command, check=True, stdout=subprocess.DEVNULL, env=env)
            if index >= warmup:
                samples.append(time.perf_counter() - start)
    return [statistics.median(samples) for samples in times]


def report(rows):
    """Prints `(label, seconds)` rows and each one's ratio to the first."""
    base = rows[0][1]
    for label, seconds in rows:
        print(f"  {label:<58} {seconds * 1000:9.1f} ms   {seconds / base:6.2f}x")
    sys.stdout.flush()


class ImageHandler(http.server.BaseHTTPRequestHandler):
    """The requests to a local web server of images: a GET is answered with `image(path)`, the
    bytes of a JPEG, or 404 where that is None. A subclass says what each path holds."""

    def image(self, path):
        raise NotImplementedError

    def do_GET(self):
        body = self.image(self.path)
        if body is None:
            self.send_response(404)
            self.send_header("Content-Length", "0")
            self.end_headers()
            return
        self.send_response(200)
        self.send_header("Content-Type", "image/jpeg")
        self.send_header("Content-Length", str(len(body)))
        self.end_headers()
        self.wfile.write(body)

    def log_message(self, *arguments):
        pass


class ImageServer(socketserver.ThreadingMixIn, http.server.HTTPServer):
    """An `ImageHandler`'s server on 127.0.0.1 and a free port (`port`), answering in the
    background from when it is made, a thread a connection; the queue holds the bursts a page
    of images sends."""
    daemon_threads = True
    request_queue_size = 512

    def __init__(self, handler):
        super().__init__(("127.0.0.1", 0), handler)
        self.port = self.server_address[1]
        threading.Thread(target=self.serve_forever, daemon=True).start()


class Server:
    """`gallery serve FOLDER`, with data, state and cache folders of its own under `state`, and a cookie for it."""

    def __init__(self, gallery, folder, state):
        environment = dict(os.environ, XDG_DATA_HOME=f"{state}/data", XDG_STATE_HOME=f"{state}/state", XDG_CACHE_HOME=f"{state}/cache")
        self.process = subprocess.Popen([gallery, "serve", folder], stdout=subprocess.PIPE, text=True, env=environment)
        line = self.process.stdout.readline()
        match = re.search(r"http://127\.0\.0\.1:(\d+)/\?token=([0-9a-f]{64})", line)
        if not match:
            raise SystemExit(f"serve printed no URL: {line!r}")
        self.port, self.token = int(match.group(1)), match.group(2)
        self.url = f"http://127.0.0.1:{self.port}/?token={self.token}"
        self.headers = {"Cookie": f"gallery-{self.token[:8]}={self.token}", "Origin": f"http://127.0.0.1:{self.port}",
                        "Content-Type": "application/json"}

    def connection(self):
        return http.client.HTTPConnection("127.0.0.1", self.port, timeout=120)

    def call(self, connection, method, path, body=None):
        connection.request(method, path, body=None if body is None else json.dumps(body), headers=self.headers)
        response = connection.getresponse()
        data = response.read()
        if response.status >= 300:
            raise RuntimeError(f"{method} {path}: {response.status} {data[:200]!r}")
        return json.loads(data)

    def rss_kib(self):
        status = open(f"/proc/{self.process.pid}/status").read()
        return int(re.search(r"VmRSS:\s+(\d+)", status).group(1)), int(re.search(r"VmHWM:\s+(\d+)", status).group(1))

    def stop(self):
        self.process.send_signal(2)
        self.process.wait(timeout=30)
