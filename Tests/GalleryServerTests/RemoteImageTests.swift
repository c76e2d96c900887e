import Foundation
import GalleryKit
import GalleryTestSupport
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Testing

@testable import GalleryServer

/// Images not stored in their document, as the page shows them: fetched on view from a local
/// test server through the shared image cache, the document never changed by viewing; their
/// failures; "Keep in gallery"; the browser page's preview of a gallery of links.
@Suite struct RemoteImageTests {
    /// A harness whose folder also holds `Links.gallery`: one uncached image per URL.
    static func harness(
        links urls: [URL], cacheFolder: URL? = nil, configure: @escaping (inout GalleryServer.Configuration) -> Void = { _ in }
    ) throws -> (ServerHarness, [String]) {
        let harness = try ServerHarness(images: 1) { configuration in
            if let cacheFolder { configuration.directories.cache = cacheFolder }
            configure(&configuration)
        }
        var document = GalleryDocument(creating: harness.folder.appendingPathComponent("Links.gallery"), gallery: Gallery(title: "Links"))
        try document.edit { gallery in
            for url in urls { try gallery.insert(contentsOf: [GalleryImage(url: url, aspectRatio: 1.5)], at: gallery.images.count) }
        }
        try document.save()
        return (harness, try harness.document("Links.gallery").ids)
    }

    static func fileBytes(_ harness: ServerHarness, _ name: String = "Links.gallery") throws -> Data {
        try Data(contentsOf: harness.folder.appendingPathComponent(name))
    }

    @Test func anUncachedImageIsFetchedOnceServedWithItsThumbnailAndTheDocumentIsUnchanged() async throws {
        let web = try ImageServer()
        let sample = try Data(contentsOf: Repository.sampleImage("01"))
        // `/once/` answers 410 after its first request: every answer below but the first is the cache's.
        let (harness, ids) = try Self.harness(links: [
            web.url("/once/\(UUID().uuidString)/\(Repository.sampleImage("01").lastPathComponent)")
        ])
        let before = try Self.fileBytes(harness)
        try await harness.test { client in
            let state = try StateView(try await client.call(.get, "/api/galleries/Links.gallery", headers: harness.headers).json)
            #expect(state.items.first?["isCached"] as? Bool == false && state.items.first?["status"] as? String == "ok")

            let thumbnail = try await client.execute(
                uri: "/api/galleries/Links.gallery/thumbnails/\(ids[0])", method: .get, headers: harness.headers)
            #expect(thumbnail.status == .ok && thumbnail.headers[.contentType] == "image/jpeg")
            let shrunk = try ImageProbe.info(forFileAt: try harness.temporary.write(Data(buffer: thumbnail.body), to: "thumbnail.jpg"))
            #expect(max(shrunk.width, shrunk.height) <= Thumbnailer.longEdge)

            let rendition = try await client.execute(
                uri: "/api/galleries/Links.gallery/renditions/\(ids[0])/512", method: .get, headers: harness.headers)
            #expect(rendition.status == .ok && rendition.headers[.contentType] == "image/jpeg")
            let sized = try ImageProbe.info(forFileAt: try harness.temporary.write(Data(buffer: rendition.body), to: "rendition.jpg"))
            #expect(max(sized.width, sized.height) == 512, "a display size of the fetched bytes")

            for _ in 0..<2 {
                let image = try await client.execute(
                    uri: "/api/galleries/Links.gallery/images/\(ids[0])", method: .get, headers: harness.headers)
                #expect(image.status == .ok && Data(buffer: image.body) == sample, "served from the cache, byte for byte")
            }
        }
        #expect(try Self.fileBytes(harness) == before, "viewing never changes the document")
    }

    @Test(arguments: [
        ("/status/404", "HTTP 404 Not Found"),
        ("/text", "the server sent text/plain, not an image"),
        ("/big?bytes=3000", "is not an image this program can read"),  // says it is a JPEG; its bytes are not
        ("/big?bytes=3000000", "larger than the 1 MiB limit"),
        ("https://no-such-host.invalid/a.jpg", "cannot resolve host no-such-host.invalid"),
    ])
    func anImageThatCannotBeHadAnswersWithTheReason(path: String, reason: String) async throws {
        let web = try ImageServer()
        let url = path.hasPrefix("/") ? web.url(path) : URL(string: path)!
        let (harness, ids) = try Self.harness(links: [url]) { $0.fetching.maximumBytes = 1 << 20 }
        try await harness.test { client in
            for kind in ["thumbnails", "images"] {
                let answer = try await client.call(.get, "/api/galleries/Links.gallery/\(kind)/\(ids[0])", headers: harness.headers)
                #expect(answer.status == .badGateway)
                let error = try #require((answer.json as? [String: Any])?["error"] as? String)
                #expect(error.hasPrefix(reason), "\(kind): \(error)")
            }
        }
        #expect(try harness.document("Links.gallery").gallery.images.allSatisfy { !$0.isCached && !$0.hasFailed })
    }

    @Test func aFailureIsRememberedUntilRetry() async throws {
        let web = try ImageServer()
        // 503 at the first request, the image after that.
        let (harness, ids) = try Self.harness(links: [
            web.url("/flaky/\(UUID().uuidString)/\(Repository.sampleImage("01").lastPathComponent)")
        ])
        try await harness.test { client in
            let uri = "/api/galleries/Links.gallery/thumbnails/\(ids[0])"
            #expect(try await client.call(.get, uri, headers: harness.headers).status == .badGateway)
            // The page asks again for the reason: the same answer, without asking the web server.
            let again = try await client.call(.get, uri, headers: harness.headers)
            #expect(again.status == .badGateway && (again.json as? [String: Any])?["error"] as? String == "HTTP 503 Service Unavailable")
            #expect(try await client.call(.get, uri + "?retry=1", headers: harness.headers).status == .ok)
        }
    }

    @Test func keepingStoresTheBytesThroughAnUndoableEdit() async throws {
        let web = try ImageServer()
        let name = Repository.sampleImage("01").lastPathComponent
        let sample = try Data(contentsOf: Repository.sampleImage("01"))
        let (harness, ids) = try Self.harness(links: [
            web.url("/once/\(UUID().uuidString)/\(name)"), web.url("/image/\(name)?tag=second"),
        ])
        try await harness.test { client in
            // Seen once; kept from the cache (`/once/` would refuse a second download).
            #expect(try await client.call(.get, "/api/galleries/Links.gallery/images/\(ids[0])", headers: harness.headers).status == .ok)
            let kept = try await client.call(
                .post, "/api/galleries/Links.gallery/edits", json: ["action": "keep", "ids": [ids[0]]], headers: harness.headers)
            #expect(kept.status == .ok, "\(String(describing: kept.json))")
            let document = try harness.document("Links.gallery")
            #expect(document.gallery.images[0].isCached && !document.gallery.images[1].isCached)
            #expect(try document.cachedBytes(of: document.gallery.images[0]) == sample)
            #expect(document.gallery.images[0].thumbnail != nil)
            #expect(try StateView(kept.json).items.first?["isCached"] as? Bool == true)

            let undone = try await client.call(
                .post, "/api/galleries/Links.gallery/edits", json: ["action": "undo"], headers: harness.headers)
            #expect(undone.status == .ok)
            #expect(try harness.document("Links.gallery").gallery.images.allSatisfy { !$0.isCached })

            let nothing = try await client.call(
                .post, "/api/galleries/Links.gallery/edits", json: ["action": "keep", "ids": [ids[0], ids[1]]], headers: harness.headers)
            #expect(nothing.status == .ok)
            #expect(try harness.document("Links.gallery").gallery.images.allSatisfy(\.isCached))
        }
    }

    @Test func keepingNothingWhenAnImageCannotBeHad() async throws {
        let web = try ImageServer()
        let (harness, ids) = try Self.harness(links: [
            web.url("/image/\(Repository.sampleImage("01").lastPathComponent)"), web.url("/status/404"),
        ])
        let before = try Self.fileBytes(harness)
        try await harness.test { client in
            let answer = try await client.call(
                .post, "/api/galleries/Links.gallery/edits", json: ["action": "keep", "ids": ids], headers: harness.headers)
            #expect(answer.status == .badGateway)
            let error = try #require((answer.json as? [String: Any])?["error"] as? String)
            #expect(error.contains("none was kept") && error.contains("/status/404: HTTP 404"), "\(error)")
        }
        #expect(try Self.fileBytes(harness) == before)
    }

    @Test func viewingMoreThanTheCapacityEvictsTheLeastRecentlyUsed() async throws {
        let web = try ImageServer()
        let name = Repository.sampleImage("04").lastPathComponent
        let size = Int64(try Data(contentsOf: Repository.sampleImage("04")).count)
        let capacity = size * 4  // room for about three images with their thumbnails
        let cache = TemporaryFolder()
        let urls = (0..<8).map { web.url("/image/\(name)?tag=\($0)") }
        let (harness, ids) = try Self.harness(links: urls, cacheFolder: cache.url) { $0.imageCacheCapacity = capacity }
        let images = ImageCache(directories: harness.services.configuration.directories, capacity: capacity)
        try await harness.test { client in
            for (offset, id) in ids.enumerated() {
                #expect(try await client.call(.get, "/api/galleries/Links.gallery/images/\(id)", headers: harness.headers).status == .ok)
                // The first image is looked at again after each other one: it is never the least recently used.
                try cache.setEveryFileBack()
                if offset > 0 {
                    #expect(
                        try await client.call(.get, "/api/galleries/Links.gallery/images/\(ids[0])", headers: harness.headers).status == .ok
                    )
                    try cache.setEveryFileBack()
                }
                #expect(images.size() <= capacity, "after \(offset + 1) images: \(images.size()) bytes")
            }
        }
        #expect(images.object(forKey: ImageCache.key(forImageAt: urls[0])) != nil, "the one in use stays")
        #expect(images.object(forKey: ImageCache.key(forImageAt: urls[1])) == nil, "the oldest goes")
        #expect(images.object(forKey: ImageCache.key(forImageAt: urls[7])) != nil, "the newest stays")
    }

    @Test func twoServersSharingACacheNeverServeHalfAFile() async throws {
        let web = try ImageServer()
        let cache = TemporaryFolder()
        let name = Repository.sampleImage("01").lastPathComponent
        let sample = try Data(contentsOf: Repository.sampleImage("01"))
        let urls = (0..<12).map { web.url("/image/\(name)?tag=shared-\($0)") }
        let (first, firstIDs) = try Self.harness(links: urls, cacheFolder: cache.url)
        let (second, secondIDs) = try Self.harness(links: urls, cacheFolder: cache.url)
        // Each asks for every image, in opposite orders, while the other writes the same files.
        try await withThrowingTaskGroup(of: Void.self) { group in
            for (harness, ids, order) in [(first, firstIDs, Array(urls.indices)), (second, secondIDs, Array(urls.indices.reversed()))] {
                group.addTask {
                    try await harness.test { client in
                        for _ in 0..<3 {
                            for offset in order {
                                let answer = try await client.execute(
                                    uri: "/api/galleries/Links.gallery/images/\(ids[offset])", method: .get, headers: harness.headers)
                                #expect(answer.status == .ok)
                                #expect(Data(buffer: answer.body) == sample + Data("gallerykit-shared-\(offset)".utf8))
                            }
                        }
                    }
                }
            }
            try await group.waitForAll()
        }
    }

    @Test func theBrowserShowsAPreviewOfAGalleryOfLinks() async throws {
        let web = try ImageServer()
        let names = Repository.sampleImageFiles().prefix(3).map(\.lastPathComponent)
        let (harness, _) = try Self.harness(links: names.map { web.url("/image/\($0)") } + [web.url("/status/404")])
        let before = try Self.fileBytes(harness)
        try await harness.test { client in
            let preview = try await client.execute(uri: "/api/documents/Links.gallery/preview", method: .get, headers: harness.headers)
            #expect(preview.status == .ok && preview.headers[.contentType] == "image/jpeg")
            let info = try ImageProbe.info(forFileAt: try harness.temporary.write(Data(buffer: preview.body), to: "preview.jpg"))
            #expect(info.width == 256)
        }
        #expect(try Self.fileBytes(harness) == before)
    }
}
