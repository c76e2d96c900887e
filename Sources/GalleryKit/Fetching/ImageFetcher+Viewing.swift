import Foundation

/// Why an image cannot be shown, in words for a person ("HTTP 404 Not Found").
public struct FetchFailure: Error, Sendable, Equatable {
    /// Why, in words for a person.
    public var reason: String
    /// What the library underneath said, if it said more (`GalleryError.detail`).
    public var detail: String?

    /// A failure for the given reason.
    public init(_ reason: String, detail: String? = nil) {
        self.reason = reason
        self.detail = detail
    }
}

/// Images shown without being stored in their document: what `gallery serve` displays for a
/// gallery of links, through the cache.
extension ImageFetcher {
    /// The image `source` names, to show it: from the cache; else downloaded (web) or read (a
    /// local file), refused unless its bytes are an image's, within the same limits as any
    /// download, and put in the cache.
    public func image(from source: ImageSource) async -> Result<ImageCache.Hit, FetchFailure> {
        switch source {
        case .web(let url):
            // The bytes once: from the cache, else downloaded, checked and cached (not `download`,
            // which hands over a file).
            let key = ImageCache.key(forImageAt: url)
            if let hit = cache?.object(forKey: key) { return .success(hit) }
            let spool: DownloadSpool
            do { spool = try DownloadSpool() } catch { return .failure(FetchFailure(Self.reason(error))) }
            switch await downloadNow(url, to: spool.newFile()) {
            case .failed(let reason):
                return .failure(FetchFailure(reason))
            case .downloaded(let file, _):
                let result = Self.image(inFile: file, maximumBytes: configuration.maximumBytes)
                if case .success(let image) = result { cache?.store(image, forKey: key) }
                return result
            }
        case .file(let url):
            // Keyed by the file's identity too: an edited file is read again.
            guard let identity = FileIdentity.current(of: url) else {
                return .failure(FetchFailure("the file \(url.pathForDisplay) does not exist"))
            }
            let key = "file \(url.absoluteString) \(identity.device) \(identity.inode) \(identity.size) \(identity.modifiedNanoseconds)"
            if let hit = cache?.object(forKey: key) { return .success(hit) }
            let result = Self.image(inFile: url, maximumBytes: configuration.maximumBytes)
            if case .success(let hit) = result { cache?.store(hit, forKey: key) }
            return result
        }
    }

    /// The thumbnail of `image` (a JPEG at most `Thumbnailer.longEdge` pixels long): from the
    /// cache, else made and put in it; `nil` when libvips cannot shrink the image.
    public func thumbnail(of image: ImageCache.Hit) -> Data? {
        cachedJPEG(forKey: ImageCache.key(forThumbnailOf: image.sha256)) { try? Thumbnailer.jpeg(for: image.bytes) }
    }

    /// A rendition of the image whose bytes have `sha256` (a JPEG whose long edge is at most
    /// `longEdge`, one of `Rendition.ladder`): from the cache, else made from `bytes()` (called
    /// only then) and put in it; `nil` when libvips cannot read the image.
    public func rendition(longEdge: Int, ofImageWithSHA256 sha256: String, bytes: () throws -> Data) rethrows -> Data? {
        try renditions(longEdges: [longEdge], ofImageWithSHA256: sha256, bytes: bytes)[longEdge]
    }

    /// The renditions of the image whose bytes have `sha256` that the cache holds, by long edge,
    /// among `longEdges`.
    public func cachedRenditions(longEdges: [Int], ofImageWithSHA256 sha256: String) -> [Int: Data] {
        var found: [Int: Data] = [:]
        for edge in longEdges {
            found[edge] = cache?.object(forKey: ImageCache.key(forRenditionOf: sha256, longEdge: edge))?.bytes
        }
        return found
    }

    /// The renditions of the image whose bytes have `sha256`, by long edge, one per edge in
    /// `longEdges` (each one of `Rendition.ladder`): from the cache, and those it lacks made from
    /// one decode of `bytes()` (called only then) and put in it. None is made when libvips cannot
    /// read the image.
    public func renditions(longEdges: [Int], ofImageWithSHA256 sha256: String, bytes: () throws -> Data) rethrows -> [Int: Data] {
        var found = cachedRenditions(longEdges: longEdges, ofImageWithSHA256: sha256)
        let missing = longEdges.filter { found[$0] == nil }
        guard !missing.isEmpty else { return found }
        let image = try bytes()
        guard let made = try? Rendition.make(from: image, longEdges: missing) else { return found }
        for (edge, rendition) in zip(missing, made) {
            cache?.store(rendition.jpeg, mediaType: "image/jpeg", forKey: ImageCache.key(forRenditionOf: sha256, longEdge: edge))
            found[edge] = rendition.jpeg
        }
        return found
    }

    /// The JPEG the cache holds for `key`; else the one `make` makes (`nil`: none can be), put in
    /// the cache.
    private func cachedJPEG(forKey key: String, _ make: () throws -> Data?) rethrows -> Data? {
        if let hit = cache?.object(forKey: key) { return hit.bytes }
        guard let jpeg = try make() else { return nil }
        cache?.store(jpeg, mediaType: "image/jpeg", forKey: key)
        return jpeg
    }

    /// The image in `file`, if its bytes are an image's and it is not over `maximumBytes`.
    static func image(inFile file: URL, maximumBytes: Int64) -> Result<ImageCache.Hit, FetchFailure> {
        if let size = FileIdentity.current(of: file)?.size, size > maximumBytes {
            return .failure(FetchFailure("larger than the \(Self.size(maximumBytes)) limit (\(Self.size(size)))"))
        }
        do {
            let info = try ImageProbe.info(forFileAt: file)
            let bytes = try Data(contentsOf: file)
            return .success(ImageCache.Hit(bytes: bytes, sha256: ContentHash.of(bytes), mediaType: info.mediaType))
        } catch let error as GalleryError where error.code == .notAnImage {
            return .failure(FetchFailure(error.reason))
        } catch {
            return .failure(FetchFailure(reason(error)))
        }
    }

    private static func reason(_ error: any Error) -> String {
        (error as? GalleryError)?.reason ?? "\(error)"
    }
}
