import Foundation

/// Adding local image files, and storing or dropping their bytes in the document.
extension GalleryDocument {
    /// Adds image files at `offset` (the end when `nil`), reading each one's size from its header.
    ///
    /// Headers are read and files hashed on all cores. If any file is missing or not an image,
    /// nothing is added.
    /// - Returns: the new images.
    @discardableResult
    public mutating func insertImages(fromFiles files: [URL], at offset: Int? = nil, cache: Bool = false) throws -> [GalleryImage] {
        try insert(PreparedImages(files: files, cache: cache, thumbnails: cache), at: offset)
    }

    /// Stores the bytes of the local images at `offsets` in the document (images cached already,
    /// failed, or on the web are left as they are: web images are cached through
    /// `PreparedImages` and `update(imagesWithIDs:from:)`, which download outside the lock).
    /// With `thumbnails`, images among `offsets` that are cached but have no thumbnail (bytes
    /// cached by another writer or an older GalleryKit) get one too, in the same edit.
    /// - Throws: `.fileNotFound` if an image's file is gone.
    public mutating func cacheImages(atOffsets offsets: [Int], thumbnails: Bool = true) throws {
        let valid = try gallery.validated(offsets)
        let targets = valid.filter {
            gallery.images[$0].needsFetching && gallery.images[$0].origin == .localFile
        }
        let prepared = try Self.prepare(targets.map { gallery.images[$0].url }, cache: true, thumbnails: thumbnails)
        let made = thumbnails ? try missingThumbnails(atOffsets: valid) : [:]
        try edit { gallery in
            for (offset, item) in zip(targets, prepared) {
                gallery.images[offset].cached = item.image.cached
                gallery.images[offset].thumbnail = item.image.thumbnail ?? gallery.images[offset].thumbnail
            }
            for offset in valid {
                guard gallery.images[offset].thumbnail == nil, let sha256 = gallery.images[offset].cached?.sha256 else { continue }
                if made[sha256] != nil { gallery.images[offset].thumbnail = BundleLayout.thumbnailPath(sha256: sha256) }
            }
        }
        adopt(PreparedImage.entries(of: prepared))
        adopt(Dictionary(uniqueKeysWithValues: made.map { (BundleLayout.thumbnailPath(sha256: $0.key), .data($0.value)) }))
    }

    /// Thumbnails, by digest, for the images at `offsets` whose bytes are in the file but which
    /// have none. Reads those entries one at a time; an image libvips cannot shrink gets none.
    private func missingThumbnails(atOffsets offsets: [Int]) throws -> [String: Data] {
        var wanted: [String: CachedImage] = [:]
        for offset in offsets {
            let image = gallery.images[offset]
            guard image.thumbnail == nil, let cached = image.cached, contents?.contains(cached.path) == true else { continue }
            wanted[cached.path] = cached
        }
        guard !wanted.isEmpty else { return [:] }
        var made: [String: Data] = [:]
        try BundleReader.visitEntries(named: Set(wanted.keys), of: url) { entry, reader in
            let name = entry.name
            guard let cached = wanted[name] else { return }
            let bytes = try reader.readData(maximumBytes: cached.bytes, inflation: limits.inflation)
            if let jpeg = try? Thumbnailer.jpeg(for: bytes) { made[cached.sha256] = jpeg }
        }
        return made
    }

    /// Stops storing the bytes of the images at `offsets`; they stay in the file while undo
    /// history refers to them.
    public mutating func uncacheImages(atOffsets offsets: [Int]) throws {
        let targets = try gallery.validated(offsets)
        try edit { gallery in
            for offset in targets { gallery.images[offset].cached = nil }
        }
    }

    /// An image made from a file, with where its cached bytes and thumbnail will come from.
    struct PreparedImage: Sendable {
        var image: GalleryImage
        /// Entries to write, by name: the cached bytes and the thumbnail.
        var entries: [String: BundleWriter.Entry.Source] = [:]

        /// The entries of all of `items`.
        static func entries(of items: [PreparedImage]) -> [String: BundleWriter.Entry.Source] {
            items.reduce(into: [:]) { all, item in all.merge(item.entries) { current, _ in current } }
        }
    }

    /// Bytes to write at the next save, from a preparation; entries already pending stay.
    mutating func adopt(_ entries: [String: BundleWriter.Entry.Source]) {
        pendingEntries.merge(entries) { current, _ in current }
    }

    /// Probes local files (and, when caching, hashes them) concurrently, keeping their order.
    /// - Throws: the first failure in order.
    static func prepare(_ files: [URL], cache: Bool, thumbnails: Bool) throws -> [PreparedImage] {
        let files = files.map { ($0.standardizedFileURL, $0.standardizedFileURL) }
        return try prepare(files, cache: cache, thumbnails: thumbnails).map { try $0.get() }
    }

    /// Prepares files on all cores, each recorded under its own URL; one result each, in order.
    static func prepare(
        _ files: [(file: URL, recordedAs: URL)], cache: Bool, thumbnails: Bool
    ) -> [Result<PreparedImage, any Error>] {
        let results = ResultSlots<PreparedImage>(count: files.count)
        DispatchQueue.concurrentPerform(iterations: files.count) { index in
            results[index] = Result {
                try prepare(files[index].file, recordedAs: files[index].recordedAs, cache: cache, thumbnails: thumbnails)
            }
        }
        return results.results()
    }

    /// Probes `file` for an image the gallery records as `url`; when caching, hashes it and
    /// (with `thumbnails`) makes its thumbnail. A file libvips can probe but not shrink simply
    /// has no thumbnail. The image's own credit and description, if it has any, become its
    /// attribution and caption.
    static func prepare(_ file: URL, recordedAs url: URL, cache: Bool, thumbnails: Bool) throws -> PreparedImage {
        let info = try ImageProbe.info(forFileAt: file)
        var image = GalleryImage(url: url, aspectRatio: info.aspectRatio, width: info.width, height: info.height)
        if let metadata = try? ImageMetadata.read(fromFileAt: file) {
            image.attribution = metadata.attribution.limited
            image.caption = metadata.caption
        }
        guard cache else { return PreparedImage(image: image) }
        let (sha256, identity) = try ContentHash.ofFile(at: file)
        let path = BundleLayout.imagePath(sha256: sha256, fileExtension: info.fileExtension)
        image.cached = CachedImage(path: path, sha256: sha256, bytes: identity.size, mediaType: info.mediaType)
        var prepared = PreparedImage(image: image, entries: [path: .file(file, identity: identity)])
        if thumbnails, let jpeg = try? Thumbnailer.jpeg(forFileAt: file) {
            let thumbnail = BundleLayout.thumbnailPath(sha256: sha256)
            prepared.image.thumbnail = thumbnail
            prepared.entries[thumbnail] = .data(jpeg)
        }
        return prepared
    }
}
