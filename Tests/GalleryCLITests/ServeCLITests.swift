import Foundation
import GalleryTestSupport
import Testing

/// `gallery serve` as a user starts it: its help, its refusals, and the whole app in headless
/// Chromium (Debian's, driven by Playwright) — drag and drop, two tabs, the browser page.
@Suite struct ServeCLITests {
    let folder = TemporaryFolder()

    @Test func helpTeachesTheAppAndItsSafety() throws {
        let help = try Command.gallery(["serve", "--help"], in: folder.url)
        #expect(help.status == 0)
        for text in ["--port", "--host", "--open", "127.0.0.1", "token", "Ctrl-C", "gallery serve ~/Galleries --open"] {
            #expect(help.output.contains(text), "\(text)")
        }
    }

    @Test func aFolderThatIsNotThereIsOneLineAndExit66() throws {
        let result = try Command.gallery(["serve", "Nowhere"], in: folder.url)
        #expect(result.status == 66)
        #expect(
            result.errorOutput == "gallery: error: \(folder.url.path)/Nowhere: no such folder\n"
                || result.errorOutput.hasSuffix("Nowhere: no such folder\n"), "\(result)")
        #expect(result.output.isEmpty)
    }

    @Test func aDocumentInsteadOfAFolderIsExplained() throws {
        _ = FileManager.default.createFile(atPath: folder.path("Trip.gallery").path, contents: Data())
        let result = try Command.gallery(["serve", "Trip.gallery"], in: folder.url)
        #expect(
            result.status == 66 && result.errorOutput.hasSuffix("Trip.gallery: not a folder; serve the folder that holds the documents\n"),
            "\(result)")
    }

    /// A port already taken: one line naming the address, exit 74, and nothing printed on stdout.
    @Test func aTakenPortIsOneLineAndExit74() throws {
        let listener = socket(AF_INET, Int32(SOCK_STREAM.rawValue), 0)
        defer { close(listener) }
        var address = sockaddr_in()
        address.sin_family = sa_family_t(AF_INET)
        address.sin_addr.s_addr = inet_addr("127.0.0.1")
        var length = socklen_t(MemoryLayout<sockaddr_in>.size)
        _ = withUnsafeMutablePointer(to: &address) { $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { bind(listener, $0, length) } }
        _ = listen(listener, 1)
        _ = withUnsafeMutablePointer(to: &address) {
            $0.withMemoryRebound(to: sockaddr.self, capacity: 1) { getsockname(listener, $0, &length) }
        }
        let port = Int(UInt16(bigEndian: address.sin_port))
        let result = try Command.gallery(["serve", ".", "--port", String(port)], in: folder.url)
        #expect(result.status == 74, "\(result)")
        #expect(
            result.errorOutput
                == "gallery: error: 127.0.0.1:\(port): cannot listen: Address already in use; choose another --port, or leave it out for a free one\n"
        )
        #expect(result.output.isEmpty)
    }

    /// The first line names the folder served by its whole path, the current folder included
    /// (it was printed as an empty name).
    @Test(arguments: [".", "absolute"])
    func theFirstLineNamesTheFolderServed(argument: String) throws {
        let process = Process()
        process.executableURL = Command.gallery
        process.arguments = ["serve", argument == "absolute" ? folder.url.path : argument]
        process.currentDirectoryURL = folder.url
        process.environment = Command.environment
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        defer {
            process.interrupt()
            process.waitUntilExit()
        }
        var line = Data()
        while let byte = try output.fileHandleForReading.read(upToCount: 1), !byte.isEmpty, byte != Data("\n".utf8) { line += byte }
        let text = String(decoding: line, as: UTF8.self)
        let shown = folder.url.resolvingSymlinksInPath().path
        #expect(
            text.hasPrefix("Serving \(shown)/ at http://127.0.0.1:") || text.hasPrefix("Serving \(folder.url.path)/ at http://127.0.0.1:"),
            "\(text)")
    }

    /// `--host 0.0.0.0` (to reach the app from a phone) prints the loopback URL to open here and
    /// one for each of this machine's addresses, and each of them opens the app (the token
    /// becomes a cookie on the way, hence the cookie jar).
    @Test func listeningOnEveryAddressPrintsURLsOtherDevicesCanOpen() throws {
        let process = Process()
        process.executableURL = Command.gallery
        process.arguments = ["serve", ".", "--host", "0.0.0.0"]
        process.currentDirectoryURL = folder.url
        process.environment = Command.environment
        let output = Pipe()
        process.standardOutput = output
        process.standardError = FileHandle.nullDevice
        try process.run()
        defer {
            process.interrupt()
            process.waitUntilExit()
        }
        var lines: [String] = []
        var line = Data()
        while lines.last != "Press Ctrl-C to stop.", let byte = try output.fileHandleForReading.read(upToCount: 1), !byte.isEmpty {
            if byte == Data("\n".utf8) {
                lines.append(String(decoding: line, as: UTF8.self))
                line = Data()
            } else {
                line += byte
            }
        }
        #expect(lines.first?.contains(" at http://127.0.0.1:") == true, "\(lines)")
        let others = lines.dropFirst().dropLast()
        for other in others {
            #expect(other.hasPrefix("On another device (same network): http://"), "\(lines)")
        }
        let python = try #require(Command.which("python3"))
        let urls = [lines.first?.components(separatedBy: " at ").last] + others.map { $0.components(separatedBy: ": ").last }
        for url in urls.compactMap({ $0 }) {
            let fetched = try Command.run(
                python,
                [
                    "-c",
                    "import sys, urllib.request as u; print(u.build_opener(u.HTTPCookieProcessor()).open(sys.argv[1], timeout=10).status)",
                    url,
                ],
                in: folder.url)
            #expect(fetched.output == "200\n", "\(url): \(fetched)")
        }
    }

    @Test func aPortOutOfRangeIsAUsageError() throws {
        let result = try Command.gallery(["serve", ".", "--port", "70000"], in: folder.url)
        #expect(result.status == 64 && result.errorOutput.contains("--port must be from 0 to 65535"), "\(result)")
    }

    /// `gallery serve` saving, listing, duplicating and trashing at once beside `gallery export`s
    /// for 30 s, in a time zone far from UTC and the C locale: every entry of every zip written
    /// has its time in UTC (`Tests/Stress/serve_stress.py`). The library once set `TZ` and the
    /// locale for the whole process around each zip header it wrote and read.
    @Test func savesListingsAndExportsAtOnceKeepEveryEntryTimeRight() throws {
        let checker = Repository.root.appendingPathComponent("Tests/Stress/serve_stress.py")
        let python = try #require(Command.which("python3"))
        let images = Array(Repository.sampleImageFiles().prefix(3)).map(\.path)
        let result = try Command.run(python, [checker.path, Command.gallery.path] + images + ["--seconds", "30"], in: folder.url)
        #expect(result.status == 0 && result.output.contains("serve_stress: OK"), "\(result)")
    }

    /// Runs `Tests/Browser/NAME` (Playwright driving Debian's chromium) on this build's binary.
    func runBrowserCheck(_ name: String, _ arguments: [String]) throws {
        let checker = Repository.root.appendingPathComponent("Tests/Browser/\(name)")
        let python = try #require(Command.which("python3"))
        let result = try Command.run(python, [checker.path, Command.gallery.path] + arguments, in: folder.url)
        #expect(result.status == 0, "\(result)")
    }

    @Test func theAppWorksInHeadlessChromium() throws {
        try runBrowserCheck("check_serve.py", Array(Repository.sampleImageFiles().prefix(7)).map(\.path))
    }

    /// Touch on a phone-sized page (chromium with touch emulation): long press and drag of one
    /// image and of a selected stack, a drop on the trash, pinch both ways, a swipe that scrolls.
    @Test func touchReordersRemovesAndPinchesInHeadlessChromium() throws {
        try runBrowserCheck("check_touch.py", Array(Repository.sampleImageFiles().prefix(6)).map(\.path))
    }

    /// The viewer (the HTML export's) in the app: at rest, mid-swipe, zoom, strip drag and the
    /// address at 1280 px; Delete and Undo judged on disk; a finger swipe and turning a phone.
    @Test func theViewerPagesDeletesAndFollowsTheFingerInHeadlessChromium() throws {
        try runBrowserCheck("check_viewer.py", Array(Repository.sampleImageFiles().prefix(7)).map(\.path))
    }

    /// A gallery of links (nothing stored) in headless Chromium: its images fetched on view, a
    /// broken one an error tile until Retry, the document unchanged until "Keep in gallery".
    @Test func aGalleryOfLinksShowsItsImagesInHeadlessChromium() throws {
        try runBrowserCheck("check_links.py", [Repository.sampleImage("01-dawn").path])
    }
}
