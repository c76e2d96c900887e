#!/usr/bin/env python3
"""`gallery export --format html` of a document with 300 cached photos and their thumbnails
against `bsdtar -xf` of the same document (extracting every entry). Target: within 1.5x — the
export must copy the originals and reuse the stored thumbnails, never decode an original.

    python3 Tests/Benchmarks/export_html_vs_bsdtar.py [WORKDIR]
"""
import os
import shutil
import subprocess
import sys

from benchlib import gallery_binary, make_photos, median_seconds, report

work = sys.argv[1] if len(sys.argv) > 1 else "/tmp/gallerykit-bench"
gallery = gallery_binary()
photos = make_photos(os.path.join(work, "photos"), 300)
document = os.path.join(work, "export-source.gallery")
if not os.path.exists(document):
    subprocess.run([gallery, "create", document, "--cache", *photos], check=True, stdout=subprocess.DEVNULL)
site, extracted = os.path.join(work, "site"), os.path.join(work, "extracted")


def remove_outputs():
    for path in (site, extracted):
        shutil.rmtree(path, ignore_errors=True)
    os.makedirs(extracted)


print(f"300 photos with thumbnails, {os.path.getsize(document) / 1e6:.0f} MB document, in the page cache for both")
rows = [
    ("bsdtar -xf (every entry)", median_seconds(["bsdtar", "-xf", document, "-C", extracted], before=remove_outputs)),
    ("gallery export --format html", median_seconds([gallery, "export", document, "--format", "html", "--output", site], before=remove_outputs)),
]
report(rows)
ratio = rows[1][1] / rows[0][1]
print(f"{'PASS' if ratio <= 1.5 else 'FAIL'}: export --format html is {ratio:.2f}x bsdtar -xf (target: within 1.5x)")
