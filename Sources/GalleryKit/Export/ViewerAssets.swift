import Foundation

/// The image viewer's files (`viewer.js`, `viewer-layout.js`, `viewer.css`): one viewer for the
/// HTML export and for `gallery serve`'s page, so that the two never drift apart.
///
/// The viewer makes its own markup in an empty `<dialog class="viewer">`; a page loads
/// `viewer-layout.js` before `viewer.js`, which defines `window.GalleryViewer` (its options are
/// described at the top of `viewer.js`).
public enum ViewerAssets {
    /// The files' names, in the order a page loads them.
    public static let names = ["viewer.css", "viewer-layout.js", "viewer.js"]

    /// The bytes of the viewer's file `name` (one of `names`).
    /// - Throws: `.fileNotFound` if `name` is not one of `names`.
    public static func data(named name: String) throws(GalleryError) -> Data {
        guard names.contains(name) else {
            throw GalleryError(.fileNotFound, path: name, "not one of the viewer's files (\(names.joined(separator: ", ")))")
        }
        return try ExportTemplate.data(named: "html/\(name)")
    }
}
