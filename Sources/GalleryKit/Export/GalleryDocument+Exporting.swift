import Foundation

extension GalleryDocument {
    /// Gets the bytes of every image that is not cached, for an export: web images are downloaded,
    /// local files read; each becomes a pending entry of this in-memory copy (never saved here).
    ///
    /// An image that cannot be had is not an error: it becomes a failed item (the square error
    /// tile) with the reason, as `create` does with web images.
    /// - Parameter thumbnails: whether fetched and read images get a thumbnail too.
    mutating func fetchUncachedImages(
        thumbnails: Bool, fetcher: ImageFetcher?, progress: (@Sendable (ImageFetcher.Progress) -> Void)?
    ) async throws {
        let uncached = gallery.images.enumerated().filter(\.element.needsFetching)
        let web = uncached.filter { $0.element.origin == .web }
        let local = uncached.filter { $0.element.origin == .localFile }
        let uploads = uncached.filter { $0.element.origin == .upload }

        if !web.isEmpty {
            guard let fetcher else { throw GalleryError(.invalidArgument, url: url, "web images need an ImageFetcher to be exported") }
            let prepared = try await PreparedImages.prepare(
                web.map { .web($0.element.url) }, cache: true, thumbnails: thumbnails, fetcher: fetcher, progress: progress
            )
            try update(imagesWithIDs: web.map(\.element.id), from: prepared)
        }

        if !local.isEmpty || !uploads.isEmpty {
            let files = local.map { ($0.element.url.standardizedFileURL, $0.element.url) }
            let results = Self.prepare(files, cache: true, thumbnails: thumbnails)
            var read: [(UUID, PreparedImage)] = []
            var unreadable = uploads.map { ($0.element.id, "uploaded from a browser; its bytes are not stored in the document") }
            for ((_, image), result) in zip(local, results) {
                switch result {
                case .success(let prepared): read.append((image.id, prepared))
                case .failure(let error):
                    unreadable.append((image.id, (error as? GalleryError)?.reason ?? "\(error)"))
                }
            }
            try edit { gallery in
                let offsets = Dictionary(gallery.images.enumerated().map { ($1.id, $0) }) { first, _ in first }
                for (id, prepared) in read {
                    guard let offset = offsets[id] else { continue }
                    gallery.images[offset].cached = prepared.image.cached
                    gallery.images[offset].thumbnail = prepared.image.thumbnail ?? gallery.images[offset].thumbnail
                }
                for (id, reason) in unreadable {
                    guard let offset = offsets[id] else { continue }
                    gallery.images[offset].status = .failed
                    gallery.images[offset].error = reason
                }
            }
            adopt(PreparedImage.entries(of: read.map(\.1)))
        }
    }

    /// Reads and checks every entry of the file but its history and the two entries opening
    /// already read (`mimetype`, `manifest.json`): CRC-32, size, the inflation limit, and the
    /// SHA-256 of cached bytes.
    /// - Complexity: O(bytes of those entries).
    func checkEntries() throws {
        guard let contents else { return }
        let names = contents.names.filter {
            let kind = BundleLayout.kind(of: $0)
            return kind != .mimetype && kind != .manifest && !kind.isRevision
        }
        try BundleVerifier.checkEntries(named: Set(names), of: url, expecting: gallery.cachedImagesByPath, limits: limits)
    }

    /// Where the bytes of entry `name` come from when written or exported now: bytes cached
    /// since opening, or the entry in the file.
    func source(ofEntry name: String) -> BundleWriter.Entry.Source? {
        if let pending = pendingEntries[name] { return pending }
        return contents?.contains(name) == true ? .archived(url, name: name) : nil
    }
}
