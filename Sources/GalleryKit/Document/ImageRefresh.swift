import Foundation

/// Images of a document fetched again, to be put back by id: `gallery edit cache` and `retry`,
/// and the app's keep.
///
/// Fetching can take a minute, and a document's lock is held only for an edit: the images are
/// chosen from the document as it is, fetched holding nothing, and applied under the lock to the
/// document as it is then, by id, so edits made meanwhile stay (an image removed meanwhile is
/// passed over).
public struct ImageRefresh: Sendable {
    /// The images fetched, in the order of `prepared`.
    public let ids: [UUID]
    /// What fetching made of each: its new bytes and size, or why it failed.
    public let prepared: PreparedImages

    /// Fetches `images` again through `fetch`, which is given each one's source in order (and
    /// holds no lock).
    /// - Throws: `.invalidArgument` naming the first image whose URL cannot be fetched (another
    ///   scheme than file, http or https, or a browser's upload); `fetch`'s errors.
    public static func fetching(
        _ images: [GalleryImage], with fetch: ([ImageSource]) async throws -> PreparedImages
    ) async throws -> ImageRefresh {
        let sources = try images.map { try ImageSource($0.url) }
        return ImageRefresh(ids: images.map(\.id), prepared: try await fetch(sources))
    }

    /// Puts the fetched images in `document`, into the images with the same ids
    /// (`GalleryDocument.update(imagesWithIDs:from:keepingStatusOfFailures:)`).
    public func apply(to document: inout GalleryDocument, keepingStatusOfFailures: Bool = false) throws {
        try document.update(imagesWithIDs: ids, from: prepared, keepingStatusOfFailures: keepingStatusOfFailures)
    }
}
