import Foundation
import GalleryTestSupport
import Testing

/// `gallery` with web images, against a server on 127.0.0.1 that the tests start themselves.
@Suite struct WebCLITests: GalleryCommandSuite {
    let folder = TemporaryFolder()
    let server: ImageServer

    init() throws {
        server = try ImageServer()
    }

    func images(_ name: String = "Web.gallery") throws -> [[String: Any]] {
        let result = try gallery("open", name, "--json")
        try #require(result.status == 0, "\(result)")
        let json = try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any]
        return json?["images"] as? [[String: Any]] ?? []
    }

    func url(_ path: String) -> String { server.url(path).absoluteString }

    @Test func createsFromURLsInTheOrderGiven() throws {
        let urls = (0..<5).map { url("/image/01-dawn.jpg?delay=\((5 - $0) * 100)&tag=\($0)") }
        let result = try Command.gallery(["create", "Web.gallery", "--cache", "--jobs", "5"] + urls, in: folder.url)
        #expect(result.status == 0, "\(result)")
        #expect(result.errorOutput.isEmpty, "no progress line when stderr is not a terminal: \(result)")
        let list = try images()
        #expect(list.map { $0["url"] as? String } == urls)
        #expect(list.allSatisfy { $0["cached"] as? Bool == true })
        #expect(try gallery("verify", "Web.gallery").status == 0)
    }

    @Test func anImageFetchedOnceIsNotDownloadedAgainByExport() throws {
        // `/once/` answers 410 after its first request: the export can only read the image cache.
        let link = url("/once/\(UUID().uuidString)/01-dawn.jpg")
        let cacheHome = folder.path("cache")
        let created = try Command.gallery(["create", "Web.gallery", link], in: folder.url, environment: ["XDG_CACHE_HOME": cacheHome.path])
        #expect(created.status == 0, "\(created)")
        #expect(try images().first?["cached"] as? Bool == false)
        let exported = try Command.gallery(
            ["export", "Web.gallery", "--format", "cbz", "--output", "Web.cbz"], in: folder.url,
            environment: ["XDG_CACHE_HOME": cacheHome.path])
        #expect(exported.status == 0, "\(exported)")
        #expect(FileManager.default.fileExists(atPath: cacheHome.appendingPathComponent("gallery/images/objects").path))
        // Turned off, the cache is neither read nor written.
        let uncached = try Command.gallery(
            ["export", "Web.gallery", "--format", "cbz", "--output", "Again.cbz", "--image-cache-size", "0"], in: folder.url,
            environment: ["XDG_CACHE_HOME": cacheHome.path])
        #expect(uncached.status == 2 && uncached.errorOutput.contains("HTTP 410"), "\(uncached)")
    }

    @Test func addsFailedImagesListsThemAndExitsWithTwo() throws {
        let result = try gallery("create", "Web.gallery", url("/image/02-forest.jpg"), url("/status/404"), url("/text"))
        #expect(result.status == 2, "\(result)")
        #expect(result.output.contains("3 images"), "\(result)")
        let lines = result.errorOutput.split(separator: "\n")
        #expect(lines.count == 2, "\(result)")
        #expect(lines.first?.contains("/status/404") == true && lines.first?.contains("HTTP 404") == true, "\(result)")
        let list = try images()
        #expect(list.map { $0["status"] as? String } == ["ok", "failed", "failed"])
        #expect(list.map { $0["aspectRatio"] as? Double } == [427.0 / 640.0, 1, 1])
        #expect((list[1]["error"] as? String)?.contains("404") == true)
    }

    @Test func skipFailedLeavesThemOut() throws {
        let result = try gallery("create", "Web.gallery", "--skip-failed", url("/status/404"), url("/image/02-forest.jpg"))
        #expect(result.status == 2, "\(result)")
        #expect(result.errorOutput.contains("skipped"), "\(result)")
        #expect(try images().count == 1)
    }

    @Test func cleansAGoogleImageResultLink() throws {
        let inner = url("/image/05-leaf.webp")
        let wrapper =
            "https://www.google.com/imgres?imgurl=\(inner.addingPercentEncoding(withAllowedCharacters: .alphanumerics)!)&imgrefurl=x"
        #expect(try gallery("create", "Web.gallery", wrapper).status == 0)
        #expect(try images().first?["url"] as? String == inner)
    }

    @Test func retriesFailedImagesInPlace() throws {
        let flaky = url("/flaky/\(UUID().uuidString)/01-dawn.jpg")
        #expect(try gallery("create", "Web.gallery", url("/image/02-forest.jpg"), flaky).status == 2)
        let before = try images()
        #expect(try gallery("edit", "Web.gallery", "caption", "2", "Second").status == 0)

        let result = try gallery("edit", "Web.gallery", "retry", "--cache")
        #expect(result.status == 0, "\(result)")
        #expect(result.output.contains("1 fetched"), "\(result)")
        let after = try images()
        #expect(after.map { $0["id"] as? String } == before.map { $0["id"] as? String })
        #expect(after[1]["status"] as? String == "ok")
        #expect(after[1]["caption"] as? String == "Second")
        #expect(after[1]["cached"] as? Bool == true)
        #expect(after[1]["width"] as? Int == 640)
    }

    @Test func cachesAndUncachesWebImages() throws {
        #expect(try gallery("create", "Web.gallery", url("/image/01-dawn.jpg"), url("/image/05-leaf.webp")).status == 0)
        #expect(try images().allSatisfy { $0["cached"] as? Bool == false })
        let cached = try gallery("edit", "Web.gallery", "cache")
        #expect(cached.status == 0, "\(cached)")
        #expect(try images().allSatisfy { $0["cached"] as? Bool == true })
        #expect(try gallery("verify", "Web.gallery").status == 0)
        #expect(try gallery("edit", "Web.gallery", "uncache", "1").status == 0)
        #expect(try images().map { $0["cached"] as? Bool } == [false, true])
    }

    @Test func aHungServerEndsWithinTheTimeout() throws {
        let clock = ContinuousClock()
        let start = clock.now
        let result = try gallery("create", "Web.gallery", "--timeout", "1", url("/hang"))
        #expect(clock.now - start < .seconds(5))
        #expect(result.status == 2, "\(result)")
        #expect(result.errorOutput.contains("1 s"), "\(result)")
    }

    @Test func theSizeCapComesFromTheCommandLine() throws {
        let result = try gallery("create", "Web.gallery", "--max-bytes", "10K", url("/image/04-diagram.png"))
        #expect(result.status == 2, "\(result)")
        #expect(result.errorOutput.contains("10 KiB"), "\(result)")
    }

    @Test func showsProgressOnATerminal() throws {
        // script(1) gives the command a pseudo-terminal, as an interactive shell would.
        let script = try #require(Command.which("script"), "script (Debian bsdutils) is needed")
        let binary: URL = Command.gallery
        let command = "\(binary.path) create Web.gallery \(url("/image/01-dawn.jpg")) \(url("/image/02-forest.jpg"))"
        let shown = try Command.run(script, ["-qec", command, "/dev/null"], in: folder.url)
        #expect(shown.status == 0, "\(shown)")
        #expect(shown.output.contains("Fetching images: 2/2"), "\(shown)")
        let quiet = try Command.run(
            script, ["-qec", command.replacingOccurrences(of: "Web.gallery", with: "Quiet.gallery") + " --quiet", "/dev/null"],
            in: folder.url)
        #expect(quiet.status == 0, "\(quiet)")
        #expect(!quiet.output.contains("Fetching"), "\(quiet)")
    }
}
