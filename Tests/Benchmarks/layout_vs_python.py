#!/usr/bin/env python3
"""GalleryLayout's speed on large galleries, against the obvious alternative: the same justified
layout written plainly in Python, on the same seeded aspect ratios.

Builds the release `gallery-layout-benchmark` (under the shared build lock), which lays out N items
(default 100,000) 20 times in each layout and prints the median per layout as JSON; times the
Python layout in-process (interpreter start-up not counted) on the same ratios; checks both make
the same number of rows; and prints PASS/FAIL for "100,000 items under 50 ms".

    python3 Tests/Benchmarks/layout_vs_python.py [COUNT]
"""
import json
import os
import statistics
import subprocess
import sys
import time

from benchlib import ROOT, report

count = int(sys.argv[1]) if len(sys.argv) > 1 else 100_000
BUDGET_SECONDS = 0.050


def seeded_ratios(count, seed=42):
    """The benchmark target's ratios: the same 64-bit LCG, 0.5...2 like photos."""
    state, ratios = seed, []
    for _ in range(count):
        state = (state * 6364136223846793005 + 1442695040888963407) % 2**64
        ratios.append(0.5 + (state >> 11) / 9007199254740992 * 1.5)
    return ratios


def usable(ratio):
    if ratio != ratio or ratio in (float("inf"), float("-inf")) or ratio <= 0:
        return 1.0
    return min(max(ratio, 1 / 16), 16.0)


def justified(ratios, width, row_height, spacing):
    """GalleryLayout.justified's rules (greedy rows, nearer-row-height rule, panoramas alone), plainly."""
    frames, top, content_height, start, count = [], 0.0, 0.0, 0, len(ratios)
    panorama = 2 * width / row_height
    while start < count:
        first = usable(ratios[start])
        end, total, fill, full = start + 1, first, width / first, first > panorama
        if not full:
            while end < count:
                if fill <= row_height:
                    full = True
                    break
                following = usable(ratios[end])
                gaps = (end - start) * spacing
                if following > panorama or gaps > width / 2:
                    break
                candidate = (width - gaps) / (total + following)
                if not (candidate >= row_height or row_height - candidate < fill - row_height):
                    full = True
                    break
                total, end, fill = total + following, end + 1, candidate
            if end == count and fill <= row_height:
                full = True
        height = fill if full else min(fill, row_height)
        x = 0.0
        for index in range(start, end):
            item_width = height * usable(ratios[index])
            if index == end - 1:
                x = min(x, width)
                item_width = max(min(width - x if full else item_width, width - x), 0.0)
            frames.append((x, top, item_width, height))
            x = x + item_width + spacing
        content_height = top + height
        top = content_height + spacing
        start = end
    return frames, content_height


subprocess.run(["flock", "/tmp/swift-build.lock", "swift", "build", "-c", "release", "--product",
                "gallery-layout-benchmark"], cwd=ROOT, check=True)
binary = os.path.join(ROOT, ".build", "release", "gallery-layout-benchmark")
swift = json.loads(subprocess.run([binary, str(count)], check=True, capture_output=True, text=True).stdout)

ratios = seeded_ratios(count)
python_times, python_frames = [], []
for _ in range(6):
    start = time.perf_counter()
    python_frames, _height = justified(ratios, 1200.0, 180.0, 4.0)
    python_times.append(time.perf_counter() - start)
python_seconds = statistics.median(python_times[1:])
python_rows = len({frame[1] for frame in python_frames})

print(f"{count:,} items, width 1200, row height 180, spacing 4; median of {swift['repetitions']} "
      f"(Swift, release) and 5 (Python) layouts; ratios to GalleryLayout.justified")
report([
    ("GalleryLayout.justified", swift["justifiedMilliseconds"] / 1000),
    ("GalleryLayout.grid (5 columns)", swift["gridMilliseconds"] / 1000),
    ("GalleryLayout.filmstrip", swift["filmstripMilliseconds"] / 1000),
    ("python3: same justified layout, plain Python", python_seconds),
])
print(f"  Python is {python_seconds * 1000 / swift['justifiedMilliseconds']:.0f}x the Swift justified layout; "
      f"rows: Swift {swift['justifiedRows']:,}, Python {python_rows:,}"
      f"{'' if swift['justifiedRows'] == python_rows else ' (DIFFERENT)'}")
slowest = max(swift["justifiedMilliseconds"], swift["gridMilliseconds"], swift["filmstripMilliseconds"])
if count == 100_000:
    verdict = "PASS" if slowest / 1000 < BUDGET_SECONDS else "FAIL"
    print(f"{verdict}: 100,000 items under 50 ms (slowest layout {slowest:.2f} ms)")
else:
    print(f"(PASS/FAIL applies to 100,000 items; slowest layout here {slowest:.2f} ms)")
