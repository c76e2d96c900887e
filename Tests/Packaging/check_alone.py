#!/usr/bin/env python3
"""The `gallery` program alone: copied into an empty folder, it exports, serves and installs.

    check_alone.py GALLERY IMAGE...

Copies the program GALLERY, and nothing else, into an empty temporary folder (as anyone
installing it into /usr/local/bin would) and runs that copy, with its data, state and cache
folders in the temporary folder too: `create --cache` from the IMAGEs, `export --format html`
(the page and its scripts written, the viewer's among them), `serve` (the browser page, a gallery
page, the state, a page script and the viewer's script answer with their types), and
`install-desktop-files --user` (the MIME definition written). Also checks that the program names
no resource bundle of GalleryKit's targets (nothing of its own is looked up beside it). Prints one line; exits 1 on
the first failure.
"""
import http.cookiejar
import os
import re
import shutil
import subprocess
import sys
import tempfile
import urllib.request
from pathlib import Path

sys.path.insert(0, os.path.join(os.path.dirname(__file__), "..", "Browser"))
from browserlib import check, check_main, start_serve, stop_serve  # noqa: E402


def run(gallery, images, screenshots):
    work = Path(tempfile.mkdtemp(prefix="gallerykit-alone-"))
    try:
        alone = work / "bin"
        alone.mkdir()
        program = alone / "gallery"
        shutil.copy2(gallery, program)
        # SwiftPM names a target's resource bundle PACKAGE_TARGET.resources, and a program that has
        # one looks for it beside itself, then at the build folder's absolute path.
        bundles = sorted(set(re.findall(rb"GalleryKit_[A-Za-z]+\.resources", program.read_bytes())))
        check(not bundles, f"the program looks for resource bundles of its own: {bundles}")
        environment = dict(os.environ, HOME=str(work / "home"), XDG_DATA_HOME=str(work / "data"),
                           XDG_STATE_HOME=str(work / "state"), XDG_CACHE_HOME=str(work / "cache"))
        documents = work / "documents"
        documents.mkdir()

        def gallery_alone(*arguments):
            result = subprocess.run([str(program), *arguments], capture_output=True, text=True, env=environment, cwd=work)
            check(result.returncode == 0, f"gallery {' '.join(arguments[:2])} from the copy alone: exit {result.returncode}: {result.stderr.strip()}")
            return result

        gallery_alone("create", str(documents / "Trip.gallery"), "--cache", "--quiet", *map(os.path.abspath, images))
        gallery_alone("export", str(documents / "Trip.gallery"), "--format", "html", "--output", str(work / "Site"), "--quiet")
        for name in ["index.html", "assets/gallery.js", "assets/viewer.js", "assets/viewer-layout.js", "assets/viewer.css"]:
            check((work / "Site" / name).stat().st_size > 0, f"the export has no {name}")

        server, origin, token = start_serve(str(program), documents, environment)
        try:
            opener = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
            for path, kind in [(f"/?token={token}", "text/html"), ("/gallery/Trip.gallery", "text/html"),
                               ("/api/galleries/Trip.gallery?width=1280", "application/json"),
                               ("/assets/gallery.js", "text/javascript"), ("/assets/viewer.js", "text/javascript")]:
                with opener.open(origin + path, timeout=10) as answer:
                    body = answer.read()
                    check(answer.status == 200 and answer.headers["Content-Type"].startswith(kind) and body,
                          f"serve from the copy alone: {path} answered {answer.status} {answer.headers['Content-Type']}")
        finally:
            stop_serve(server)

        gallery_alone("install-desktop-files", "--user")
        check((work / "data" / "mime" / "packages" / "gallerykit.xml").stat().st_size > 0, "install-desktop-files wrote no MIME definition")
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    check_main("check_alone", run, "a copy of the program alone creates, exports html, serves (pages, state, scripts) and installs desktop files")
