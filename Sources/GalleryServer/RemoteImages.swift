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
    private var running: [ImageSource: Task<Result<ImageCache.Hit, FetchFailure>, Never>] = [:]
    private var failures: [ImageSource: (failure: FetchFailure, until: ContinuousClock.Instant)] = [:]

    /// How long a failure is answered without trying again.
    static let failureMemory: Duration = .seconds(60)

    init(fetcher: ImageFetcher) {
        self.fetcher = fetcher
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

    /// The thumbnail of the image `source` names, or the image itself when libvips cannot
    /// shrink it: with its media type.
    func thumbnail(_ source: ImageSource, retrying: Bool = false) async -> Result<(bytes: Data, mediaType: String), FetchFailure> {
        switch await image(source, retrying: retrying) {
        case .failure(let failure):
            return .failure(failure)
        case .success(let image):
            let fetcher = fetcher
            let jpeg = try? await offloaded { fetcher.thumbnail(of: image) }
            return .success(jpeg.flatMap { $0 }.map { ($0, "image/jpeg") } ?? (image.bytes, image.mediaType))
        }
    }
}
