#!/usr/bin/env python3
"""Display sizes (renditions: 512, 1024 and 2048 px long edges, progressive JPEG Q80 without metadata) of
300 photos, against `vipsthumbnail` making the same three sizes of the same files (one run per
size, as two processes: one per core). Targets:

- `gallery export --format html` of a document with the 300 photos cached (it reads each
  original out of the document, makes its three sizes from one decode, reuses the stored
  thumbnails and writes the page): within 1.5x of vipsthumbnail;
- `gallery serve`'s first answer for a display size of a 24-megapixel JPEG stored in a document
  (nothing in its cache): within 150 ms, each size, median of 5 fresh servers; printed beside
  `vipsthumbnail` making that size of the same file (a process: its start is in it). Made on
  request, this is out of reach on this 2-core machine (the decoder alone takes ~0.13 s at
  1/8 scale), so the server makes a tile's larger sizes ahead: also measured, the viewer's
  2048 asked for 1.5 s after the tile's 1024 (a person looking at the grid before a tap);
- the exported site of camera photos (Debian's lomiri-wallpapers photographs, re-encoded at a
  camera's quality, Q92, with a GPS location added): at most 25 % of the originals' bytes, and
  no file of it carrying the location. Skipped if /usr/share/backgrounds has none.

    python3 Tests/Benchmarks/renditions_vs_vipsthumbnail.py [WORKDIR]
"""
import glob
import http.client
import os
import shutil
import statistics
import struct
import subprocess
import time

from benchlib import Server, cached_document, interleaved_median_seconds, photo_benchmark, report, vips

LADDER = (512, 1024, 2048)
work, gallery, photos = photo_benchmark()
document = cached_document(gallery, os.path.join(work, "export-source.gallery"), photos)
site, sizes = os.path.join(work, "site"), os.path.join(work, "sizes")


def fresh():
    shutil.rmtree(site, ignore_errors=True)
    shutil.rmtree(sizes, ignore_errors=True)
    for edge in LADDER:
        os.makedirs(os.path.join(sizes, str(edge)))


def vipsthumbnail_all_sizes():
    """The shell command making every size of every photo with vipsthumbnail, two processes at once."""
    half = len(photos) // 2
    runs = []
    for edge in LADDER:
        output = os.path.join(sizes, str(edge), "%s.jpg[Q=80,strip,optimize_coding,interlace]")
        for part in (photos[:half], photos[half:]):
            runs.append(" ".join(["vipsthumbnail", "--size", str(edge), "-o", output] + part))
    # Each size's two halves run at once; the sizes one after the other.
    return ["sh", "-c", "; ".join(f"{runs[i]} & {runs[i + 1]}; wait" for i in range(0, len(runs), 2))]


print(f"300 photos (3000x2000 JPEG, {sum(os.path.getsize(p) for p in photos) / 1e6:.0f} MB) to display sizes {', '.join(map(str, LADDER))}")
anchor, export = interleaved_median_seconds(
    [vipsthumbnail_all_sizes(), [gallery, "export", document, "--format", "html", "--output", site]], runs=3, before=[fresh, fresh])
report([("vipsthumbnail, three sizes, two processes", anchor), ("gallery export --format html (renditions, page)", export)])
ratio = export / anchor
print(f"{'PASS' if ratio <= 1.5 else 'FAIL'}: the HTML export is {ratio:.2f}x vipsthumbnail making the same sizes (target: within 1.5x)")


# gallery serve: the first answer for each size of a 24-megapixel photo.
big = os.path.join(work, "24mp.jpg")
if not os.path.exists(big):
    vips("resize", photos[0], big + "[Q=92]", "2")  # 6000x4000
big_folder = os.path.join(work, "serve-24mp")
if not os.path.exists(os.path.join(big_folder, "Big.gallery")):
    os.makedirs(big_folder, exist_ok=True)
    subprocess.run([gallery, "create", os.path.join(big_folder, "Big.gallery"), "--cache", big], check=True, stdout=subprocess.DEVNULL)
image_id = None
first_answers = {edge: [] for edge in LADDER}
after_tile = []


def answer_seconds(server, connection, edge):
    start = time.perf_counter()
    connection.request("GET", f"/api/galleries/Big.gallery/renditions/{image_id}/{edge}", headers=server.headers)
    response = connection.getresponse()
    body = response.read()
    assert response.status == 200 and body[:2] == b"\xff\xd8", (response.status, body[:80])
    return time.perf_counter() - start


for run in range(5):
    for edges, pause in [((edge,), 0) for edge in LADDER] + [((1024, 2048), 1.5)]:
        state = os.path.join(work, f"serve-state-{run}")
        shutil.rmtree(state, ignore_errors=True)
        server = Server(gallery, big_folder, state)
        try:
            connection = server.connection()
            if image_id is None:
                image_id = server.call(connection, "GET", "/api/galleries/Big.gallery")["items"][0]["id"]
            first = answer_seconds(server, connection, edges[0])
            if pause:
                time.sleep(pause)
                after_tile.append(answer_seconds(server, connection, edges[1]))
            else:
                first_answers[edges[0]].append(first)
        finally:
            server.stop()
print(f"gallery serve: the first answer for a display size of a 24-megapixel JPEG ({os.path.getsize(big) / 1e6:.1f} MB) stored in a document")
for edge in LADDER:
    median = statistics.median(first_answers[edge])
    start = time.perf_counter()
    subprocess.run(["vipsthumbnail", big, "--size", str(edge), "-o", os.path.join(work, f"anchor-{edge}.jpg[Q=80,strip,interlace]")], check=True)
    anchor = time.perf_counter() - start
    print(f"  {edge:>4} px: {median * 1000:6.1f} ms (median of 5), vipsthumbnail {anchor * 1000:6.1f} ms   "
          f"{'PASS' if median <= 0.150 else 'FAIL'} (target: within 150 ms)")
median = statistics.median(after_tile)
print(f"  2048 px 1.5 s after the tile's 1024 (made ahead): {median * 1000:6.1f} ms (median of 5)   "
      f"{'PASS' if median <= 0.150 else 'FAIL'} (target: within 150 ms)")


# The weight of a site of camera photos, and their location.
def with_location(jpeg):
    """`jpeg` with an EXIF segment holding an orientation and a GPS latitude, as a phone writes it."""
    tiff = b"MM\x00\x2a" + struct.pack(">I", 8) + struct.pack(">H", 2)
    tiff += struct.pack(">HHI", 0x0112, 3, 1) + struct.pack(">HH", 1, 0)
    tiff += struct.pack(">HHII", 0x8825, 4, 1, 38) + struct.pack(">I", 0)
    tiff += struct.pack(">H", 2) + struct.pack(">HHI", 1, 2, 2) + b"N\x00\x00\x00"
    tiff += struct.pack(">HHII", 2, 5, 3, 68) + struct.pack(">I", 0) + struct.pack(">6I", 48, 1, 51, 1, 24, 1)
    payload = b"Exif\x00\x00" + tiff
    return jpeg[:2] + b"\xff\xe1" + struct.pack(">H", len(payload) + 2) + payload + jpeg[2:]


def has_location(path):
    with open(path, "rb") as file:
        data = file.read()
    return b"Exif\x00\x00" in data and data.find(b"\x88\x25") >= 0


# Photographs among Debian's lomiri-wallpapers (not the paintings and renderings).
PHOTOGRAPHS = ["Bridge_by_Sander_Klootwijk", "Dragonfly_by_Bolly", "Kleiber_by_Lukas_Baubkus", "Wine_by_Jakkub_Mede",
               "aitzgorri_by_Aitzol_Berasategi", "friends_by_Aitzol_Berasategi", "life_by_Aitzol_Berasategi",
               "picosdeeuropa_by_Aitzol_Berasategi", "seeding_by_Clements_Engelhardt", "sunset_by_Aitzol_Berasategi",
               "umang_by_Abhishek_Mudgal", "Picture_0B_by_freespace"]
sources = [f"/usr/share/backgrounds/{name}.jpg" for name in PHOTOGRAPHS if os.path.exists(f"/usr/share/backgrounds/{name}.jpg")]
if not sources:
    print("(no photographs in /usr/share/backgrounds: `apt-get install lomiri-wallpapers` for the site's weight)")
else:
    camera = os.path.join(work, "camera")
    os.makedirs(camera, exist_ok=True)
    located = []
    for source in sources:
        target = os.path.join(camera, os.path.basename(source))
        if not os.path.exists(target):
            vips("copy", source, os.path.join(camera, "plain.jpg") + "[Q=92]")
            with open(os.path.join(camera, "plain.jpg"), "rb") as file, open(target, "wb") as out:
                out.write(with_location(file.read()))
        located.append(target)
    camera_document = os.path.join(work, "camera.gallery")
    if os.path.exists(camera_document):
        os.remove(camera_document)
    subprocess.run([gallery, "create", camera_document, "--cache", *located], check=True, stdout=subprocess.DEVNULL)
    camera_site = os.path.join(work, "camera-site")
    shutil.rmtree(camera_site, ignore_errors=True)
    subprocess.run([gallery, "export", camera_document, "--format", "html", "--output", camera_site], check=True, stdout=subprocess.DEVNULL)
    originals = sum(os.path.getsize(path) for path in located)
    files = [path for path in glob.glob(os.path.join(camera_site, "**"), recursive=True) if os.path.isfile(path)]
    weight = sum(os.path.getsize(path) for path in files)
    carrying = [os.path.relpath(path, camera_site) for path in files if has_location(path)]
    print(f"{len(located)} camera photos ({originals / 1e6:.1f} MB, every one with a GPS location): the site weighs "
          f"{weight / 1e6:.1f} MB, {weight / originals * 100:.1f} % of the originals   {'PASS' if weight <= originals / 4 else 'FAIL'} (target: at most 25 %)")
    print(f"  files carrying a location: {len(carrying)} of {len(files)}   {'PASS' if not carrying else 'FAIL: ' + ', '.join(carrying[:3])}")
    rungs = {edge: sum(os.path.getsize(p) for p in glob.glob(os.path.join(camera_site, f"renditions/*-{edge}.jpg"))) for edge in LADDER}
    thumbs = sum(os.path.getsize(p) for p in glob.glob(os.path.join(camera_site, "thumbnails/*.jpg")))
    print("  by size: " + ", ".join(f"{edge} px {rungs[edge] / originals * 100:.1f} %" for edge in LADDER)
          + f", thumbnails {thumbs / originals * 100:.1f} %")
