import Foundation
import Testing
@testable import GalleryKit

/// The image's own rules that callers ask instead of working them out: whether its bytes must be
/// fetched, and from where.
@Suite struct GalleryImageTests {
    static let cached = CachedImage(path: "images/a.jpg", sha256: String(repeating: "0", count: 64), bytes: 1, mediaType: "image/jpeg")

    @Test(arguments: [
        ("https://example.org/a.jpg", GalleryImage.Status.ok, false, true, GalleryImage.Origin.web),
        ("https://example.org/a.jpg", .ok, true, false, .web),
        ("https://example.org/a.jpg", .failed, false, false, .web),
        ("file:///photos/a.jpg", .ok, false, true, .localFile),
        ("file:///a.jpg#upload", .ok, false, true, .upload),
        ("file:///a.jpg#upload", .ok, true, false, .upload),
    ])
    func needsFetchingWhenNeitherStoredNorFailed(
        url: String, status: GalleryImage.Status, isCached: Bool, needsFetching: Bool, origin: GalleryImage.Origin
    ) throws {
        let image = GalleryImage(url: try #require(URL(string: url)), aspectRatio: 1, status: status, cached: isCached ? Self.cached : nil)
        #expect(image.needsFetching == needsFetching)
        #expect(image.origin == origin)
    }
}
