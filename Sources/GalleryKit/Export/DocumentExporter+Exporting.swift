import Foundation

extension DocumentExporter {
    /// Exports `document` to `output`: the one pipeline every format goes through.
    ///
    /// In order: the output is checked (it must not exist, unless `options.replacingExisting`);
    /// web images that are not cached are downloaded and local ones read (an image that cannot be
    /// had becomes a failed item and a `Failure`, never an error); the images and thumbnails the
    /// format needs are read out of the document, every entry checked as it is read; the format
    /// writes its files; the result is renamed into place. Nothing is visible at `output` before
    /// that rename, and a failure removes everything the export made.
    /// - Throws: `.alreadyExists` for an output that is there; the reading errors of a damaged
    ///   document (nothing is written then); the format's own errors.
    @discardableResult
    public func export(_ document: GalleryDocument, to output: URL, options: ExportOptions = ExportOptions()) async throws -> ExportReport {
        try ExportStaging.checkOutput(output, replacing: options.replacingExisting, exporter: self)
        var prepared = document
        try await prepared.fetchUncachedImages(
            thumbnails: materials.contains(.thumbnails), fetcher: options.fetcher, progress: options.progress
        )
        let staging = try ExportStaging(for: output)
        do {
            let items = try staging.gather(materials, of: prepared)
            let contents = ExportContents(gallery: prepared.gallery, items: items, output: output, document: prepared)
            let placement = try write(contents, into: staging.folder)
            try staging.place(placement, replacing: options.replacingExisting)
            let failures = items.compactMap { item in
                item.failure.map { PreparedImages.Failure(position: item.number - 1, source: item.source, reason: $0) }
            }
            return ExportReport(exported: items.count - failures.count, failed: failures.count, failures: failures)
        } catch {
            staging.discard()
            throw error
        }
    }
}
