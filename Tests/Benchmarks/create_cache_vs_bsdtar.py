#!/usr/bin/env python3
"""`gallery create --cache --no-thumbnails` of 300 photos (probe every header, SHA-256 every byte,
store them, fsync) against `bsdtar --format zip` storing the same files uncompressed. Target:
within 1.5x. The default `create --cache` also makes thumbnails; its row shows their cost.

    python3 Tests/Benchmarks/create_cache_vs_bsdtar.py [WORKDIR]
"""
import os

from benchlib import median_seconds, photo_benchmark, report

work, gallery, photos = photo_benchmark()
total = sum(os.path.getsize(p) for p in photos)
created, archived = os.path.join(work, "created.gallery"), os.path.join(work, "stored.zip")


def remove_outputs():
    for path in (created, archived):
        if os.path.exists(path):
            os.remove(path)


print(f"300 photos, {total / 1e6:.0f} MB, files in the page cache for both")
names = [os.path.basename(p) for p in photos]
report([
    ("bsdtar --format zip --options zip:compression=store",
     median_seconds(["bsdtar", "--format", "zip", "--options", "zip:compression=store", "-cf", archived, *names],
                    before=remove_outputs, cwd=os.path.dirname(photos[0]))),
    # create fsyncs the document and its folder before it returns: the same durability costs this much.
    ("bsdtar, then fsync the zip (sync FILE)",
     median_seconds(["sh", "-c", f"bsdtar --format zip --options zip:compression=store -cf {archived} photo-*.jpg && sync {archived}"],
                    before=remove_outputs, cwd=os.path.dirname(photos[0]))),
    # Storing only, as bsdtar does: probe, hash, copy, fsync.
    ("gallery create --cache --no-thumbnails",
     median_seconds([gallery, "create", created, "--cache", "--no-thumbnails", *photos], before=remove_outputs)),
    # And with a 256 px thumbnail of each photo and the preview (issue 3), for scale.
    ("gallery create --cache (thumbnails too)",
     median_seconds([gallery, "create", created, "--cache", *photos], before=remove_outputs, runs=3)),
])
