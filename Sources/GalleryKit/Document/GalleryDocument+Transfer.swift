import Foundation

extension GalleryDocument {
    /// Copies (or, with `removingFromSource`, moves) images from one document file into another,
    /// holding both documents' locks. Cached bytes travel with the images.
    ///
    /// The destination is saved before the source: if the process dies between the two saves,
    /// the images are in both documents, never in neither.
    /// - Parameters:
    ///   - offsets: the images of `source`, 0-based.
    ///   - source: the document the images are copied from.
    ///   - destination: the document they are copied into; if it is `source`, the images are
    ///     copied (or moved) within it.
    ///   - position: where the first copy goes in `destination` (the end when `nil`).
    ///   - removingFromSource: remove the images from `source` once `destination` is saved (a move).
    ///   - lockTimeout: how long to wait for each document's lock before failing with `.busy`.
    /// - Returns: the number of images copied.
    @discardableResult
    public static func transferImages(
        atOffsets offsets: [Int],
        from source: URL,
        to destination: URL,
        at position: Int? = nil,
        removingFromSource: Bool = false,
        lockTimeout: Duration = .seconds(5)
    ) throws -> Int {
        for url in [source, destination] where FileLocation.status(of: url) == nil {
            throw GalleryError(.fileNotFound, url: url, "no such document")
        }
        if FileLocation.target(of: source).standardizedFileURL == FileLocation.target(of: destination).standardizedFileURL {
            return try modify(at: source, lockTimeout: lockTimeout) { document in
                if removingFromSource {
                    try document.edit { try $0.move(fromOffsets: offsets, toOffset: position ?? $0.images.count) }
                } else {
                    try document.insertCopies(ofImagesAt: offsets, from: document, at: position)
                }
                return offsets.count
            }
        }
        // The folders of the files themselves, links followed: that is where the saves happen.
        let locks = try FileLock.lockingFolders(
            [destination, source].map { (FileLocation.target(of: $0).deletingLastPathComponent(), $0) }, timeout: lockTimeout)
        var from = try GalleryDocument(contentsOf: source)
        var to = try GalleryDocument(contentsOf: destination)
        try to.insertCopies(ofImagesAt: offsets, from: from, at: position)
        try to.saveHoldingLock()
        if removingFromSource {
            try from.edit { try $0.remove(atOffsets: offsets) }
            try from.saveHoldingLock()
        }
        withExtendedLifetime(locks) {}
        return offsets.count
    }
}
