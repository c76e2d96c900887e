import Foundation

/// Copying images between documents (the seed app's drag from one app to another).
extension GalleryDocument {
    /// Copies the images at `offsets` of `source` into this document at `offset` (the end when
    /// `nil`). Their cached bytes and thumbnails travel with them; each copy gets a new id, and
    /// its credit as the source showed it (its own, the source gallery's for the rest).
    /// - Returns: the copies.
    @discardableResult
    public mutating func insertCopies(
        ofImagesAt offsets: [Int], from source: GalleryDocument, at offset: Int? = nil
    ) throws -> [GalleryImage] {
        let validOffsets = try GalleryError.attributing(to: source.url) { try source.gallery.validated(offsets) }
        let originals = validOffsets.map { source.gallery.images[$0] }
        let copies = validOffsets.map { offset in
            var copy = source.gallery.images[offset]
            copy.id = UUID()
            copy.attribution = source.gallery.attribution(ofImageAt: offset)
            return copy
        }
        try edit { try $0.insert(contentsOf: copies, at: offset ?? $0.images.count) }
        for original in originals {
            for name in [original.cached?.path, original.thumbnail].compactMap({ $0 }) {
                guard contents?.contains(name) != true, pendingEntries[name] == nil else { continue }
                if let pending = source.pendingEntries[name] {
                    pendingEntries[name] = pending
                } else if let sourceContents = source.contents, sourceContents.contains(name) {
                    pendingEntries[name] = .archived(source.url, name: name)
                    otherSources[source.url] = sourceContents
                }
            }
        }
        return copies
    }
}
