import Foundation

/// The stored bytes a viewer shows: an image's cached copy, its thumbnail, the document's preview.
extension GalleryDocument {
    /// The most bytes a thumbnail or preview may have; the writer makes them far smaller.
    static let maximumSmallEntryBytes: Int64 = 16 << 20

    /// The bytes of `image`'s cached copy, or `nil` if it is not cached.
    ///
    /// Bytes cached since the last save are read from where they wait; others from the file.
    /// - Throws: `.damagedDocument` if the entry is missing or larger than the manifest says.
    public func cachedBytes(of image: GalleryImage) throws -> Data? {
        guard let cached = image.cached else { return nil }
        return try bytes(ofEntry: cached.path, maximumBytes: max(cached.bytes, 0))
    }

    /// The bytes of `image`'s thumbnail (a JPEG at most `Thumbnailer.longEdge` pixels long), or
    /// `nil` if it has none.
    public func thumbnailBytes(of image: GalleryImage) throws -> Data? {
        guard let thumbnail = image.thumbnail else { return nil }
        return try bytes(ofEntry: thumbnail, maximumBytes: Self.maximumSmallEntryBytes)
    }

    /// The preview (spec §3.4: a contact sheet of the first thumbnails) of the document at `url`,
    /// or `nil` if it has none. Only that entry is read.
    public static func previewBytes(ofDocumentAt url: URL, limits: BundleLimits = .standard) throws -> Data? {
        let found = try BundleReader.readEntries(
            named: [BundleLayout.previewName], of: url, maximumBytes: maximumSmallEntryBytes, limits: limits)
        return found[BundleLayout.previewName]
    }

    private func bytes(ofEntry name: String, maximumBytes: Int64) throws -> Data {
        switch pendingEntries[name] {
        case .data(let data)?: return data
        case .file(let file, _)?: return try GalleryError.attributing(to: url) { try Data(contentsOf: file) }
        case .archived(let source, let stored)?: return try Self.entry(stored, of: source, maximumBytes: maximumBytes, limits: limits)
        case nil: return try Self.entry(name, of: url, maximumBytes: maximumBytes, limits: limits)
        }
    }

    private static func entry(_ name: String, of url: URL, maximumBytes: Int64, limits: BundleLimits) throws -> Data {
        let found = try BundleReader.readEntries(named: [name], of: url, maximumBytes: maximumBytes, limits: limits)
        guard let data = found[name] else { throw GalleryError(.damagedDocument, url: url, "\(name) is missing") }
        return data
    }
}
