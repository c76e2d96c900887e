#!/usr/bin/env python3
"""The fetching tests' local HTTP server (ImageServer.swift): serves the sample images in the
folder given as the first argument, on 127.0.0.1 and a free port, which it prints on the first
line. The routes are listed in ImageServer.swift. It exits when its parent does."""
import http.server, json, os, signal, socketserver, sys, threading, time, urllib.parse

ROOT = sys.argv[1]
TYPES = {".jpg": "image/jpeg", ".png": "image/png", ".webp": "image/webp", ".gif": "image/gif", ".tif": "image/tiff"}
seen = set()
lock = threading.Lock()
gates = {}

def gate(key):
    with lock:
        return gates.setdefault(key, threading.Event())

def jpeg_size(data):
    """A JPEG's stored width and height, from its first start-of-frame marker."""
    offset = 2
    while offset + 9 < len(data):
        marker, length = data[offset + 1], int.from_bytes(data[offset + 2:offset + 4], "big")
        if marker in (0xC0, 0xC1, 0xC2):
            return int.from_bytes(data[offset + 7:offset + 9], "big"), int.from_bytes(data[offset + 5:offset + 7], "big")
        offset += 2 + length
    raise ValueError("no start of frame")

class Handler(http.server.BaseHTTPRequestHandler):
    protocol_version = "HTTP/1.1"
    disable_nagle_algorithm = True

    def log_message(self, *args):
        pass

    def send(self, code, body=b"", kind="application/octet-stream", headers=()):
        self.send_response(code)
        self.send_header("Content-Type", kind)
        self.send_header("Content-Length", str(len(body)))
        for name, value in headers:
            self.send_header(name, value)
        self.end_headers()
        self.wfile.write(body)

    def image(self, name, tag=None):
        path = os.path.join(ROOT, os.path.basename(name))
        if not os.path.exists(path):
            return self.send(404)
        body = open(path, "rb").read() + (("gallerykit-" + tag).encode() if tag else b"")
        self.send(200, body, TYPES.get(os.path.splitext(path)[1], "application/octet-stream"))

    def iiif(self, parts):
        """Specs/Examples/iiif served as its README says, under /iiif-fixtures/ as {{base}}."""
        base = "http://127.0.0.1:%d/iiif-fixtures/" % self.server.server_address[1]
        if len(parts) == 2 and parts[0] == "manifests":
            path = os.path.join(ROOT, "..", "iiif", os.path.basename(parts[1]))
            if not parts[1].endswith(".json") or not os.path.exists(path):
                return self.send(404)
            body = open(path, encoding="utf-8").read().replace("{{base}}", base).encode()
            return self.send(200, body, "application/ld+json")
        if len(parts) == 2 and parts[0] == "images":
            return self.image(parts[1])
        if len(parts) == 4 and parts[0] == "iiif" and parts[1] in ("2", "3") and parts[3] == "info.json":
            path = os.path.join(ROOT, os.path.basename(parts[2]) + ".jpg")
            if not os.path.exists(path):
                return self.send(404)
            width, height = jpeg_size(open(path, "rb").read())
            ident = base + "iiif/%s/%s" % (parts[1], parts[2])
            info = {"id": ident, "type": "ImageService3"} if parts[1] == "3" else \
                {"@context": "http://iiif.io/api/image/2/context.json", "@id": ident}
            info.update(width=width, height=height)
            return self.send(200, json.dumps(info).encode(), "application/ld+json")
        image_api = {("3", "max"), ("2", "full")}
        if len(parts) == 7 and parts[0] == "iiif" and (parts[1], parts[4]) in image_api and parts[3:4] == ["full"] \
                and parts[5:] == ["0", "default.jpg"]:
            return self.image(parts[2] + ".jpg")
        self.send(404)

    def do_GET(self):
        url = urllib.parse.urlparse(self.path)
        query = dict(urllib.parse.parse_qsl(url.query))
        parts = url.path.strip("/").split("/")
        try:
            if parts[0] == "image":
                time.sleep(int(query.get("delay", "0")) / 1000)
                self.image(parts[1], query.get("tag"))
            elif parts[0] == "status":
                self.send(int(parts[1]))
            elif parts[0] == "text":
                self.send(200, b"not an image, just text", "text/plain; charset=utf-8")
            elif parts[0] == "redirect":
                count = int(parts[1])
                target = "/image/" + parts[2] if count <= 1 else "/redirect/%d/%s" % (count - 1, parts[2])
                self.send(302, headers=[("Location", target)])
            elif parts[0] == "loop":
                self.send(302, headers=[("Location", "/loop/" + ("b" if parts[1] == "a" else "a"))])
            elif parts[0] == "hang":
                time.sleep(3600)
            elif parts[0] == "trickle":
                self.send_response(200)
                self.send_header("Content-Type", "image/jpeg")
                self.send_header("Content-Length", "10000000")
                self.end_headers()
                for _ in range(3600):
                    self.wfile.write(b"\xff")
                    self.wfile.flush()
                    time.sleep(1)
            elif parts[0] in ("big", "big-unannounced"):
                size = int(query.get("bytes", "0"))
                self.send_response(200)
                self.send_header("Content-Type", "image/jpeg")
                if parts[0] == "big":
                    self.send_header("Content-Length", str(size))
                else:
                    self.send_header("Connection", "close")
                self.end_headers()
                chunk = b"\0" * 65536
                sent = 0
                while sent < size:
                    self.wfile.write(chunk[: min(len(chunk), size - sent)])
                    sent += len(chunk)
                self.close_connection = True
            elif parts[0] == "once":
                with lock:
                    first = parts[1] not in seen
                    seen.add(parts[1])
                if first:
                    self.image(parts[2])
                else:
                    self.send(410)
            elif parts[0] == "gated":
                gate(parts[1]).wait(120)
                self.image(parts[2], parts[1])
            elif parts[0] == "open":
                gate(parts[1]).set()
                self.send(204)
            elif parts[0] == "iiif-fixtures":
                self.iiif(parts[1:])
            elif parts[0] == "flaky":
                with lock:
                    first = parts[1] not in seen
                    seen.add(parts[1])
                if first:
                    self.send(503)
                else:
                    self.image(parts[2])
            else:
                self.send(404)
        except (BrokenPipeError, ConnectionResetError):
            pass

class Server(socketserver.ThreadingMixIn, http.server.HTTPServer):
    daemon_threads = True
    allow_reuse_address = True
    request_queue_size = 256

# The test process may start this with SIGTERM blocked or ignored (both are inherited), and
# `terminate()` sends SIGTERM: take it back.
signal.signal(signal.SIGTERM, signal.SIG_DFL)
signal.pthread_sigmask(signal.SIG_UNBLOCK, {signal.SIGTERM})

# A test process that ends without releasing its server (a crash, or a suite kept alive to the
# end) must not leave the server running: it stops when its parent is gone.
def stop_with_parent(parent=os.getppid()):
    while os.getppid() == parent:
        time.sleep(0.5)
    os._exit(0)

threading.Thread(target=stop_with_parent, daemon=True).start()
server = Server(("127.0.0.1", 0), Handler)
print(server.server_address[1], flush=True)
server.serve_forever()
