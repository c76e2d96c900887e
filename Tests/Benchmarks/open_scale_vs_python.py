#!/usr/bin/env python3
"""Cost as galleries grow, and the constant every command pays, in one run on the same files.

1. Start-up: `gallery --version`, `gallery open --json` of a tiny document and of a 300-photo
   cached document, against `bsdtar -tf` and `unzip -l` of the same documents.
2. Scale: manifest-only documents (web images, no cached bytes) of 1,000, 10,000 and 100,000
   images (the format's largest allowed count), written by Python's zipfile: `gallery open
   --json` against a Python script that starts its interpreter, opens the zip and decodes the
   manifest; and an edit (`title`, which also stores its undo step) of each.

    python3 Tests/Benchmarks/open_scale_vs_python.py [WORKDIR]
"""
import json
import os
import shutil
import subprocess
import sys
import uuid
import zipfile

from benchlib import gallery_binary, interleaved_median_seconds, make_photos, median_seconds, report

work = sys.argv[1] if len(sys.argv) > 1 else "/tmp/gallerykit-bench"
os.makedirs(work, exist_ok=True)
gallery = gallery_binary()


def manifest_only_document(path, count):
    """A valid document of `count` web images with ordinary fields, as another writer makes it."""
    if os.path.exists(path):
        return path
    images = [{
        "id": str(uuid.UUID(int=index + 1, version=4)),
        "url": f"https://images.example.org/photos/2026/summer-trip/IMG_{index:06d}.jpg",
        "aspectRatio": 1.5 if index % 3 else 0.6666666666666666,
        "width": 3000 if index % 3 else 2000, "height": 2000 if index % 3 else 3000,
        "status": "ok", "error": None, "cached": None, "thumbnail": None,
        "caption": f"Photo {index}" if index % 4 == 0 else None,
        "added": "2026-11-23T10:52:46Z",
    } for index in range(count)]
    manifest = {
        "format": "gallery", "formatVersion": "1.0", "id": str(uuid.uuid4()), "title": f"{count} images",
        "created": "2026-11-23T10:52:46Z", "modified": "2026-11-23T10:52:46Z",
        "generator": "benchmark", "columns": 3, "images": images,
    }
    with zipfile.ZipFile(path, "w") as archive:
        archive.writestr("mimetype", "application/vnd.gallery+zip", compress_type=zipfile.ZIP_STORED)
        archive.writestr("manifest.json", json.dumps(manifest, sort_keys=True, separators=(",", ":")),
                         compress_type=zipfile.ZIP_DEFLATED)
    return path


PYTHON_OPEN = "import json, sys, zipfile; json.loads(zipfile.ZipFile(sys.argv[1]).read('manifest.json'))"

# 1. Start-up and the 300-photo document.
photos = make_photos(os.path.join(work, "photos"), 300)
large, tiny = os.path.join(work, "large.gallery"), os.path.join(work, "tiny.gallery")
if not os.path.exists(large):
    subprocess.run([gallery, "create", large, "--cache", *photos], check=True, stdout=subprocess.DEVNULL)
subprocess.run([gallery, "create", tiny, "--force", photos[0]], check=True, stdout=subprocess.DEVNULL)
print(f"Start-up: tiny document ({os.path.getsize(tiny) / 1e3:.1f} KB) and "
      f"300-photo document ({os.path.getsize(large) / 1e6:.0f} MB); ratios to `bsdtar -tf` of the large one (runs interleaved)")
os.sync()
startup = [
    ("bsdtar -tf large", ["bsdtar", "-tf", large]),
    ("unzip -l large", ["unzip", "-l", large]),
    ("bsdtar -tf tiny", ["bsdtar", "-tf", tiny]),
    ("gallery --version", [gallery, "--version"]),
    ("gallery open tiny", [gallery, "open", tiny]),
    ("gallery open --json tiny", [gallery, "open", "--json", tiny]),
    ("gallery open --json large (300 cached photos)", [gallery, "open", "--json", large]),
]
report(list(zip([label for label, _ in startup], interleaved_median_seconds([command for _, command in startup], runs=30))))

# 2. Scale. The documents are written and synced first: the reads are timed with no writeback
# going on, then the edits.
for count in (1_000, 10_000, 100_000):
    manifest_only_document(os.path.join(work, f"web-{count}.gallery"), count)
os.sync()
for count in (1_000, 10_000, 100_000):
    source = os.path.join(work, f"web-{count}.gallery")
    runs = 20 if count < 100_000 else 10
    python, as_json, plain = interleaved_median_seconds([
        [sys.executable, "-c", PYTHON_OPEN, source],
        [gallery, "open", "--json", source],
        [gallery, "open", source],
    ], runs=runs)
    print(f"\n{count:,} web images, manifest-only ({os.path.getsize(source) / 1e6:.1f} MB file); "
          f"ratios to the Python script (runs interleaved)")
    rows = [
        ("python3: start, open the zip, json.loads the manifest", python),
        ("gallery open --json", as_json),
        ("gallery open", plain),
    ]
    edited = os.path.join(work, f"web-{count}-edited.gallery")
    shutil.copyfile(source, edited)
    step = [0]

    def edit_title():
        step[0] += 1
        return [gallery, "edit", edited, "title", f"Edit {step[0]}"]

    # Each edit adds an undo step until the document holds the full 20 of a long-edited one.
    for _ in range(20):
        subprocess.run(edit_title(), check=True, stdout=subprocess.DEVNULL)
    times = sorted(median_seconds(edit_title(), runs=1, warmup=0) for _ in range(runs))
    rows.append((f"gallery edit title (20 undo steps kept, {os.path.getsize(edited) / 1e6:.1f} MB file)",
                 times[len(times) // 2]))
    report(rows)
