import Foundation

/// Copying images between documents (the seed app's drag from one app to another).
extension GalleryDocument {
    /// Copies the images at `offsets` of `source` into this document at `offset` (the end when
    /// `nil`). Their cached bytes travel with them; each copy gets a new id.
    /// - Returns: the copies.
    @discardableResult
    public mutating func insertCopies(ofImagesAt offsets: [Int], from source: GalleryDocument, at offset: Int? = nil) throws -> [GalleryImage] {
        let originals = try source.gallery.validated(offsets).map { source.gallery.images[$0] }
        let copies = originals.map { original in
            var copy = original
            copy.id = UUID()
            return copy
        }
        try edit { try $0.insert(contentsOf: copies, at: offset ?? $0.images.count) }
        for original in originals {
            guard let cached = original.cached, contents?.contains(cached.path) != true, pendingEntries[cached.path] == nil else { continue }
            if let pending = source.pendingEntries[cached.path] {
                pendingEntries[cached.path] = pending
            } else if let sourceContents = source.contents {
                pendingEntries[cached.path] = .archived(source.url, name: cached.path)
                otherSources[source.url] = sourceContents
            }
        }
        return copies
    }
}
