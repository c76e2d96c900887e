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
    /// - Returns: `false` when the round trip changes the gallery.
    package static func decodeManifest(_ data: Data) throws -> Bool {
        let gallery = try Manifest.decode(data)
        return try Manifest.decode(Manifest.encode(gallery)) == gallery
    }
}
