import Foundation

extension DocumentExporter {
    /// Exports `document` to `output`: the one pipeline every format goes through.
    ///
    /// In order: the output is checked (it must not exist, unless `options.replacingExisting`);
    /// everything the format reads of the document is read and checked (CRC-32, size, inflation
    /// limit, SHA-256), the images and thumbnails it needs going into the staging folder as they
    /// are read, so that a damaged document is refused before any request is made; then web
    /// images that are not cached are downloaded and local ones read (an image that cannot be
    /// had becomes a failed item and a `Failure`, never an error) and staged too; the format
    /// writes its files; the result is renamed into place. Nothing is visible at `output` before
    /// that rename, and a failure removes everything the export made.
    /// - Throws: `.alreadyExists` for an output that is there; the reading errors of a damaged
    ///   document (nothing is fetched or written then); the format's own errors.
    @discardableResult
    public func export(_ document: GalleryDocument, to output: URL, options: ExportOptions = ExportOptions()) async throws -> ExportReport {
        try ExportStaging.checkOutput(output, replacing: options.replacingExisting, exporter: self)
        let images = document.gallery.images
        // The images `fetchUncachedImages` will get; the rest are read from the document first.
        let toFetch = images.indices.filter { images[$0].needsFetching }
        let inDocument = images.indices.filter { !images[$0].needsFetching }
        let staging = try ExportStaging(for: output)
        do {
            var items = images.indices.map { offset in
                ExportItem(number: offset + 1, image: images[offset], attribution: document.gallery.attribution(ofImageAt: offset))
            }
            try staging.gather(materials, of: document, offsets: inDocument, into: &items)
            if materials.contains(.documentEntries) { try document.checkEntries() }
            var prepared = document
            try await prepared.fetchUncachedImages(
                thumbnails: materials.contains(.thumbnails), fetcher: options.fetcher, progress: options.progress
            )
            try staging.gather(materials, of: prepared, offsets: toFetch, into: &items)
            let contents = ExportContents(gallery: prepared.gallery, items: items, output: output, document: prepared)
            let placement = try write(contents, into: staging.folder)
            try staging.place(placement, replacing: options.replacingExisting)
            let failures = items.compactMap { item in
                item.failure.map { PreparedImages.Failure(position: item.number - 1, source: item.source, reason: $0) }
            }
            return ExportReport(exported: items.count - failures.count, failed: failures.count, failures: failures)
        } catch let error as GalleryError {
            staging.discard()
            // A file of the staging folder is gone now and was never the user's: the output is.
            let stagingPath = staging.folder.pathForDisplay + "/"
            guard let path = error.path, path.hasPrefix(stagingPath) else { throw error }
            throw GalleryError(error.code, url: output, "\(error.reason) (writing \(path.dropFirst(stagingPath.count)))")
        } catch {
            staging.discard()
            throw error
        }
    }
}
