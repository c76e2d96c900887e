import Foundation

/// A self-contained copy of a document to share: every image cached, no undo history.
///
/// The copy keeps the document's `modified` date, so exporting the same document twice gives
/// byte-identical files.
public struct BundleExporter: DocumentExporter {
    public init() {}

    public func export(_ document: GalleryDocument, to output: URL) throws {
        var copy = document
        let images = document.gallery.images
        let uncached = images.indices.filter { !images[$0].isCached && !images[$0].hasFailed }
        if let remote = uncached.first(where: { !images[$0].url.isFileURL }) {
            throw GalleryError(.invalidArgument, url: document.url, "image \(remote + 1) is not cached and not a local file; cache it first")
        }
        if !uncached.isEmpty { try copy.cacheImages(atOffsets: uncached) }
        try copy.write(copy.gallery, to: output, mode: .createNew, includingHistory: false)
    }
}
