#!/usr/bin/env python3
"""Thumbnailing 300 photos: what thumbnails add to `gallery create --cache` (its time minus the
same command with --no-thumbnails), against the `vipsthumbnail` command on the same files
(256 px long edge), run as is and as two processes (one per core). Target: within 1.2x.

    python3 Tests/Benchmarks/thumbnails_vs_vipsthumbnail.py [WORKDIR]
"""
import os
import shutil

from benchlib import median_seconds, photo_benchmark, report

work, gallery, photos = photo_benchmark()
thumbs = os.path.join(work, "thumbs")
created = os.path.join(work, "thumbs.gallery")


def fresh():
    shutil.rmtree(thumbs, ignore_errors=True)
    os.makedirs(thumbs)
    if os.path.exists(created):
        os.remove(created)


half = len(photos) // 2
vipsthumbnail = ["vipsthumbnail", "--size", "256", "-o", os.path.join(thumbs, "%s.jpg[Q=80,strip]")]
one = median_seconds(vipsthumbnail + photos, before=fresh, runs=3)
two = median_seconds(["sh", "-c", " ".join(vipsthumbnail + photos[:half]) + " & " + " ".join(vipsthumbnail + photos[half:]) + "; wait"],
                     before=fresh, runs=3)
with_thumbnails = median_seconds([gallery, "create", created, "--cache", *photos], before=fresh, runs=3)
without = median_seconds([gallery, "create", created, "--cache", "--no-thumbnails", *photos], before=fresh, runs=3)
print("300 photos (3000x2000 JPEG) to 256 px thumbnails")
report([
    ("vipsthumbnail, one process", one),
    ("vipsthumbnail, two processes (one per core)", two),
    ("gallery: create --cache minus create --cache --no-thumbnails", with_thumbnails - without),
])
print(f"  (gallery create --cache: {with_thumbnails:.2f} s; with --no-thumbnails: {without:.2f} s)")
