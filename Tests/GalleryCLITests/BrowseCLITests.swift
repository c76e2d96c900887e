import Foundation
import GalleryTestSupport
import Testing

/// `gallery browse` end to end: the index in the cache folder, search, and the table's alignment.
@Suite struct BrowseCLITests {
    let folder = TemporaryFolder()
    let cache = TemporaryFolder()

    var indexFile: URL { cache.path("gallery/browse-index.sqlite") }

    func browse(_ arguments: String..., cacheHome: URL? = nil) throws -> CommandResult {
        let result = try Command.gallery(
            ["browse"] + arguments, in: folder.url, environment: ["XDG_CACHE_HOME": (cacheHome ?? cache.url).path])
        try #require(result.status == 0, "\(result)")
        #expect(result.errorOutput.isEmpty, "\(result)")
        return result
    }

    /// A document written directly (stored entries, as another writer might).
    func write(_ name: String, title: String, captions: [String?] = []) throws {
        let images = captions.enumerated().map { index, caption in
            var image = TestManifest.image(index: index)
            image["caption"] = caption ?? NSNull()
            return image
        }
        try RawZip.write(TestManifest.entries(TestManifest.object(title: title, images: images)), to: folder.path(name))
    }

    func names(_ result: CommandResult) throws -> [String] {
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [[String: Any]])
        return rows.compactMap { $0["name"] as? String }
    }

    /// A reader that stops early (`gallery browse | head`) does not keep a first listing's index
    /// from being put in place while the listing is printed: the program still ends by SIGPIPE,
    /// once the index is in place.
    ///
    /// Handshakes, no waiting: the program stops just before it puts the index in place (a save
    /// point), the pipe is broken, and it is let go once its writing thread holds the SIGPIPE
    /// pending — the moment a program that a broken pipe ends at once would have been gone.
    @Test func aReaderThatStopsEarlyLeavesTheIndexInPlace() throws {
        try write("Trip.gallery", title: "Trip")
        for copy in 1...600 { try FileManager.default.copyItem(at: folder.path("Trip.gallery"), to: folder.path("Trip \(copy).gallery")) }
        let signals = TemporaryFolder()
        let paused = signals.path("paused")
        let process = Process()
        process.executableURL = Command.gallery
        process.arguments = ["browse", "--json"]
        process.currentDirectoryURL = folder.url
        process.environment = Command.environment.merging([
            "XDG_CACHE_HOME": cache.url.path, "GALLERYKIT_PAUSE_AT": "index-installing", "GALLERYKIT_PAUSED": paused.path,
        ]) { $1 }
        let output = Pipe()
        process.standardOutput = output
        try process.run()
        // A minute at most for each step: a bound on a broken hook, not a timing.
        let deadline = Date().addingTimeInterval(60)
        while !FileManager.default.fileExists(atPath: paused.path), process.isRunning, Date() < deadline { usleep(5_000) }
        try #require(FileManager.default.fileExists(atPath: paused.path), "the listing never came to put its index in place")
        // The listing is being printed, more of it than a pipe holds; nobody reads on.
        #expect(try output.fileHandleForReading.read(upToCount: 1)?.count == 1)
        try output.fileHandleForReading.close()
        while !Self.hasPendingBrokenPipe(process.processIdentifier), process.isRunning, Date() < deadline { usleep(5_000) }
        try FileManager.default.removeItem(at: paused)
        process.waitUntilExit()
        #expect(process.terminationReason == .uncaughtSignal && process.terminationStatus == SIGPIPE, "exit \(process.terminationStatus)")
        #expect(
            try FileManager.default.contentsOfDirectory(atPath: cache.path("gallery").path).sorted() == [
                "browse-index.sqlite", "browse-index.sqlite.lock",
            ])
        #expect(try names(browse("--json")).count == 601)
    }

    /// Whether a thread of process `id` holds a SIGPIPE pending (blocked, not yet delivered).
    static func hasPendingBrokenPipe(_ id: Int32) -> Bool {
        let tasks = (try? FileManager.default.contentsOfDirectory(atPath: "/proc/\(id)/task")) ?? []
        return tasks.contains { task in
            let status = (try? String(contentsOfFile: "/proc/\(id)/task/\(task)/status", encoding: .utf8)) ?? ""
            let pending = status.split(separator: "\n").first { $0.hasPrefix("SigPnd:") }?.split(separator: "\t").last
            return pending.flatMap { UInt64($0, radix: 16) }.map { $0 & (1 << (UInt64(SIGPIPE) - 1)) != 0 } ?? false
        }
    }

    /// A file name that is not UTF-8 (`caf` + Latin-1 é) is shown as `ls -b` shows it, in the
    /// table, in `--json` (with `fileURL` keeping its bytes) and in `open`'s heading and errors.
    @Test func namesTheCurrentFolderWhenNothingMatches() throws {
        try write("Trip.gallery", title: "Trip")
        #expect(try browse(".", "--search", "harbour").output == "No gallery documents in . matching \"harbour\".\n")
    }

    @Test func showsANameThatIsNotUTF8AsLsDoes() throws {
        try write("plain.gallery", title: "Café")
        let latin1 = "\"$(printf 'caf\\351.gallery')\""
        let copied = try Command.run(
            URL(fileURLWithPath: "/bin/sh"), ["-c", "cp plain.gallery \(latin1) && printf junk > \"$(printf 'bad\\377.gallery')\""],
            in: folder.url)
        try #require(copied.status == 0, "\(copied)")

        let table = try browse().output.split(separator: "\n")
        #expect(table.contains { $0.hasPrefix("caf\\351.gallery  Café ") }, "\(table)")
        #expect(table.contains { $0.hasPrefix("bad\\377.gallery  damaged: ") }, "\(table)")

        let rows = try #require(try JSONSerialization.jsonObject(with: Data(browse("--json").output.utf8)) as? [[String: Any]])
        let row = try #require(rows.first { $0["title"] as? String == "Café" && $0["name"] as? String != "plain" })
        #expect(row["name"] as? String == "caf\\351")
        #expect(row["path"] as? String == folder.path("caf").path + "\\351.gallery")
        #expect(row["fileURL"] as? String == "file://" + folder.url.path + "/caf%E9.gallery")
        #expect(rows.first { $0["name"] as? String == "plain" }?.keys.contains("fileURL") == false, "only where the path is not UTF-8")

        let gallery = Command.gallery.path
        let opened = try Command.run(URL(fileURLWithPath: "/bin/sh"), ["-c", "\"$0\" open \(latin1)", gallery], in: folder.url)
        #expect(opened.status == 0 && opened.output.hasPrefix("Café — caf\\351.gallery\n"), "\(opened)")
        let damaged = try Command.run(
            URL(fileURLWithPath: "/bin/sh"), ["-c", "\"$0\" open \"$(printf 'bad\\377.gallery')\"", gallery], in: folder.url)
        #expect(
            damaged.status == 65 && damaged.errorOutput.hasPrefix("gallery: error: ") && damaged.errorOutput.contains("bad\\377.gallery: "),
            "\(damaged)")
    }

    @Test func keepsItsIndexInTheCacheFolderAndListsTheSameWithOrWithout() throws {
        try write("Trip 10.gallery", title: "Tenth")
        try write("trip 3.gallery", title: "Third", captions: ["Harbour at dawn"])
        try write("Trip 2.gallery", title: "Second")
        try Data("broken".utf8).write(to: folder.path("Broken.gallery"))

        let cold = try browse("--json")
        #expect(FileManager.default.fileExists(atPath: indexFile.path))
        let warm = try browse("--json")
        let unindexed = try browse("--json", "--no-index")
        #expect(cold.output == warm.output)
        #expect(warm.output == unindexed.output)
        #expect(try names(warm) == ["Trip 2", "trip 3", "Trip 10", "Broken"])

        // The JSON shape: these keys, nulls included, for every document.
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(warm.output.utf8)) as? [[String: Any]])
        for row in rows {
            #expect(row.keys.sorted() == ["bytes", "cached", "created", "detail", "error", "images", "modified", "name", "path", "title"])
        }
        #expect(rows[3]["error"] is String)
        #expect(rows[3]["title"] is NSNull)

        #expect(try names(try browse("--json", "--search", "harb")) == ["trip 3"])
        #expect(try names(try browse("--json", "--search", "harb", "--no-index")) == ["trip 3"])
        #expect(try names(try browse("--json", "--search", "brok")) == ["Broken"])
    }

    /// `--json` is written without JSONEncoder now: the same bytes as JSONEncoder wrote (pretty,
    /// sorted keys, whole-second UTC dates, these escapes), checked against its output.
    @Test func writesJSONExactlyAsBefore() throws {
        var tricky = TestManifest.object(title: "q\"b\\s/c\n\t\r\u{08}\u{0C}\u{01}\u{1F}\u{7F} é 日 \u{2028} 🌅 <>&'")
        tricky["modified"] = "2026-01-02T03:04:05.75Z"
        try RawZip.write(TestManifest.entries(tricky), to: folder.path("a.gallery"))
        var early = TestManifest.object(title: "x")
        early["created"] = "1969-12-31T23:59:59.5Z"
        try RawZip.write(TestManifest.entries(early), to: folder.path("b\"q.gallery"))
        try Data("junk\n".utf8).write(to: folder.path("c.gallery"))
        func size(_ name: String) throws -> Int { try Data(contentsOf: folder.path(name)).count }
        let expected = """
            [
              {
                "bytes" : \(try size("a.gallery")),
                "cached" : 0,
                "created" : "2026-01-02T03:04:05Z",
                "detail" : null,
                "error" : null,
                "images" : 0,
                "modified" : "2026-01-02T03:04:05Z",
                "name" : "a",
                "path" : "\(folder.url.path)/a.gallery",
                "title" : "q\\"b\\\\s/c\\n\\t\\r\\b\\f\\u0001\\u001f\u{7F} é 日 \u{2028} 🌅 <>&'"
              },
              {
                "bytes" : \(try size("b\"q.gallery")),
                "cached" : 0,
                "created" : "1969-12-31T23:59:59Z",
                "detail" : null,
                "error" : null,
                "images" : 0,
                "modified" : "2026-01-02T03:04:05Z",
                "name" : "b\\"q",
                "path" : "\(folder.url.path)/b\\"q.gallery",
                "title" : "x"
              },
              {
                "bytes" : 5,
                "cached" : null,
                "created" : null,
                "detail" : "Unrecognized archive format",
                "error" : "not a gallery document (not a zip archive)",
                "images" : null,
                "modified" : null,
                "name" : "c",
                "path" : "\(folder.url.path)/c.gallery",
                "title" : null
              }
            ]

            """
        #expect(try browse("--json").output == expected)
        #expect(try browse("--json", "--no-index").output == expected)
        let empty = TemporaryFolder()
        let none = try Command.gallery(
            ["browse", "--json", empty.url.path], in: folder.url, environment: ["XDG_CACHE_HOME": cache.url.path])
        #expect(none.output == "[\n\n]\n")
    }

    @Test func searchesNonLatinTitles() throws {
        try write("日出の旅.gallery", title: "日出の旅")
        try write("Café.gallery", title: "Café de Flore")
        try write("Αθήνα.gallery", title: "Αθήνα τον Μάιο")
        _ = try browse("--json")
        #expect(try names(try browse("--json", "--search", "日出")) == ["日出の旅"])
        #expect(try names(try browse("--json", "--search", "cafe")) == ["Café"])
        #expect(try names(try browse("--json", "--search", "μαι")) == ["Αθήνα"])
        let none = try browse("--search", "nothing")
        #expect(none.output.hasSuffix(" matching \"nothing\".\n"))
    }

    /// The table pads by the columns a terminal gives each character: the titles line up.
    @Test func alignsWideAndEmojiNames() throws {
        try write("日出 Trip.gallery", title: "Title A")
        try write("🌅 Dawn.gallery", title: "Title B")
        try write("Plain.gallery", title: "Title C")
        try write("Cafe\u{301}.gallery", title: "Title D")
        let lines = try browse().output.split(separator: "\n").map(String.init)
        try #require(lines.count == 5)
        let columns = try ["TITLE", "Title A", "Title B", "Title C", "Title D"].map { title in
            let line = try #require(lines.first { $0.contains(title) })
            return Self.terminalColumns(line[..<line.range(of: title)!.lowerBound])
        }
        // "日出 Trip.gallery", the widest name, takes 17 columns; then two spaces.
        #expect(columns == Array(repeating: 19, count: 5), "\(lines.joined(separator: "\n"))")
    }

    /// The columns these tests' characters take: CJK and emoji two, combining marks none.
    static func terminalColumns(_ text: Substring) -> Int {
        text.unicodeScalars.reduce(0) { width, scalar in
            switch scalar.value {
            case 0x0300...0x036F: width
            case 0x3000...0x9FFF, 0x1F300...0x1FAFF: width + 2
            default: width + 1
            }
        }
    }

    @Test func listsWithoutTheIndexWhenTheCacheFolderCannotBeMade() throws {
        try write("a.gallery", title: "Alpha")
        let file = cache.path("not-a-folder")
        try Data("a file".utf8).write(to: file)
        let impossible = file.appendingPathComponent("below")
        let result = try browse("--json", cacheHome: impossible)
        #expect(try names(result) == ["a"])
        #expect(result.output == (try browse("--json", "--no-index")).output)
    }

    @Test func aCorruptIndexIsRebuilt() throws {
        try write("a.gallery", title: "Alpha")
        _ = try browse("--json")
        for suffix in ["-wal", "-shm"] { try? FileManager.default.removeItem(atPath: indexFile.path + suffix) }
        try Data(repeating: 0x42, count: 4096).write(to: indexFile)
        #expect(try names(try browse("--json", "--search", "alpha")) == ["a"])
        let header = try Data(contentsOf: indexFile).prefix(15)
        #expect(header == Data("SQLite format 3".utf8))
    }

    /// Listings in several processes at once, one killed half way: all right, and the index
    /// afterwards too.
    @Test func concurrentAndKilledListingsStayRight() throws {
        for number in 0..<60 { try write("doc-\(number).gallery", title: "Document \(number)", captions: ["Caption \(number)"]) }
        let expected = try browse("--json", "--no-index").output

        // One listing killed half way: paused (SavePoint) with its rows written to the index in
        // its transaction, not committed, and killed there.
        let paused = try Command.killGallery(
            ["browse", "--json"], atSavePoint: "index-rows-written", in: folder.url, environment: ["XDG_CACHE_HOME": cache.url.path])
        try #require(paused, "the listing never reached its index write")

        let outputs = ResultCollectorCLI()
        DispatchQueue.concurrentPerform(iterations: 4) { _ in
            outputs.append(
                Result { try Command.gallery(["browse", "--json"], in: folder.url, environment: ["XDG_CACHE_HOME": cache.url.path]) })
        }
        for result in outputs.values {
            let result = try result.get()
            #expect(result.status == 0, "\(result)")
            #expect(result.output == expected)
        }
        #expect(try browse("--json").output == expected)
        #expect(try browse("--json", "--search", "caption 42").output.contains("doc-42.gallery"))
    }
}

/// Results from concurrent workers.
final class ResultCollectorCLI: @unchecked Sendable {
    private var results: [Result<CommandResult, any Error>] = []
    private let lock = NSLock()

    func append(_ result: Result<CommandResult, any Error>) { lock.withLock { results.append(result) } }
    var values: [Result<CommandResult, any Error>] { lock.withLock { results } }
}
