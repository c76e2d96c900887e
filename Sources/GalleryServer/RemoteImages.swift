import Foundation
import GalleryKit

/// Images the page shows that are not stored in their document: fetched from the web (or read
/// from a local file) when viewed, through the fetcher's cache — never stored in the document
/// by viewing.
///
/// An image being fetched is fetched once however many requests ask for it meanwhile. A
/// failure is remembered for a while, so the page's second request (for the reason, after its
/// image failed to load) is answered at once; asking with `retrying` forgets it.
actor RemoteImages {
    private let fetcher: ImageFetcher
    private let renditions: Renditions
    private var running: [ImageSource: Task<Result<ImageCache.Hit, FetchFailure>, Never>] = [:]
    private var failures: [ImageSource: (failure: FetchFailure, until: ContinuousClock.Instant)] = [:]

    /// How long a failure is answered without trying again.
    static let failureMemory: Duration = .seconds(60)

    init(fetcher: ImageFetcher, renditions: Renditions) {
        self.fetcher = fetcher
        self.renditions = renditions
    }

    /// The image `source` names, fetched now unless it is in the cache or being fetched.
    func image(_ source: ImageSource, retrying: Bool = false) async -> Result<ImageCache.Hit, FetchFailure> {
        if retrying {
            failures[source] = nil
        } else if let remembered = failures[source] {
            if remembered.until > .now { return .failure(remembered.failure) }
            failures[source] = nil
        }
        if let task = running[source] { return await task.value }
        let fetcher = fetcher
        let task = Task { await fetcher.image(from: source) }
        running[source] = task
        let result = await task.value
        running[source] = nil
        if case .failure(let failure) = result { failures[source] = (failure, .now + Self.failureMemory) }
        return result
    }

    /// The image `source` names in the size `shown` asks for (`ImageSize`), or the image itself
    /// when libvips cannot shrink it: with its media type.
    func image(
        _ source: ImageSource, _ shown: ImageSize, retrying: Bool = false
    ) async -> Result<(bytes: Data, mediaType: String), FetchFailure> {
        switch await image(source, retrying: retrying) {
        case .failure(let failure):
            return .failure(failure)
        case .success(let image):
            guard shown.isSmaller(thanImageOfType: image.mediaType) else { return .success((image.bytes, image.mediaType)) }
            let jpeg: Data?
            switch shown {
            case .thumbnail:
                let fetcher = fetcher
                jpeg = try? await offloaded { fetcher.thumbnail(of: image) } ?? nil
            case .rendition(let edge):
                // Read again from the cache when a size is made ahead, not held meanwhile.
                jpeg = await renditions.rendition(longEdge: edge, ofImageWithSHA256: image.sha256) { [weak self] in
                    try? await self?.image(source).get().bytes
                }
            case .original:
                jpeg = nil
            }
            return .success(jpeg.map { ($0, "image/jpeg") } ?? (image.bytes, image.mediaType))
        }
    }
}

/// Which size of an image a page asks for.
enum ImageSize: Equatable {
    /// The image itself.
    case original
    /// Its thumbnail (the document's, or one made at `Thumbnailer.longEdge`).
    case thumbnail
    /// Its rendition with this long edge, one of `Rendition.ladder`.
    case rendition(Int)

    /// Whether this size is made smaller than the image (`Rendition.isMade(forMediaType:)`: a
    /// GIF stays itself).
    func isSmaller(thanImageOfType mediaType: String) -> Bool {
        switch self {
        case .original: false
        case .thumbnail: true
        case .rendition: Rendition.isMade(forMediaType: mediaType)
        }
    }

    /// What names this size in an entity tag.
    var tag: String {
        switch self {
        case .original: "i"
        case .thumbnail: "t"
        case .rendition(let edge): "r\(edge)"
        }
    }
}
