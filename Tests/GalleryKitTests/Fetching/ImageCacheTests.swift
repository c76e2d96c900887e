import Foundation
import GalleryTestSupport
import Testing

@testable import GalleryKit

/// The shared image cache: whole files only, checked on every read, least recently used first
/// out, and the fetcher reading it before the web.
@Suite struct ImageCacheTests {
    let folder = TemporaryFolder()

    func bytes(_ tag: Int, count: Int = 10_000) -> Data {
        Data((0..<count).map { UInt8(truncatingIfNeeded: $0 &* 31 &+ tag) })
    }

    /// The object file holding `bytes`, found by walking the folder.
    func objectFile(of bytes: Data) -> URL {
        let sha256 = ContentHash.of(bytes)
        return folder.url.appendingPathComponent("objects/\(sha256.prefix(2))/\(sha256)")
    }

    @Test func anObjectComesBackAsStoredUnderItsKey() {
        let cache = ImageCache(folder: folder.url)
        let image = bytes(1)
        let sha256 = cache.store(image, mediaType: "image/png", forKey: "url https://example.com/a.png")
        #expect(
            cache.object(forKey: "url https://example.com/a.png") == ImageCache.Hit(bytes: image, sha256: sha256, mediaType: "image/png"))
        #expect(cache.object(forKey: "url https://example.com/b.png") == nil)
    }

    @Test(arguments: ["flipped", "truncated", "emptied"])
    func aDamagedObjectIsDroppedNeverServed(damage: String) throws {
        let cache = ImageCache(folder: folder.url)
        let image = bytes(2)
        cache.store(image, mediaType: "image/jpeg", forKey: "k")
        let file = objectFile(of: image)
        var damaged = try Data(contentsOf: file)
        switch damage {
        case "flipped": damaged[100] ^= 0xFF
        case "truncated": damaged = damaged.prefix(damaged.count / 2)
        default: damaged = Data()
        }
        try damaged.write(to: file)
        #expect(cache.object(forKey: "k") == nil)
        #expect(FileLocation.status(of: file) == nil, "the damaged file is removed")
        cache.store(image, mediaType: "image/jpeg", forKey: "k")
        #expect(cache.object(forKey: "k")?.bytes == image, "and stored again whole")
    }

    @Test func theLeastRecentlyUsedGoFirstAndTheFolderStaysUnderItsCapacity() throws {
        // Room for four images and their records, not five (disk blocks are measured, not assumed).
        ImageCache(folder: folder.url).store(bytes(0), mediaType: "image/jpeg", forKey: "k0")
        let capacity = ImageCache(folder: folder.url).size() * 9 / 2
        let cache = ImageCache(folder: folder.url, capacity: capacity)
        for tag in 1..<4 {
            try folder.setEveryFileBack()
            cache.store(bytes(tag), mediaType: "image/jpeg", forKey: "k\(tag)")
        }
        try folder.setEveryFileBack()
        #expect(cache.object(forKey: "k0") != nil)  // used: now the most recent
        try folder.setEveryFileBack()
        cache.store(bytes(4), mediaType: "image/jpeg", forKey: "k4")
        #expect(cache.size() <= capacity)
        #expect(cache.object(forKey: "k1") == nil)
        for kept in ["k0", "k3", "k4"] { #expect(cache.object(forKey: kept) != nil, "\(kept)") }
    }

    @Test func programsSharingTheFolderReadWholeObjectsOrNone() async {
        let images = (0..<16).map { bytes($0, count: 200_000) }
        let caches = [ImageCache(folder: folder.url), ImageCache(folder: folder.url)]
        let torn = Counter()
        // Writers and readers of the same keys at once, through two caches of one folder.
        DispatchQueue.concurrentPerform(iterations: 8) { worker in
            let cache = caches[worker % 2]
            for round in 0..<40 {
                let index = (round + worker) % images.count
                if worker < 4 {
                    cache.store(images[index], mediaType: "image/jpeg", forKey: "k\(index)")
                } else if let hit = cache.object(forKey: "k\(index)"), hit.bytes != images[index] {
                    torn.add()
                }
            }
        }
        #expect(torn.value == 0)
    }

    @Test func theFetcherReadsTheCacheBeforeTheWeb() async throws {
        let server = try ImageServer()
        let fetcher = ImageFetcher(cache: ImageCache(folder: folder.url))
        // `/once/` refuses a second download: the second image can only come from the cache.
        let url = server.url("/once/\(UUID().uuidString)/01-dawn.jpg")
        let first = try await PreparedImages.prepare([.web(url)], cache: true, fetcher: fetcher)
        let second = try await PreparedImages.prepare([.web(url)], cache: true, fetcher: fetcher)
        // Bytes that are not an image's are not kept: they are asked for again.
        let notImage = server.url("/big?bytes=3000")
        _ = try await PreparedImages.prepare([.web(notImage)], cache: true, fetcher: fetcher)
        await fetcher.shutdown()
        #expect(first.failures.isEmpty && second.failures.isEmpty)
        #expect(second.images[0].cached?.sha256 == first.images[0].cached?.sha256)
        #expect(fetcher.cache?.object(forKey: ImageCache.key(forImageAt: notImage)) == nil)
    }
}

/// A count several threads add to.
private final class Counter: @unchecked Sendable {
    private let lock = NSLock()
    private var count = 0

    func add() { lock.withLock { count += 1 } }
    var value: Int { lock.withLock { count } }
}
