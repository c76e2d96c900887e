#!/usr/bin/env python3
"""`gallery export --format contact-sheet` of a document with 300 cached photos and their
thumbnails, against `vips arrayjoin` of the same thumbnails already extracted with `bsdtar -xf`
(the obvious alternative: 20 across, JPEG). Target: within 2x of the arrayjoin alone; the row
with the extraction too is the like-for-like cost, since the export reads its thumbnails out of
the document. Both sides decode only the 256 px thumbnails, never the photos.

    python3 Tests/Benchmarks/contact_sheet_vs_vips.py [WORKDIR]
"""
import glob
import os
import shutil
import subprocess

from benchlib import cached_document, median_seconds, photo_benchmark, report

work, gallery, photos = photo_benchmark()
document = cached_document(gallery, os.path.join(work, "contact-sheet.gallery"), photos)
sheet = os.path.join(work, "contact-sheet.jpg")
extracted = os.path.join(work, "contact-sheet-thumbnails")
joined = os.path.join(work, "arrayjoin.jpg")


def remove(path):
    if os.path.isdir(path):
        shutil.rmtree(path)
    elif os.path.exists(path):
        os.remove(path)


def fresh_extraction():
    remove(extracted)
    os.makedirs(extracted)


# The thumbnails, extracted once for the arrayjoin-only row (in the page cache, like the document).
fresh_extraction()
subprocess.run(["bsdtar", "-xf", document, "thumbnails/"], cwd=extracted, check=True)
thumbnails = sorted(os.path.relpath(p, extracted) for p in glob.glob(os.path.join(extracted, "thumbnails", "*.jpg")))
assert len(thumbnails) == 300, len(thumbnails)
arrayjoin = ["vips", "arrayjoin", " ".join(thumbnails), joined, "--across", "20"]

runs = 7
export = median_seconds([gallery, "export", document, "--format", "contact-sheet", "--output", sheet],
                        before=lambda: remove(sheet), runs=runs)
join_only = median_seconds(arrayjoin, before=lambda: remove(joined), runs=runs, cwd=extracted)


def fresh_both():
    fresh_extraction()
    remove(joined)


both = median_seconds(["sh", "-c", f"bsdtar -xf {document} thumbnails/ && " + " ".join(arrayjoin[:2]) + f" '{arrayjoin[2]}' {joined} --across 20"],
                      before=fresh_both, runs=runs, cwd=extracted)

size = subprocess.run(["vipsheader", "-f", "width", sheet], capture_output=True, text=True).stdout.strip(), \
    subprocess.run(["vipsheader", "-f", "height", sheet], capture_output=True, text=True).stdout.strip()
joined_size = subprocess.run(["vipsheader", "-f", "width", joined], capture_output=True, text=True).stdout.strip(), \
    subprocess.run(["vipsheader", "-f", "height", joined], capture_output=True, text=True).stdout.strip()
print(f"300 cached photos with thumbnails ({os.path.getsize(document) / 1e6:.0f} MB document), median of {runs} runs, warm page cache")
print(f"  contact sheet {size[0]}x{size[1]}, arrayjoin {joined_size[0]}x{joined_size[1]}")
report([
    ("vips arrayjoin --across 20 (thumbnails extracted already)", join_only),
    ("bsdtar -xf D thumbnails/ && vips arrayjoin --across 20", both),
    ("gallery export --format contact-sheet (2048 px)", export),
])
ratio = export / join_only
print(f"  export / arrayjoin alone: {ratio:.2f}x; export / extraction + arrayjoin: {export / both:.2f}x")
print(f"  {'PASS' if ratio <= 2 else 'FAIL'}: within 2x of vips arrayjoin")
