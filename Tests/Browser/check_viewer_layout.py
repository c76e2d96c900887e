#!/usr/bin/env python3
"""The viewer's geometry script against the Swift library, in Debian's chromium.

    check_viewer_layout.py CASES.json SCRIPT

CASES.json (written by ViewerLayoutScriptTests) holds inputs and what GalleryLayout answered for
them; each number is its Swift text ("1.5", "nan", "inf"), so that it reaches the page exactly.
SCRIPT (viewer-layout.js) is loaded into a page and asked the same. Prints one line; exits 1 on
the first case where the two differ by more than a billionth of the values' size.
"""
import json
import shutil
import sys

from playwright.sync_api import sync_playwright

COMPARE = """(cases) => {
  const number = (text) => text === 'inf' ? Infinity : text === '-inf' ? -Infinity : Number(text);
  const differs = (a, b) => !(Math.abs(a - b) <= 1e-9 * (Math.abs(a) + Math.abs(b) + 1));
  const layout = window.Gallery.ViewerLayout;
  for (const [index, c] of cases.filmstrip.entries()) {
    const frames = layout.filmstrip(c.ratios.map(number), number(c.position), number(c.rate), number(c.width), number(c.height), number(c.spacing));
    const expected = c.frames.map((frame) => frame.map(number));
    if (frames.length !== expected.length) return `filmstrip case ${index}: ${frames.length} frames, Swift ${expected.length}`;
    for (let at = 0; at < frames.length; at += 1) {
      if (differs(frames[at][0], expected[at][0]) || differs(frames[at][1], expected[at][1])) {
        return `filmstrip case ${index} (${JSON.stringify(c).slice(0, 300)}): item ${at} is [${frames[at]}], Swift [${expected[at]}]`;
      }
    }
  }
  for (const [index, c] of cases.parallax.entries()) {
    const offset = layout.parallaxOffset(number(c.distance), number(c.pageWidth));
    if (differs(offset, number(c.offset))) return `parallax case ${index} (${JSON.stringify(c)}): ${offset}, Swift ${c.offset}`;
  }
  return null;
}"""


def main():
    cases = json.load(open(sys.argv[1]))
    with sync_playwright() as playwright:
        browser = playwright.chromium.launch(executable_path=shutil.which("chromium"), args=["--no-sandbox"])
        page = browser.new_page()
        page.add_script_tag(path=sys.argv[2])
        problem = page.evaluate(COMPARE, cases)
        browser.close()
    if problem:
        print(f"check_viewer_layout: FAIL: {problem}")
        return 1
    print(f"check_viewer_layout: OK: {len(cases['filmstrip'])} strips and {len(cases['parallax'])} parallax offsets as Swift computes them")
    return 0


if __name__ == "__main__":
    sys.exit(main())
