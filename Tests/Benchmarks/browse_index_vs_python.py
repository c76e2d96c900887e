#!/usr/bin/env python3
"""`gallery browse` with its index, on folders of N documents, against reading the files.

For N generated documents (default 2,000) with one incompressible cached image each, once with
20 KB documents and once with 2 MB ones, in one run:

- `gallery browse --json` cold (index deleted before each run), warm (index up to date), and
  after touching 1% of the documents (a new modification time: those are read again);
- a Python script that opens each document with `zipfile` and decodes its manifest;
- the raw cost of reading the first 64 KiB of each file (`head -c 65536` over all of them, one
  process, as gallery is one process);
- `gallery browse --search` on the warm index.

The index lives in a temporary XDG_CACHE_HOME. Times are medians, with a warm page cache (the
cache cannot be dropped here). Prints each figure, its ratio to the raw read, and PASS/FAIL for:
cold within 2x of the raw read and at least 3x faster than Python; warm at least 10x faster than
cold; cold for 2 MB documents within 1.3x of 20 KB ones; search under 50 ms.

    python3 Tests/Benchmarks/browse_index_vs_python.py [N] [WORKDIR]
"""
import hashlib
import json
import os
import random
import shutil
import subprocess
import sys
import tempfile
import time
import uuid
import zipfile

from benchlib import ROOT, gallery_binary, median_seconds, report

count = int(sys.argv[1]) if len(sys.argv) > 1 else 2000
work = sys.argv[2] if len(sys.argv) > 2 else "/tmp/gallerykit-bench"
os.makedirs(work, exist_ok=True)
gallery = gallery_binary()
sample = os.path.join(ROOT, "Specs", "Examples", "images", "01-dawn.jpg")
WORDS = ["harbour", "forest", "summer", "café", "mountain", "city", "river", "snow", "market", "garden"]
SIZES = [("20 KB", 20_000), ("2 MB", 2_000_000)]


def write_document(path, index, image):
    """A valid document as GalleryKit writes it: `mimetype` stored first, `manifest.json`
    deflated second, then the cached image stored under `images/<sha256>.jpg` (spec §3)."""
    sha256 = hashlib.sha256(image).hexdigest()
    stamp = "2026-11-23T10:52:46Z"
    word = WORDS[index % len(WORDS)]
    manifest = {
        "format": "gallery", "formatVersion": "1.0", "id": str(uuid.UUID(int=index + 1, version=4)),
        "title": f"Trip {index} {word}", "created": stamp, "modified": stamp,
        "generator": "browse benchmark", "columns": 3,
        "images": [{
            "id": str(uuid.UUID(int=1_000_000 + index, version=4)),
            "url": f"https://images.example.org/trips/{index}/dawn.jpg",
            "aspectRatio": 1.4988290398126465, "width": 640, "height": 427, "status": "ok", "error": None,
            "cached": {"path": f"images/{sha256}.jpg", "sha256": sha256, "bytes": len(image), "mediaType": "image/jpeg"},
            "thumbnail": None, "caption": f"Morning {index} by the {word}", "added": stamp,
        }],
    }
    temporary = path + ".part"
    with zipfile.ZipFile(temporary, "w") as archive:
        archive.writestr("mimetype", "application/vnd.gallery+zip", compress_type=zipfile.ZIP_STORED)
        archive.writestr("manifest.json", json.dumps(manifest, sort_keys=True, indent=1), compress_type=zipfile.ZIP_DEFLATED)
        archive.writestr(f"images/{sha256}.jpg", image, compress_type=zipfile.ZIP_STORED)
    os.replace(temporary, path)


def make_folder(label, size):
    """N documents of about `size` bytes: the sample JPEG, a per-document marker and random
    bytes after its end marker (decoders ignore them), so each image is distinct and incompressible."""
    folder = os.path.join(work, f"browse-{count}-{label.replace(' ', '')}")
    os.makedirs(folder, exist_ok=True)
    names = [os.path.join(folder, f"Trip {index}.gallery") for index in range(count)]
    missing = [index for index, name in enumerate(names) if not os.path.exists(name)]
    if missing:
        jpeg = open(sample, "rb").read()
        noise = random.Random(size).randbytes(max(0, size - len(jpeg)))
        for index in missing:
            marker = f"browse-benchmark-{index}-".encode()
            write_document(names[index], index, jpeg + marker + noise[len(marker):])
    for stray in set(os.listdir(folder)) - {os.path.basename(name) for name in names}:
        os.remove(os.path.join(folder, stray))
    check = subprocess.run([gallery, "verify", names[0]], capture_output=True, text=True)
    if check.returncode != 0:
        sys.exit(f"generated document is not valid: {check.stdout}{check.stderr}")
    return folder, names


PYTHON_READ_MANIFESTS = """
import json, os, sys, zipfile
folder = sys.argv[1]
for name in sorted(os.listdir(folder)):
    if name.endswith('.gallery'):
        with zipfile.ZipFile(os.path.join(folder, name)) as archive:
            json.loads(archive.read('manifest.json'))
"""

results = {}
cache_home = tempfile.mkdtemp(prefix="gallery-browse-cache-")
environment = dict(os.environ, XDG_CACHE_HOME=cache_home)
index_file = os.path.join(cache_home, "gallery", "browse-index.sqlite")


def delete_index():
    for suffix in ("", "-wal", "-shm", "-journal"):
        if os.path.exists(index_file + suffix):
            os.remove(index_file + suffix)


try:
    for label, size in SIZES:
        folder, names = make_folder(label, size)
        total = sum(os.path.getsize(name) for name in names)
        print(f"\n{count:,} documents of {label} ({total / 1e6:,.0f} MB), warm page cache; ratios to the raw read")
        browse = [gallery, "browse", folder, "--json"]
        for name in names:  # Bring the files into the page cache.
            with open(name, "rb") as file:
                file.read(65536)
        raw = median_seconds(["head", "-q", "-c", "65536", *names], runs=5)
        python = median_seconds([sys.executable, "-c", PYTHON_READ_MANIFESTS, folder], runs=5)
        cold = median_seconds(browse, runs=5, before=delete_index, env=environment)
        subprocess.run(browse, check=True, stdout=subprocess.DEVNULL, env=environment)
        # Files written within 2 s of a listing are read again by the next one: let them settle.
        time.sleep(2.1)
        subprocess.run(browse, check=True, stdout=subprocess.DEVNULL, env=environment)
        warm = median_seconds(browse, runs=10, env=environment)
        step = [0]

        def touch_one_percent():
            step[0] += 1
            for name in random.Random(step[0]).sample(names, max(1, count // 100)):
                os.utime(name, ns=(time.time_ns(), time.time_ns()))

        touched = median_seconds(browse, runs=5, before=touch_one_percent, env=environment)
        time.sleep(2.1)
        subprocess.run(browse, check=True, stdout=subprocess.DEVNULL, env=environment)
        search = median_seconds([gallery, "browse", folder, "--json", "--search", "harb"], runs=10, env=environment)
        found = subprocess.run([gallery, "browse", folder, "--json", "--search", "harb"], check=True,
                               capture_output=True, env=environment).stdout
        unindexed = median_seconds(browse + ["--no-index"], runs=5)
        report([
            ("raw: head -c 65536 of every file (one process)", raw),
            ("python3: zipfile + json.loads of every manifest", python),
            ("gallery browse --json, cold (no index)", cold),
            ("gallery browse --json, warm (index, nothing changed)", warm),
            ("gallery browse --json, after touching 1% of the documents", touched),
            (f"gallery browse --json --search harb (warm; {len(json.loads(found))} found)", search),
            ("gallery browse --json --no-index", unindexed),
        ])
        results[label] = {"raw": raw, "python": python, "cold": cold, "warm": warm, "search": search}
finally:
    shutil.rmtree(cache_home, ignore_errors=True)

print("\nChecks")
failures = 0


def check(passed, text):
    global failures
    failures += not passed
    print(f"  {'PASS' if passed else 'FAIL'}  {text}")


for label, figures in results.items():
    check(figures["cold"] <= 2 * figures["raw"],
          f"{label}: cold {figures['cold'] * 1000:.0f} ms within 2x of the raw read ({figures['cold'] / figures['raw']:.2f}x)")
    check(figures["python"] >= 3 * figures["cold"],
          f"{label}: cold at least 3x faster than Python ({figures['python'] / figures['cold']:.2f}x)")
    check(figures["cold"] >= 10 * figures["warm"],
          f"{label}: warm {figures['warm'] * 1000:.1f} ms at least 10x faster than cold ({figures['cold'] / figures['warm']:.2f}x)")
    check(figures["search"] < 0.050, f"{label}: search on the warm index {figures['search'] * 1000:.1f} ms, under 50 ms")
if "2 MB" in results and "20 KB" in results:
    ratio = results["2 MB"]["cold"] / results["20 KB"]["cold"]
    check(ratio <= 1.3, f"cold for 2 MB documents within 1.3x of 20 KB ones ({ratio:.2f}x)")
sys.exit(1 if failures else 0)
