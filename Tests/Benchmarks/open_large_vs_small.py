#!/usr/bin/env python3
"""`gallery open` reads the central directory and the manifest only: a 500 MB document with
300 cached images should open about as fast as a 5 KB one.

    python3 Tests/Benchmarks/open_large_vs_small.py [WORKDIR]
"""
import os
import subprocess

from benchlib import cached_document, median_seconds, photo_benchmark, report

work, gallery, photos = photo_benchmark()
large, small = cached_document(gallery, os.path.join(work, "large.gallery"), photos), os.path.join(work, "small.gallery")
subprocess.run([gallery, "create", small, "--force", *photos[:3]], check=True, stdout=subprocess.DEVNULL)
# The same 300 images without their bytes: the same manifest as the large one, in a tiny file.
listed = os.path.join(work, "listed.gallery")
subprocess.run([gallery, "create", listed, "--force", *photos], check=True, stdout=subprocess.DEVNULL)

print(f"gallery open: {os.path.getsize(large) / 1e6:.0f} MB document (300 cached images) "
      f"vs {os.path.getsize(small) / 1e3:.1f} KB document (3 uncached images)")
report([
    ("open small (KB)", median_seconds([gallery, "open", small], runs=20)),
    (f"open 300 uncached images ({os.path.getsize(listed) / 1e3:.0f} KB)", median_seconds([gallery, "open", listed], runs=20)),
    ("open large (300 cached images)", median_seconds([gallery, "open", large], runs=20)),
    ("open large --json", median_seconds([gallery, "open", large, "--json"], runs=20)),
    ("browse the folder (all three)", median_seconds([gallery, "browse", work], runs=20)),
])
