#!/usr/bin/env python3
"""Regenerates the sample images and the conformance vectors in Specs/Examples.

    python3 Specs/Examples/make_examples.py images    # needs the `vips` command (Debian libvips-tools)
    python3 Specs/Examples/make_examples.py vectors   # needs `zip` and `bsdtar` (Debian zip, libarchive-tools)

The vectors are written by writers other than GalleryKit on purpose (Python's zipfile, Info-ZIP
`zip`, `bsdtar`), so the reader is proven against archives it did not write. Every vector gets a
JSON file beside it with the result a conforming reader must reach (see README.md). The output is
deterministic: fixed timestamps, fixed ids, no randomness.
"""
import hashlib
import io
import json
import os
import shutil
import stat
import struct
import subprocess
import sys
import tempfile
import zipfile

HERE = os.path.dirname(os.path.abspath(__file__))
IMAGES = os.path.join(HERE, "images")
MIMETYPE = b"application/vnd.gallery+zip"
DATE = (2026, 1, 2, 3, 4, 6)
STAMP = "2026-01-02T03:04:06Z"


# --- sample images -------------------------------------------------------------------------

def vips(*args):
    subprocess.run(["vips", *[str(a) for a in args]], check=True)


def make_images():
    os.makedirs(IMAGES, exist_ok=True)
    with tempfile.TemporaryDirectory() as work:
        def tmp(name):
            return os.path.join(work, name)

        def channel(name, source, band, scale, offset):
            vips("extract_band", source, tmp(name + ".a.v"), band)
            vips("linear", tmp(name + ".a.v"), tmp(name + ".b.v"), scale, offset)
            vips("cast", tmp(name + ".b.v"), tmp(name), "uchar")
            return tmp(name)

        def picture(width, height, hfreq, vfreq, out, options=""):
            # A colour gradient with soft waves: compresses like a photo would, not like a flat fill.
            vips("xyz", tmp("xyz.v"), width, height)
            vips("sines", tmp("sines.v"), width, height, "--hfreq", hfreq, "--vfreq", vfreq)
            red = channel("r.v", tmp("xyz.v"), 0, 255 / width, 0)
            green = channel("g.v", tmp("xyz.v"), 1, 200 / height, 30)
            blue = channel("b.v", tmp("sines.v"), 0, 90, 140)
            vips("bandjoin", f"{red} {green} {blue}", tmp("rgb.v"))
            vips("copy", tmp("rgb.v"), tmp("srgb.v"), "--interpretation", "srgb")
            vips("copy", tmp("srgb.v"), out + options)

        picture(640, 427, 3, 2, os.path.join(IMAGES, "01-dawn.jpg"), "[Q=80,strip]")
        picture(427, 640, 2, 5, os.path.join(IMAGES, "02-forest.jpg"), "[Q=80,strip]")
        picture(300, 200, 1, 1, tmp("sideways.jpg"), "[Q=80,strip]")
        with open(tmp("sideways.jpg"), "rb") as f:
            rotated = with_exif_orientation(f.read(), 6)
        with open(os.path.join(IMAGES, "03-portrait-exif6.jpg"), "wb") as f:
            f.write(rotated)
        picture(400, 400, 4, 4, os.path.join(IMAGES, "04-diagram.png"), "[compression=9,palette,strip]")
        picture(480, 320, 2, 3, os.path.join(IMAGES, "05-leaf.webp"), "[Q=70,strip]")
        vips("zone", tmp("zone.v"), 160, 160)
        vips("linear", tmp("zone.v"), tmp("zone2.v"), 120, 128)
        vips("cast", tmp("zone2.v"), tmp("zone3.v"), "uchar")
        vips("copy", tmp("zone3.v"), os.path.join(IMAGES, "06-rings.gif"))
        vips("copy", tmp("zone3.v"), os.path.join(IMAGES, "07-scan.tif") + "[compression=deflate,strip]")


def with_exif_orientation(jpeg, orientation):
    """Inserts an APP1 Exif segment holding only the Orientation tag right after SOI."""
    assert jpeg[:2] == b"\xff\xd8"
    tiff = b"MM\x00\x2a" + struct.pack(">I", 8)
    tiff += struct.pack(">H", 1) + struct.pack(">HHIHH", 0x0112, 3, 1, orientation, 0) + struct.pack(">I", 0)
    payload = b"Exif\x00\x00" + tiff
    return jpeg[:2] + b"\xff\xe1" + struct.pack(">H", len(payload) + 2) + payload + jpeg[2:]


# --- manifests -----------------------------------------------------------------------------

def uuid(n):
    return f"00000000-0000-4000-8000-{n:012d}"


def sha256(data):
    return hashlib.sha256(data).hexdigest()


def image_item(n, url, width=640, height=427, cached=None, **extra):
    item = {
        "id": uuid(n), "url": url, "aspectRatio": width / height if width else 1.0, "width": width, "height": height,
        "status": "ok", "error": None, "cached": cached, "thumbnail": None, "caption": None, "added": STAMP,
    }
    item.update(extra)
    return item


def cached_item(data, ext="jpg", media="image/jpeg"):
    digest = sha256(data)
    return {"path": f"images/{digest}.{ext}", "sha256": digest, "bytes": len(data), "mediaType": media}


def manifest(title, images=(), **extra):
    body = {
        "format": "gallery", "formatVersion": "1.0", "id": uuid(999_000), "title": title,
        "created": STAMP, "modified": STAMP, "generator": "make_examples.py", "columns": 3,
        "images": list(images),
    }
    body.update(extra)
    return body


def encode(body):
    return json.dumps(body, indent=2, sort_keys=True).encode()


def sample(name):
    with open(os.path.join(IMAGES, name), "rb") as f:
        return f.read()


# --- writers -------------------------------------------------------------------------------

def python_zip(path, entries, stream=False):
    """entries: [(name, bytes, compression, mode)] written by Python's zipfile."""
    target = io.BytesIO()
    # zipfile writes data descriptors when it cannot seek: the "streamed" writer case.
    sink = Unseekable(target) if stream else target
    with zipfile.ZipFile(sink, "w") as archive:
        for entry in entries:
            name, data, compression = entry[:3]
            info = zipfile.ZipInfo(name, DATE)
            info.compress_type = compression
            info.create_system = 3
            info.external_attr = (entry[3] if len(entry) > 3 else 0o100644) << 16
            archive.writestr(info, data)
    with open(path, "wb") as f:
        f.write(target.getvalue())


class Unseekable(io.RawIOBase):
    def __init__(self, target):
        self.target = target

    def writable(self):
        return True

    def write(self, data):
        return self.target.write(data)

    def tell(self):
        raise OSError("not seekable")

    def seekable(self):
        return False

    def flush(self):
        pass


def staged(files):
    """A temporary folder holding `files` ({name: bytes}) with fixed mtimes, for zip and bsdtar."""
    folder = tempfile.mkdtemp()
    for name, data in files.items():
        path = os.path.join(folder, name)
        os.makedirs(os.path.dirname(path), exist_ok=True)
        with open(path, "wb") as f:
            f.write(data)
        os.utime(path, (1767323046, 1767323046))
    return folder


def infozip(path, files, password_for=()):
    folder = staged(files)
    try:
        target = os.path.abspath(path)
        if os.path.exists(target):
            os.remove(target)
        for name in files:
            flags = ["-X", "-D"] + (["-0"] if name == "mimetype" or name.startswith("images/") else ["-9"])
            if name in password_for:
                flags += ["-P", "secret"]
            subprocess.run(["zip", "-q", *flags, target, name], cwd=folder, check=True)
    finally:
        shutil.rmtree(folder)


def bsdtar(path, files):
    # bsdtar cannot append to a zip or choose the method per entry, so every entry is stored.
    folder = staged(files)
    try:
        subprocess.run(["bsdtar", "--format", "zip", "--options", "zip:compression=store",
                        "-cf", os.path.abspath(path), *files], cwd=folder, check=True)
    finally:
        shutil.rmtree(folder)


# --- vectors -------------------------------------------------------------------------------

STORED, DEFLATED = zipfile.ZIP_STORED, zipfile.ZIP_DEFLATED


def write_expectation(path, **fields):
    with open(path[: -len(".gallery")] + ".json", "w") as f:
        json.dump(fields, f, indent=2, sort_keys=True)
        f.write("\n")


def basic(body, *more):
    return [("mimetype", MIMETYPE, STORED), ("manifest.json", encode(body), DEFLATED), *more]


def make_valid(folder):
    photo, webp = sample("01-dawn.jpg"), sample("05-leaf.webp")
    photo_entry, webp_entry = cached_item(photo), cached_item(webp, "webp", "image/webp")
    cached_pair = manifest("Two cached images", [
        image_item(1, "file:///home/ana/Pictures/dawn.jpg", cached=photo_entry),
        image_item(2, "file:///home/ana/Pictures/leaf.webp", 480, 320, cached=webp_entry, caption="Leaf"),
    ])
    pair_files = [(photo_entry["path"], photo, STORED), (webp_entry["path"], webp, STORED)]

    def valid(name, writer, title, images, cached, description, verify=None, attributions=None):
        path = os.path.join(folder, name + ".gallery")
        fields = dict(description=description, writer=writer, title=title, images=images, cached=cached)
        if verify:
            fields["verify"] = verify
        if attributions is not None:
            fields["attributions"] = attributions
        write_expectation(path, **fields)
        return path

    python_zip(valid("empty-python-zipfile", "Python zipfile", "Empty", 0, 0,
                     "The smallest document: mimetype and a manifest with no images."), basic(manifest("Empty")))

    python_zip(valid("cached-python-zipfile", "Python zipfile", "Two cached images", 2, 2,
                     "Two images whose bytes are cached under images/<sha256>.<ext>, stored."),
               basic(cached_pair, *pair_files))

    python_zip(valid("cached-python-zipfile-streamed", "Python zipfile (unseekable output)", "Two cached images", 2, 2,
                     "As cached-python-zipfile, written to an unseekable stream: every entry has a data descriptor "
                     "and sizes of zero in its local header."),
               basic(cached_pair, *pair_files), stream=True)

    infozip(valid("cached-infozip", "Info-ZIP zip 3.0", "Two cached images", 2, 2,
                  "Written entry by entry with the `zip` command: mimetype and images stored, manifest deflated."),
            {"mimetype": MIMETYPE, "manifest.json": encode(cached_pair), photo_entry["path"]: photo, webp_entry["path"]: webp})

    bsdtar(valid("cached-bsdtar", "bsdtar (libarchive) --format zip", "Two cached images", 2, 2,
                 "Written by the bsdtar command with every entry stored, the manifest too (readers accept a stored manifest)."),
           {"mimetype": MIMETYPE, "manifest.json": encode(cached_pair), photo_entry["path"]: photo, webp_entry["path"]: webp})

    web = manifest("From the web", [
        image_item(1, "https://example.org/photos/harbour.jpg", 1600, 1067),
        image_item(2, "https://example.org/missing.png", None, None, status="failed",
                   error="HTTP 404 Not Found", aspectRatio=1.0),
        image_item(3, "https://example.org/photos/tower.jpg", 800, 1200, caption="Tower at noon"),
    ], columns=4)
    python_zip(valid("uncached-urls", "Python zipfile", "From the web", 3, 0,
                     "Items that keep only their URL and aspect ratio, one of them a failed fetch shown as a "
                     "square (aspectRatio 1.0) error tile."), basic(web))

    future = manifest("From a newer minor version", [
        image_item(1, "file:///tmp/dawn.jpg", cached=photo_entry, rating=5,
                   cached_extra=None),
    ], formatVersion="1.7", tags=["trip", "2026"], layout={"mode": "masonry"})
    future["images"][0]["cached"] = dict(photo_entry, colorProfile="sRGB")
    del future["images"][0]["cached_extra"]
    python_zip(valid("future-minor-version", "Python zipfile", "From a newer minor version", 1, 1,
                     "formatVersion 1.7 with fields and an entry (extensions/notes.txt) a 1.0 reader does not know: "
                     "it opens, and an edit keeps all of them."),
               basic(future, (photo_entry["path"], photo, STORED),
                     ("extensions/notes.txt", b"Written by a future GalleryKit.\n", DEFLATED)))

    credited = manifest("Credits", [
        image_item(1, "https://example.org/photos/harbour.jpg", 1600, 1067,
                   attribution={"creator": "Ben Okafor", "credit": "Photo: Ben Okafor", "license": None}),
        image_item(2, "https://example.org/photos/tower.jpg", 800, 1200),
        image_item(3, "https://example.org/photos/pier.jpg", 800, 1200, attribution=None),
    ], formatVersion="1.1", attribution={
        "creator": "Ana Lima", "copyright": "© 2026 Ana Lima",
        "license": "http://creativecommons.org/licenses/by/4.0/", "source": "https://example.org/trip",
        "contact": "ana@example.org",
    })
    document_credit = {"creator": "Ana Lima", "copyright": "© 2026 Ana Lima",
                       "license": "http://creativecommons.org/licenses/by/4.0/", "source": "https://example.org/trip"}
    python_zip(valid("attribution-1.1", "Python zipfile", "Credits", 3, 0,
                     "Format 1.1: the document's attribution is its images' default; image 1 has a creator and a credit "
                     "of its own (and a null license, which is the document's), images 2 and 3 have none. "
                     "'attributions' is each image's resolved attribution; the unknown member 'contact' is kept.",
                     attributions=[dict(document_credit, creator="Ben Okafor", credit="Photo: Ben Okafor"),
                                   document_credit, document_credit]), basic(credited))

    no_columns = manifest("Default layout", [image_item(1, "https://example.org/a.jpg")])
    del no_columns["columns"]
    python_zip(valid("columns-omitted", "Python zipfile", "Default layout", 1, 0,
                     "No columns field: readers use the default, 3 per row."), basic(no_columns))

    at_limit = encode(manifest("Largest manifest"))
    at_limit = at_limit[:-1] + b" " * (64 * 1024 * 1024 - len(at_limit)) + b"}"
    python_zip(valid("manifest-at-64mib", "Python zipfile", "Largest manifest", 0, 0,
                     "manifest.json of exactly 64 MiB, the limit (mostly spaces, tiny on disk)."),
               [("mimetype", MIMETYPE, STORED), ("manifest.json", at_limit, DEFLATED)])

    python_zip(valid("directory-entries", "Python zipfile", "Two cached images", 2, 2,
                     "Explicit directory entries (images/) as some zip tools add them: ignored."),
               [("mimetype", MIMETYPE, STORED), ("manifest.json", encode(cached_pair), DEFLATED),
                ("images/", b"", STORED, 0o040755), *pair_files])

    # Writer rules that readers forgive: these open, list and edit, but verification reports them.
    python_zip(valid("mimetype-deflated", "Python zipfile", "Two cached images", 2, 2,
                     "mimetype deflated (method 8): readers accept it (spec 2.2), but writers must store it (spec 3.2), "
                     "so verification reports it.",
                     verify={"code": "damagedDocument", "section": "3.2"}),
               [("mimetype", MIMETYPE, DEFLATED), ("manifest.json", encode(cached_pair), DEFLATED), *pair_files])
    python_zip(valid("manifest-not-second", "Python zipfile", "Two cached images", 2, 2,
                     "manifest.json after the cached images: readers accept it anywhere (listing falls back to "
                     "open), but writers must put it second (spec 3.3), so verification reports it.",
                     verify={"code": "damagedDocument", "section": "3.3"}),
               [("mimetype", MIMETYPE, STORED), *pair_files, ("manifest.json", encode(cached_pair), DEFLATED)])


def make_invalid(folder):
    photo = sample("03-portrait-exif6.jpg")
    photo_entry = cached_item(photo)
    good = manifest("Hostile", [image_item(1, "file:///tmp/dawn.jpg", cached=photo_entry)])
    good_entries = basic(good, (photo_entry["path"], photo, STORED))

    def invalid(name, code, description, detected_by="open", writer="Python zipfile"):
        path = os.path.join(folder, name + ".gallery")
        write_expectation(path, description=description, writer=writer, code=code, detectedBy=detected_by)
        return path

    def with_extra(name, mode=0o100644, data=b"pwned\n"):
        return good_entries + [(name, data, STORED, mode)]

    python_zip(invalid("dotdot-entry", "unsafeArchive", "An entry named ../evil.txt (path traversal)."),
               with_extra("../evil.txt"))
    python_zip(invalid("nested-dotdot-entry", "unsafeArchive", "An entry named images/../../evil.txt."),
               with_extra("images/../../evil.txt"))
    python_zip(invalid("absolute-entry", "unsafeArchive", "An entry named /tmp/evil.txt (absolute path)."),
               with_extra("/tmp/evil.txt"))
    # libarchive turns a backslash into a slash when it reads a zip name, so ..\evil.txt comes back
    # as ../evil.txt; either way a reader must refuse it.
    python_zip(invalid("backslash-entry", "unsafeArchive", "An entry named ..\\evil.txt (Windows path traversal)."),
               with_extra("..\\evil.txt"))
    python_zip(invalid("symlink-entry", "unsafeArchive", "A symbolic link entry pointing at /etc/passwd."),
               with_extra("images/link.jpg", 0o120777, b"/etc/passwd"))
    python_zip(invalid("device-entry", "unsafeArchive", "A character device entry."),
               with_extra("images/device.jpg", 0o020644, b""))
    import warnings
    with warnings.catch_warnings():
        warnings.simplefilter("ignore")  # zipfile warns about the duplicate: that is the point
        python_zip(invalid("duplicate-entry", "unsafeArchive", "manifest.json twice, with different content."),
                   good_entries + [("manifest.json", encode(manifest("Other")), DEFLATED)])
    infozip(invalid("encrypted-entry", "unsafeArchive", "manifest.json encrypted with ZipCrypto.",
                    writer="Info-ZIP zip 3.0 -P"),
            {"mimetype": MIMETYPE, "manifest.json": encode(good)}, password_for=("manifest.json",))

    whole = os.path.join(folder, "truncated.gallery")
    python_zip(whole, good_entries)
    with open(whole, "rb") as f:
        data = f.read()
    with open(whole, "wb") as f:
        f.write(data[: len(data) // 2])
    write_expectation(whole, description="The first half of a valid document: no central directory.",
                      writer="Python zipfile, cut", code="damagedDocument", detectedBy="open")

    crc = os.path.join(folder, "image-crc-mismatch.gallery")
    python_zip(crc, good_entries)
    with open(crc, "rb") as f:
        data = bytearray(f.read())
    at = data.find(photo[100:140])
    data[at] ^= 0xFF
    with open(crc, "wb") as f:
        f.write(bytes(data))
    write_expectation(crc, description="One byte of the cached image flipped: its CRC-32 no longer matches.",
                      writer="Python zipfile, patched", code="damagedDocument", detectedBy="verify")

    python_zip(invalid("missing-mimetype", "damagedDocument", "No mimetype entry at all."),
               good_entries[1:])
    python_zip(invalid("wrong-mimetype", "damagedDocument", "mimetype says application/zip."),
               [("mimetype", b"application/zip", STORED)] + good_entries[1:])
    python_zip(invalid("mimetype-with-newline", "damagedDocument", "mimetype has a trailing newline."),
               [("mimetype", MIMETYPE + b"\n", STORED)] + good_entries[1:])
    python_zip(invalid("mimetype-not-first", "damagedDocument", "manifest.json comes before mimetype."),
               [good_entries[1], good_entries[0], good_entries[2]])
    python_zip(invalid("missing-manifest", "damagedDocument", "mimetype and an image, no manifest.json."),
               [good_entries[0], good_entries[2]])
    python_zip(invalid("manifest-not-json", "damagedDocument", "manifest.json is not JSON."),
               [good_entries[0], ("manifest.json", b"{ this is not json", DEFLATED)])
    python_zip(invalid("manifest-not-utf8", "damagedDocument", "manifest.json is Latin-1, not UTF-8."),
               [good_entries[0], ("manifest.json", encode(manifest("x")).replace(b'"x"', b'"caf\xe9"'), DEFLATED)])

    def broken(name, description, change, code="damagedDocument"):
        body = json.loads(encode(good))
        change(body)
        python_zip(invalid(name, code, description), basic(body, good_entries[2]))

    broken("manifest-columns-string", "columns is the string \"3\".", lambda b: b.update(columns="3"))
    broken("manifest-columns-zero", "columns is 0.", lambda b: b.update(columns=0))
    broken("manifest-missing-id", "The manifest has no id.", lambda b: b.pop("id"))
    broken("manifest-images-object", "images is an object, not an array.", lambda b: b.update(images={}))
    broken("manifest-wrong-format", "format is \"epub\".", lambda b: b.update(format="epub"))
    broken("image-zero-aspect-ratio", "An image's aspectRatio is 0.", lambda b: b["images"][0].update(aspectRatio=0))
    broken("image-bad-status", "An image's status is \"broken\".", lambda b: b["images"][0].update(status="broken"))
    broken("image-relative-url", "An image's url is relative.", lambda b: b["images"][0].update(url="dawn.jpg"))
    broken("image-duplicate-id", "Two images share one id.",
           lambda b: b["images"].append(dict(b["images"][0], cached=None)))
    broken("cached-path-missing", "cached.path names an entry that is not in the archive.",
           lambda b: b["images"][0]["cached"].update(path="images/" + "0" * 64 + ".jpg", sha256="0" * 64))
    broken("cached-path-outside-images", "cached.path is mimetype, not an entry under images/.",
           lambda b: b["images"][0]["cached"].update(path="mimetype"))
    broken("cached-bytes-mismatch", "cached.bytes differs from the entry's size.",
           lambda b: b["images"][0]["cached"].update(bytes=photo_entry["bytes"] + 1))
    broken("attribution-not-object", "Format 1.1: the document's attribution is a string, not an object.",
           lambda b: b.update(formatVersion="1.1", attribution="Ana Lima"))
    broken("image-attribution-creator-number", "Format 1.1: an image's attribution.creator is the number 42.",
           lambda b: (b.update(formatVersion="1.1"), b["images"][0].update(attribution={"creator": 42})))
    broken("format-version-leading-zero", "formatVersion \"01.0\" is not MAJOR.MINOR in plain decimal.",
           lambda b: b.update(formatVersion="01.0"))
    broken("format-version-2", "formatVersion 2.0: a newer major version.",
           lambda b: b.update(formatVersion="2.0"), code="unsupportedVersion")

    python_zip(invalid("bzip2-entry", "unsafeArchive", "manifest.json compressed with bzip2: only stored and deflate are allowed."),
               [good_entries[0], ("manifest.json", encode(good), zipfile.ZIP_BZIP2), good_entries[2]])
    python_zip(invalid("lzma-entry", "unsafeArchive", "The cached image compressed with LZMA: only stored and deflate are allowed."),
               [good_entries[0], good_entries[1], (photo_entry["path"], photo, zipfile.ZIP_LZMA)])
    python_zip(invalid("mimetype-too-long", "damagedDocument", "mimetype followed by 300 spaces."),
               [("mimetype", MIMETYPE + b" " * 300, STORED)] + good_entries[1:])

    # An undo revision that caches an image the archive no longer holds: undo could not work.
    lost = dict(photo_entry, path="images/" + "e" * 64 + ".jpg", sha256="e" * 64)
    revision = manifest("Before", [image_item(2, "file:///tmp/lost.jpg", cached=lost)])
    python_zip(invalid("revision-missing-image", "damagedDocument",
                       "history/undo/01.json caches an image that is not in the archive.", "verify"),
               good_entries + [("history/undo/01.json", encode(revision), DEFLATED)])

    # The image's bytes no longer hash to the digest in its name and in the manifest.
    tampered = bytearray(photo)
    tampered[-3] ^= 0x01
    python_zip(invalid("image-sha256-mismatch", "damagedDocument",
                       "The cached image's bytes do not hash to its sha256 (CRC is consistent).", "verify"),
               basic(good, (photo_entry["path"], bytes(tampered), STORED)))

    # 64 MiB + 1 byte of JSON, mostly spaces: tiny on disk. (And exactly 64 MiB, the largest
    # manifest allowed, among the valid vectors.)
    body = encode(manifest("Huge"))
    padded = body[:-1] + b" " * (64 * 1024 * 1024 + 1 - len(body)) + b"}"
    python_zip(invalid("manifest-over-64mib", "limitExceeded", "manifest.json inflates to 64 MiB + 1 byte."),
               [good_entries[0], ("manifest.json", padded, DEFLATED)])

    # 65 MiB of zeros behind a ~65 KB deflate stream: past 64 MiB at ~1000x.
    python_zip(invalid("zip-bomb", "limitExceeded",
                       "An extension entry that inflates to 65 MiB at ~1000x its compressed size.", "verify"),
               good_entries + [("extensions/bomb.bin", b"\0" * (65 * 1024 * 1024), DEFLATED)])


def make_vectors():
    for kind, make in (("valid", make_valid), ("invalid", make_invalid)):
        folder = os.path.join(HERE, kind)
        shutil.rmtree(folder, ignore_errors=True)
        os.makedirs(folder)
        make(folder)


if __name__ == "__main__":
    what = sys.argv[1:] or ["images", "vectors"]
    if "images" in what:
        make_images()
    if "vectors" in what:
        make_vectors()
