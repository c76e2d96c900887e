import Foundation

/// The style sheet and scripts the HTML export shares with `gallery serve`'s gallery page: the
/// frame lookups (`frames.js`), the virtual grid (`grid.js`), the image request queue
/// (`image-requests.js`), the choice of an image's size (`image-sizes.js`) and the image viewer (`viewer.css`,
/// `viewer-layout.js` and its parts, `viewer.js` last), so that the two pages never drift apart.
///
/// They are classic scripts that each add their part to one object, `window.Gallery`, not ES
/// modules: the export must work from `file://`, where Chromium refuses
/// `<script type="module">`, and no build step bundles them. The viewer makes its own markup in
/// an empty `<dialog class="viewer">`; its options are described at the top of `viewer.js`.
public enum PageAssets {
    /// The files' names, in the order a page loads them.
    public static let names = [
        "viewer.css", "frames.js", "grid.js", "image-requests.js", "image-sizes.js", "viewer-layout.js", "viewer-ui.js", "viewer-strip.js",
        "viewer-zoom.js",
        "viewer-pager.js", "viewer.js",
    ]

    /// The bytes of the file `name` (one of `names`), a style sheet with its breakpoint filled in
    /// (`styleSheet(_:)`).
    /// - Throws: `.fileNotFound` if `name` is not one of `names`.
    public static func data(named name: String) throws(GalleryError) -> Data {
        guard names.contains(name) else {
            throw GalleryError(.fileNotFound, path: name, "not one of the shared page files (\(names.joined(separator: ", ")))")
        }
        return try asset(named: name)
    }

    /// The HTML export's file `Templates/html/<name>` as a page gets it: a style sheet with its
    /// breakpoint filled in, anything else as it is.
    /// - Throws: `.fileNotFound` if GalleryKit has no such file.
    static func asset(named name: String) throws(GalleryError) -> Data {
        let bytes = try ExportTemplate.data(named: "html/\(name)")
        return name.hasSuffix(".css") ? styleSheet(bytes) : bytes
    }

    /// A page's style sheet (GalleryKit's or the app's) with `{{phoneWidth}}` replaced by
    /// `PageStyle.phoneWidth`: the phone breakpoint is written once, in Swift, and the style
    /// sheets' media queries and their `--phone-width` property (which the scripts read) get it
    /// from there. A media query cannot read a custom property, hence the filling.
    public static func styleSheet(_ bytes: some Sequence<UInt8>) -> Data {
        let text = String(decoding: Array(bytes), as: UTF8.self)
        return Data(text.replacingOccurrences(of: "{{phoneWidth}}", with: String(format: "%g", PageStyle.phoneWidth)).utf8)
    }
}
