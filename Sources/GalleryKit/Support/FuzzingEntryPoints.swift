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
    /// The JSON-tree path that revisions take (`Manifest.gallery(from:)`), and reading the
    /// `images` array in pieces as big manifests are, must give the same gallery, or the same error.
    /// - Returns: `false` when the round trip changes the gallery, or the two paths disagree.
    package static func decodeManifest(_ data: Data) throws -> Bool {
        let fromTree = Result { try Manifest.gallery(from: ManifestParser.parse(data, limits: BundleLimits.standard.parsing)) }
        var inPieces = BundleLimits.standard.parsing
        inPieces.bytesWorthSplitting = 0
        inPieces.pieces = 4
        let fromPieces = Result { try Manifest.decode(data, limits: .standard, parsing: inPieces) }
        let gallery: Gallery
        do {
            gallery = try Manifest.decode(data)
        } catch {
            for other in [fromTree, fromPieces] {
                guard case .failure(let otherError) = other, "\(otherError)" == "\(error)" else { return false }
            }
            throw error
        }
        guard case .success(gallery) = fromTree, case .success(gallery) = fromPieces else { return false }
        return try Manifest.decode(Manifest.encode(gallery)) == gallery
    }
}
