import Foundation

/// Images made ready to go into a document before any document is locked: files probed, web
/// images downloaded and probed, bytes hashed when they are to be cached.
///
/// Preparing is the slow part (a download can take a minute), so it happens outside
/// `GalleryDocument.modify(at:)`; inserting the result under the lock is quick.
public struct PreparedImages: Sendable {
    /// An image that could not be had.
    public struct Failure: Sendable, Equatable {
        /// Its position in the sources given (0-based).
        public var position: Int
        /// The file path or URL.
        public var source: String
        /// Why, in words for a person.
        public var reason: String
        /// What the library underneath said, if it said more (`GalleryError.detail`).
        public var detail: String? = nil
    }

    /// The images in the order of the sources; failed ones are kept as "failed" items (a square
    /// error tile, aspect ratio 1) unless preparation was asked to skip them.
    public internal(set) var images: [GalleryImage]
    /// What could not be had, in the order of the sources.
    public internal(set) var failures: [Failure]
    /// Where each cached image's bytes are, by entry name.
    var sources: [String: BundleWriter.Entry.Source]
    /// Keeps downloaded files until the document that needs them is saved.
    var spool: DownloadSpool?

    /// Prepares `sources`, in their order.
    ///
    /// Local files must exist and be images (else this throws, and nothing is prepared), unless
    /// failures are skipped: then those that are not are left out and listed as failures. Web
    /// images that cannot be downloaded or are not images become failures.
    /// - Parameters:
    ///   - sources: the local files and web URLs to prepare.
    ///   - cache: whether the images' bytes will be stored in the document.
    ///   - thumbnails: whether cached images get a thumbnail.
    ///   - skippingFailed: leave out the local files that are not images (or are missing), and
    ///     failed web images instead of keeping them as failed items.
    ///   - optional: the positions of local files that are left out if they are not images,
    ///     whatever `skippingFailed` says: the files of a folder, whose other files (notes,
    ///     sidecars) were not asked for as images.
    ///   - fetcher: downloads web images; needed only if there are any.
    ///   - progress: called after each download.
    public static func prepare(
        _ sources: [ImageSource],
        cache: Bool,
        thumbnails: Bool = true,
        skippingFailed: Bool = false,
        optional: Set<Int> = [],
        fetcher: ImageFetcher? = nil,
        progress: (@Sendable (ImageFetcher.Progress) -> Void)? = nil
    ) async throws -> PreparedImages {
        var files: [(position: Int, url: URL)] = []
        var web: [(position: Int, url: URL)] = []
        for (position, source) in sources.enumerated() {
            switch source {
            case .file(let url): files.append((position, url))
            case .web(let url): web.append((position, url))
            }
        }
        var slots = [GalleryDocument.PreparedImage?](repeating: nil, count: sources.count)
        var failures: [Failure] = []
        let local = files.map { ($0.url.standardizedFileURL, $0.url.standardizedFileURL) }
        for (item, result) in zip(files, GalleryDocument.prepare(local, cache: cache, thumbnails: thumbnails)) {
            switch result {
            case .success(let prepared):
                slots[item.position] = prepared
            case .failure(let error as GalleryError)
            where (skippingFailed || optional.contains(item.position)) && error.code != .ioFailure:
                // A file that is no image (or is gone) is left out; a failing disk stops everything.
                failures.append(
                    Failure(position: item.position, source: item.url.pathForDisplay, reason: error.reason, detail: error.detail))
            case .failure(let error as GalleryError) where error.code == .notAnImage:
                throw GalleryError(
                    error.code, path: error.path, "\(error.reason) (--skip-failed leaves out what is not an image)", detail: error.detail)
            case .failure(let error):
                throw error
            }
        }
        var spool: DownloadSpool?
        if !web.isEmpty {
            guard let fetcher else { throw GalleryError(.invalidArgument, "web images need an ImageFetcher") }
            let downloads = try DownloadSpool()
            spool = downloads
            let outcomes = await fetcher.download(web.map(\.url), into: downloads, progress: progress)
            let probed = GalleryDocument.prepareDownloads(zip(web, outcomes).map { ($0.url, $1) }, cache: cache, thumbnails: thumbnails)
            for (item, result) in zip(web, probed) {
                switch result {
                case .success(let prepared):
                    slots[item.position] = prepared
                case .failure(let reason):
                    failures.append(
                        Failure(position: item.position, source: item.url.absoluteString, reason: reason.reason, detail: reason.detail))
                    if !skippingFailed {
                        let failed = GalleryImage(url: item.url, aspectRatio: 1, status: .failed, error: reason.reason)
                        slots[item.position] = GalleryDocument.PreparedImage(image: failed)
                    }
                }
            }
        }
        return PreparedImages(slots.compactMap { $0 }, failures: failures.sorted { $0.position < $1.position }, spool: spool)
    }

    /// Local files, prepared on all cores; throws at the first that is missing or not an image.
    init(files: [URL], cache: Bool, thumbnails: Bool) throws {
        self.init(try GalleryDocument.prepare(files, cache: cache, thumbnails: thumbnails))
    }

    /// An image uploaded from a browser, in `file` (a copy that stays until the document is
    /// saved), recorded as `GalleryImage.uploadURL(named:)` with its bytes and thumbnail stored.
    /// - Throws: `.notAnImage` if the file is not an image.
    public init(upload file: URL, named name: String) throws {
        self.init([
            try GalleryDocument.prepare(file, recordedAs: GalleryImage.uploadURL(named: name), cache: true, thumbnails: true)
        ])
    }

    private init(_ prepared: [GalleryDocument.PreparedImage], failures: [Failure] = [], spool: DownloadSpool? = nil) {
        images = prepared.map(\.image)
        self.failures = failures
        sources = GalleryDocument.PreparedImage.entries(of: prepared)
        self.spool = spool
    }
}

extension GalleryDocument {
    /// Probes (and, when caching, hashes) downloaded files on all cores, keeping their order.
    static func prepareDownloads(
        _ downloads: [(url: URL, outcome: ImageFetcher.Outcome)], cache: Bool, thumbnails: Bool
    ) -> [Result<PreparedImage, FetchFailure>] {
        var files: [(file: URL, recordedAs: URL)] = []
        for (url, outcome) in downloads {
            if case .downloaded(let file, _) = outcome { files.append((file, url)) }
        }
        var prepared = prepare(files, cache: cache, thumbnails: thumbnails).makeIterator()
        return downloads.map { _, outcome in
            switch outcome {
            case .failed(let reason):
                return .failure(FetchFailure(reason))
            case .downloaded:
                return prepared.next()!.mapError { error in
                    guard let error = error as? GalleryError, error.code == .notAnImage else { return FetchFailure("\(error)") }
                    return FetchFailure(error.reason, detail: error.detail)
                }
            }
        }
    }

    /// Puts prepared images in at `offset` (the end when `nil`).
    /// - Returns: the new images.
    @discardableResult
    public mutating func insert(_ prepared: PreparedImages, at offset: Int? = nil) throws -> [GalleryImage] {
        try edit { try $0.insert(contentsOf: prepared.images, at: offset ?? $0.images.count) }
        adopt(prepared)
        return prepared.images
    }

    /// Updates images in place from a new preparation of their sources — a retried download, or
    /// bytes fetched to cache them — keeping each image's id, caption and fields this version
    /// does not know. The URL becomes the one fetched (a search-engine wrapper link, as another
    /// writer may have stored it, is replaced by the image's own URL). `prepared.images[i]` updates the image with `ids[i]`; images no
    /// longer in the gallery are skipped.
    /// - Parameters:
    ///   - ids: the images to update, in the order of `prepared.images`.
    ///   - prepared: the new preparation of their sources.
    ///   - keepingStatusOfFailures: leave images whose new preparation failed as they
    ///     were (caching a working image that cannot be fetched now), instead of marking them failed.
    public mutating func update(imagesWithIDs ids: [UUID], from prepared: PreparedImages, keepingStatusOfFailures: Bool = false) throws {
        try edit { gallery in
            for (id, fresh) in zip(ids, prepared.images) {
                guard let offset = gallery.images.firstIndex(where: { $0.id == id }) else { continue }
                if keepingStatusOfFailures, fresh.hasFailed { continue }
                var image = gallery.images[offset]
                image.url = fresh.url
                image.aspectRatio = fresh.aspectRatio
                image.width = fresh.width
                image.height = fresh.height
                image.status = fresh.status
                image.error = fresh.error
                image.cached = fresh.cached ?? image.cached
                image.thumbnail = fresh.thumbnail ?? image.thumbnail
                // What the file says of itself fills in; what a person set stays.
                image.caption = image.caption ?? fresh.caption
                if let found = fresh.attribution { image.attribution = (image.attribution ?? Attribution()).resolved(over: found) }
                gallery.images[offset] = image
            }
        }
        adopt(prepared)
    }

    private mutating func adopt(_ prepared: PreparedImages) {
        adopt(prepared.sources)
        if let spool = prepared.spool { spools.append(spool) }
    }
}
