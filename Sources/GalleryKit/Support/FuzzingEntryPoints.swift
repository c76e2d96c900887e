import Foundation

/// The internal readers the fuzz targets in `Tests/Fuzz` drive, at `package` access: visible to
/// the package's own targets, not part of GalleryKit's public API.
///
/// Each one does exactly what the named reader does and throws what it throws (a `GalleryError`).
package enum FuzzingEntryPoints {
    /// `open`: the whole central directory checked, plus the manifest (`BundleReader.open`).
    package static func openDocument(at url: URL) throws {
        _ = try BundleReader.open(url)
    }

    /// The listing read: `mimetype` and `manifest.json` through the streaming reader.
    package static func readSummary(of url: URL) throws {
        _ = try BundleReader.summary(of: url)
    }

    /// Decodes `data` as `manifest.json` (`Manifest.decode`); if it is a manifest, encodes the
    /// gallery again and decodes that: a document that opens must save to the same gallery.
    /// The JSON-tree path that revisions take (`Manifest.gallery(from:)`) must give the same
    /// gallery, or the same error.
    /// - Returns: `false` when the round trip changes the gallery, or the two paths disagree.
    package static func decodeManifest(_ data: Data) throws -> Bool {
        let fromTree = Result { try Manifest.gallery(from: ManifestParser.parse(data, limits: BundleLimits.standard.parsing)) }
        let gallery: Gallery
        do {
            gallery = try Manifest.decode(data)
        } catch {
            guard case .failure(let treeError) = fromTree, "\(treeError)" == "\(error)" else { return false }
            throw error
        }
        guard case .success(gallery) = fromTree else { return false }
        return try Manifest.decode(Manifest.encode(gallery)) == gallery
    }
}
