#!/usr/bin/env python3
"""`gallery export --format html` of a document with 300 cached photos and their thumbnails
against `bsdtar -xf` of the same document (extracting every entry). Target: within 1.5x — the
export must copy the originals and reuse the stored thumbnails, never decode an original.

    python3 Tests/Benchmarks/export_html_vs_bsdtar.py [WORKDIR]
"""
import os
import shutil

from benchlib import cached_document, median_seconds, photo_benchmark, report

work, gallery, photos = photo_benchmark()
document = cached_document(gallery, os.path.join(work, "export-source.gallery"), photos)
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
