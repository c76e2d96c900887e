import Foundation
import GalleryTestSupport
import Testing
@testable import GalleryKit

/// Web images, against a server on 127.0.0.1 that the tests start themselves.
@Suite(.serialized) struct FetchingTests {
    let server: ImageServer

    init() throws {
        server = try ImageServer()
    }

    func prepare(
        _ paths: [String],
        cache: Bool = false,
        skippingFailed: Bool = false,
        configure: (inout ImageFetcher.Configuration) -> Void = { _ in }
    ) async throws -> PreparedImages {
        var configuration = ImageFetcher.Configuration()
        configure(&configuration)
        let fetcher = ImageFetcher(configuration: configuration)
        let sources = try paths.map { try ImageSource(server.url($0)) }
        let prepared = try await PreparedImages.prepare(sources, cache: cache, skippingFailed: skippingFailed, fetcher: fetcher)
        await fetcher.shutdown()
        return prepared
    }

    @Test func keepsTheOrderGivenWhateverOrderDownloadsFinishIn() async throws {
        // The first finishes last: each waits longer than the ones after it.
        let paths = (0..<6).map { "/image/01-dawn.jpg?delay=\((6 - $0) * 150)&tag=\($0)" }
        let finished = Recorder()
        var configuration = ImageFetcher.Configuration()
        configuration.concurrency = 6
        let fetcher = ImageFetcher(configuration: configuration)
        let prepared = try await PreparedImages.prepare(
            try paths.map { try ImageSource(server.url($0)) }, cache: true, fetcher: fetcher, progress: { finished.record($0.finished) }
        )
        await fetcher.shutdown()
        #expect(prepared.images.map(\.url) == paths.map(server.url))
        #expect(prepared.failures.isEmpty)
        #expect(Set(prepared.images.compactMap(\.cached?.sha256)).count == 6)
        #expect(finished.values == Array(1...6))
    }

    @Test func downloadsRunConcurrently() async throws {
        let paths = (0..<8).map { "/image/01-dawn.jpg?delay=600&tag=\($0)" }
        let clock = ContinuousClock()
        let start = clock.now
        let prepared = try await prepare(paths) { $0.concurrency = 8 }
        #expect(prepared.failures.isEmpty)
        // One at a time would take 4.8 s.
        #expect(clock.now - start < .seconds(3))
    }

    @Test func readsTheDisplayedSizeOfAWebImage() async throws {
        let prepared = try await prepare(["/image/03-portrait-exif6.jpg"])
        let image = try #require(prepared.images.first)
        #expect(image.width == 200 && image.height == 300)
        #expect(image.status == .ok)
    }

    @Test(arguments: [
        ("/status/404", "HTTP 404"),
        ("/status/500", "HTTP 500"),
        ("/text", "not an image"),
        ("/redirect/6/01-dawn.jpg", "more than 5 redirects"),
        ("/loop/a", "loop"),
        ("/image/missing.jpg", "HTTP 404"),
    ])
    func aFailedImageIsAddedAsASquareErrorTile(path: String, reason: String) async throws {
        let prepared = try await prepare([path, "/image/02-forest.jpg"])
        #expect(prepared.images.count == 2)
        let failed = try #require(prepared.images.first)
        #expect(failed.status == .failed)
        #expect(failed.aspectRatio == 1)
        #expect(failed.error?.contains(reason) == true, "\(failed.error ?? "")")
        #expect(prepared.failures.map(\.position) == [0])
        #expect(prepared.images[1].status == .ok)
    }

    @Test func followsUpToFiveRedirects() async throws {
        let prepared = try await prepare(["/redirect/5/01-dawn.jpg"])
        #expect(prepared.failures.isEmpty)
        #expect(prepared.images.first?.url == server.url("/redirect/5/01-dawn.jpg"))
    }

    @Test func bytesThatAreNotAnImageFail() async throws {
        let prepared = try await prepare(["/big?bytes=5000"])
        #expect(prepared.images.first?.error?.contains("not an image") == true)
    }

    @Test func skippingFailedLeavesThemOut() async throws {
        let prepared = try await prepare(["/status/404", "/image/02-forest.jpg"], skippingFailed: true)
        #expect(prepared.images.map(\.status) == [.ok])
        #expect(prepared.failures.count == 1)
    }

    @Test(arguments: ["/hang", "/trickle"])
    func aServerThatNeverFinishesEndsWithinTheDeadline(path: String) async throws {
        let clock = ContinuousClock()
        let start = clock.now
        let prepared = try await prepare([path]) { $0.deadline = .seconds(1) }
        #expect(clock.now - start < .seconds(4))
        #expect(prepared.images.first?.error?.contains("1 s") == true, "\(prepared.images.first?.error ?? "")")
    }

    @Test(arguments: ["/big", "/big-unannounced"])
    func aBodyOverTheCapIsStoppedWhileItArrives(path: String) async throws {
        let clock = ContinuousClock()
        let start = clock.now
        // 2 GB would take far longer than this to send: the cap stops it early.
        let prepared = try await prepare(["\(path)?bytes=2000000000"]) { $0.maximumBytes = 1 << 20 }
        #expect(clock.now - start < .seconds(10))
        #expect(prepared.images.first?.error?.contains("larger than the 1 MiB limit") == true, "\(prepared.images.first?.error ?? "")")
    }

    @Test func unwrapsAGoogleImageResultLinkBeforeFetching() async throws {
        let inner = server.url("/image/01-dawn.jpg")
        let wrapper =
            "https://www.google.com/imgres?imgurl=\(inner.absoluteString.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)&imgrefurl=https%3A%2F%2Fexample.org%2F&w=640"
        let source = try ImageSource(URL(string: wrapper)!)
        #expect(source == .web(inner))
        let fetcher = ImageFetcher()
        let prepared = try await PreparedImages.prepare([source], cache: true, fetcher: fetcher)
        await fetcher.shutdown()
        #expect(prepared.images.first?.url == inner)
        #expect(prepared.images.first?.isCached == true)
    }

    @Test func retryingAStoredWrapperLinkRecordsTheImageURL() async throws {
        // As another writer may have stored it: the wrapper link, failed.
        let inner = server.url("/image/01-dawn.jpg")
        let wrapper = URL(
            string:
                "https://www.bing.com/images/search?mediaurl=\(inner.absoluteString.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)"
        )!
        let failed = GalleryImage(url: wrapper, aspectRatio: 1, status: .failed, error: "offline", caption: "Kept")
        var document = GalleryDocument(
            creating: TemporaryFolder().path("Retry.gallery"), gallery: Gallery(title: "Retry", images: [failed]))
        let fetcher = ImageFetcher()
        let prepared = try await PreparedImages.prepare([try ImageSource(wrapper)], cache: false, fetcher: fetcher)
        await fetcher.shutdown()
        try document.update(imagesWithIDs: [failed.id], from: prepared)
        let image = try #require(document.gallery.images.first)
        #expect(image.url == inner)
        #expect(image.status == .ok && image.error == nil)
        #expect(image.id == failed.id && image.caption == "Kept")
    }

    @Test func aSpoolAKilledProcessLeftIsRemovedADayLater() throws {
        let temporary = FileManager.default.temporaryDirectory
        let old = temporary.appendingPathComponent(DownloadSpool.prefix + "old-" + UUID().uuidString)
        let recent = temporary.appendingPathComponent(DownloadSpool.prefix + "recent-" + UUID().uuidString)
        for folder in [old, recent] { try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true) }
        defer { try? FileManager.default.removeItem(at: recent) }
        try FileManager.default.setAttributes([.modificationDate: Date.now.addingTimeInterval(-2 * 24 * 3600)], ofItemAtPath: old.path)
        _ = try DownloadSpool()
        #expect(!FileManager.default.fileExists(atPath: old.path))
        #expect(FileManager.default.fileExists(atPath: recent.path))
    }

    @Test func downloadedFilesAreRemovedOnceTheDocumentIsSaved() async throws {
        let folder = TemporaryFolder()
        var spoolFolder: URL?
        do {
            let prepared = try await prepare(["/image/01-dawn.jpg"], cache: true)
            spoolFolder = prepared.spool?.folder
            var document = GalleryDocument(creating: folder.path("Web.gallery"), gallery: Gallery(title: "Web"))
            try document.insert(prepared)
            try document.save()
            #expect(try BundleVerifier.verify(folder.path("Web.gallery")).cachedImages == 1)
        }
        let spool = try #require(spoolFolder)
        #expect(!FileManager.default.fileExists(atPath: spool.path))
    }
}

/// Values recorded from concurrent callbacks.
final class Recorder: @unchecked Sendable {
    private let lock = NSLock()
    private var recorded: [Int] = []
    func record(_ value: Int) { lock.withLock { recorded.append(value) } }
    var values: [Int] { lock.withLock { recorded } }
}

@Suite struct WrapperURLTests {
    @Test(arguments: [
        (
            "https://www.google.com/imgres?imgurl=https%3A%2F%2Fcdn.example.org%2Fa.jpg&imgrefurl=https%3A%2F%2Fexample.org",
            "https://cdn.example.org/a.jpg"
        ),
        ("https://www.google.co.uk/imgres?imgurl=http://cdn.example.org/b.png&tbnid=x", "http://cdn.example.org/b.png"),
        ("https://www.google.com/url?sa=i&url=https%3A%2F%2Fcdn.example.org%2Fc.jpg", "https://cdn.example.org/c.jpg"),
        (
            "https://www.bing.com/images/search?view=detailV2&mediaurl=https%3A%2F%2Fcdn.example.org%2Fd.webp&q=x",
            "https://cdn.example.org/d.webp"
        ),
        ("https://duckduckgo.com/?q=cats&iax=images&ia=images&iai=https%3A%2F%2Fcdn.example.org%2Fe.jpg", "https://cdn.example.org/e.jpg"),
        ("https://external-content.duckduckgo.com/iu/?u=https%3A%2F%2Fcdn.example.org%2Ff.jpg&f=1", "https://cdn.example.org/f.jpg"),
        ("https://yandex.com/images/search?img_url=https%3A%2F%2Fcdn.example.org%2Fg.jpg&pos=0", "https://cdn.example.org/g.jpg"),
        // Wrapped twice.
        (
            "https://www.google.com/url?url=https%3A%2F%2Fwww.bing.com%2Fimages%2Fsearch%3Fmediaurl%3Dhttps%253A%252F%252Fcdn.example.org%252Fh.jpg",
            "https://cdn.example.org/h.jpg"
        ),
    ])
    func unwrapsSearchEngineLinks(wrapper: String, image: String) {
        #expect(WrapperURL.unwrap(URL(string: wrapper)!) == URL(string: image)!)
    }

    @Test(arguments: [
        "https://cdn.example.org/imgres?imgurl=https%3A%2F%2Fother.org%2Fa.jpg",  // not a search engine
        "https://google.example.net/imgres?imgurl=https%3A%2F%2Fother.org%2Fa.jpg",  // only named like one
        "https://www.notgoogle.com/imgres?imgurl=https%3A%2F%2Fother.org%2Fa.jpg",
        "https://www.google.com/imgres?imgurl=javascript%3Aalert(1)",  // not http(s)
        "https://www.google.com/search?q=cats",  // a results page, no image
        "https://example.org/photo.jpg",
    ])
    func leavesOtherLinksAlone(link: String) {
        #expect(WrapperURL.unwrap(URL(string: link)!) == URL(string: link)!)
    }
}
