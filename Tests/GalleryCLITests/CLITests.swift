import Foundation
import GalleryTestSupport
import Testing

/// The `gallery` binary end to end: output, exit statuses, and what is left on disk.
@Suite struct CLITests {
    let folder = TemporaryFolder()

    func gallery(_ arguments: String..., environment: [String: String] = [:]) throws -> CommandResult {
        try Command.gallery(arguments, in: folder.url, environment: environment)
    }

    /// A document made of `count` distinct copies of a sample JPEG.
    func makeDocument(_ name: String = "Trip.gallery", images count: Int = 3, cache: Bool = true) throws {
        let files = try folder.distinctImages(count, from: Repository.sampleImage(".jpg")).map(\.lastPathComponent)
        let result = try Command.gallery(["create", name, "--title", "Trip"] + (cache ? ["--cache"] : []) + files, in: folder.url)
        try #require(result.status == 0, "\(result)")
    }

    func openJSON(_ name: String = "Trip.gallery") throws -> [String: Any] {
        let result = try gallery("open", name, "--json")
        try #require(result.status == 0, "\(result)")
        return try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [String: Any])
    }

    func images(_ name: String = "Trip.gallery") throws -> [[String: Any]] {
        try openJSON(name)["images"] as? [[String: Any]] ?? []
    }

    @Test func createsAndOpensADocument() throws {
        try makeDocument()
        let json = try openJSON()
        #expect(json["title"] as? String == "Trip")
        #expect(json["columns"] as? Int == 3)
        let images = try #require(json["images"] as? [[String: Any]])
        #expect(images.count == 3)
        #expect(images.map { $0["index"] as? Int } == [1, 2, 3])
        #expect(images.allSatisfy { $0["cached"] as? Bool == true && ($0["sha256"] as? String)?.count == 64 })
        for key in ["path", "id", "created", "modified"] { #expect(json[key] != nil, "\(key)") }
        for key in ["id", "url", "aspectRatio", "width", "height", "status", "error", "caption"] {
            #expect(images[0].keys.contains(key), "\(key)")
        }

        let table = try gallery("open", "Trip.gallery")
        #expect(table.status == 0)
        #expect(table.output.contains("Trip"))
        #expect(table.output.contains("image-2.jpg"))
    }

    /// Images are encoded in blocks on several threads: every one must come out once, in order,
    /// with its own fields, across the blocks' boundaries.
    @Test func listsAManyThousandImageDocumentInOrder() throws {
        let count = 5_000
        let written = (0..<count).map { index in
            var image = TestManifest.image(index: index)
            if index % 1000 == 999 { image["caption"] = "line \(index)\n\"quoted\" ☀" }
            return image
        }
        try RawZip.write(TestManifest.entries(TestManifest.object(title: "Many", images: written)), to: folder.path("Many.gallery"))
        let listed = try images("Many.gallery")
        #expect(listed.count == count)
        #expect(listed.map { $0["index"] as? Int } == Array(1...count))
        #expect(listed.map { $0["id"] as? String } == written.map { $0["id"] as? String })
        #expect(listed.map { $0["url"] as? String } == written.map { $0["url"] as? String })
        #expect(listed[1999]["caption"] as? String == "line 1999\n\"quoted\" ☀")
        #expect(listed[2000]["caption"] is NSNull)
    }

    @Test func showsTheDisplayedSizeOfARotatedPhoto() throws {
        let sideways = Repository.sampleImage("exif6")
        let result = try gallery("create", "Rotated.gallery", sideways.path)
        try #require(result.status == 0, "\(result)")
        let image = try #require(try images("Rotated.gallery").first)
        let width = try #require(image["width"] as? Int)
        let height = try #require(image["height"] as? Int)
        #expect(width < height)
        #expect(abs((image["aspectRatio"] as? Double ?? 0) - Double(width) / Double(height)) < 1e-9)
    }

    @Test func editsWithOneBasedIndicesAndUndoes() throws {
        try makeDocument(images: 4)
        let original = try images().map { $0["id"] as! String }
        #expect(try gallery("edit", "Trip.gallery", "move", "3", "4", "--to", "1").status == 0)
        #expect(try images().map { $0["id"] as! String } == [original[2], original[3], original[0], original[1]])
        #expect(try gallery("edit", "Trip.gallery", "swap", "1", "4").status == 0)
        #expect(try gallery("edit", "Trip.gallery", "remove", "2").status == 0)
        #expect(try images().count == 3)
        #expect(try gallery("edit", "Trip.gallery", "caption", "1", "Dawn").status == 0)
        #expect(try images().first?["caption"] as? String == "Dawn")
        #expect(try gallery("edit", "Trip.gallery", "title", "Renamed").status == 0)
        #expect(try gallery("edit", "Trip.gallery", "columns", "5").status == 0)
        #expect(try openJSON()["columns"] as? Int == 5)
        for _ in 0..<6 { #expect(try gallery("edit", "Trip.gallery", "undo").status == 0) }
        #expect(try images().map { $0["id"] as! String } == original)
        #expect(try gallery("edit", "Trip.gallery", "redo").status == 0)
        #expect(try images().map { $0["id"] as! String } == [original[2], original[3], original[0], original[1]])
    }

    @Test func addsAtAPositionAndCachesAndUncaches() throws {
        try makeDocument(images: 2, cache: false)
        let extra = try folder.distinctImages(1, from: Repository.sampleImage(".png")).first!
        let renamed = folder.path("extra.png")
        try FileManager.default.moveItem(at: extra, to: renamed)
        #expect(try gallery("edit", "Trip.gallery", "add", "extra.png", "--at", "1", "--cache").status == 0)
        var list = try images()
        #expect((list.first?["url"] as? String)?.hasSuffix("extra.png") == true)
        #expect(list.map { $0["cached"] as? Bool } == [true, false, false])
        #expect(try gallery("edit", "Trip.gallery", "cache").status == 0)
        list = try images()
        #expect(list.allSatisfy { $0["cached"] as? Bool == true })
        #expect(try gallery("edit", "Trip.gallery", "uncache", "2", "3").status == 0)
        #expect(try images().map { $0["cached"] as? Bool } == [true, false, false])
        #expect(try gallery("verify", "Trip.gallery").status == 0)
    }

    @Test func copiesAndMovesBetweenDocuments() throws {
        try makeDocument("A.gallery", images: 3)
        try makeDocument("B.gallery", images: 1)
        let a = try images("A.gallery")
        #expect(try gallery("copy", "A.gallery", "1", "3", "B.gallery", "--at", "1").status == 0)
        let b = try images("B.gallery")
        #expect(b.count == 3)
        #expect(b.prefix(2).map { $0["sha256"] as? String } == [a[0]["sha256"] as? String, a[2]["sha256"] as? String])
        #expect(try gallery("verify", "B.gallery").status == 0)
        #expect(try gallery("copy", "A.gallery", "2", "B.gallery", "--move").status == 0)
        #expect(try images("A.gallery").count == 2)
        #expect(try images("B.gallery").count == 4)
    }

    @Test func exportsABundleAndAFolder() throws {
        try makeDocument(cache: false)
        #expect(try gallery("edit", "Trip.gallery", "title", "Shared").status == 0)
        #expect(try gallery("export", "Trip.gallery", "--format", "bundle", "--output", "Share.gallery").status == 0)
        let shared = try images("Share.gallery")
        #expect(shared.allSatisfy { $0["cached"] as? Bool == true })
        #expect(try gallery("edit", "Share.gallery", "undo").status == 64)
        #expect(try gallery("export", "Trip.gallery", "--format", "folder", "--output", "Images").status == 0)
        let names = try FileManager.default.contentsOfDirectory(atPath: folder.path("Images").path).sorted()
        #expect(names == ["001-image-0.jpg", "002-image-1.jpg", "003-image-2.jpg"])
    }

    @Test func browsesAFolder() throws {
        try makeDocument("Trip.gallery", images: 2)
        try makeDocument("Zoo.gallery", images: 1)
        try Data("broken".utf8).write(to: folder.path("Broken.gallery"))
        let result = try gallery("browse", "--json", "--sort", "images", "--reverse")
        try #require(result.status == 0, "\(result)")
        let rows = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [[String: Any]])
        #expect(rows.map { $0["name"] as? String } == ["Trip", "Zoo", "Broken"])
        #expect(rows[0]["images"] as? Int == 2)
        #expect(rows[0]["cached"] as? Int == 2)
        #expect(rows[2]["error"] is String)
        for key in ["path", "name", "title", "images", "cached", "bytes", "modified", "created", "error"] {
            #expect(rows[0].keys.contains(key), "\(key)")
        }
        let table = try gallery("browse")
        #expect(table.status == 0)
        #expect(table.output.contains("Broken.gallery"))
        #expect(try gallery("browse", "--search", "zoo", "--json").output.contains("Zoo.gallery"))
    }

    /// One line on stderr naming the file, the documented status, and nothing changed on disk.
    /// (`names` is the file the message must name. More bad arguments: `OneLineErrorTests`.)
    struct FailureCase: Sendable, CustomStringConvertible {
        var arguments: [String]
        var status: Int32
        var names: String?
        init(_ arguments: [String], _ status: Int32, names: String?) {
            self.arguments = arguments
            self.status = status
            self.names = names
        }
        var description: String { arguments.joined(separator: " ") }
    }

    static let failures: [FailureCase] = [
        FailureCase(["create", "Trip.gallery", "missing.jpg"], 73, names: "Trip.gallery"),
        FailureCase(["create", "New.gallery", "missing.jpg"], 66, names: "missing.jpg"),
        FailureCase(["create", "New.gallery", "notes.txt"], 65, names: "notes.txt"),
        // libjpeg warns about these on stderr unless the library silences libvips' log.
        FailureCase(["create", "New.gallery", "truncated.jpg"], 65, names: "truncated.jpg"),
        FailureCase(["create", "New.gallery", "empty.jpg"], 65, names: "empty.jpg"),
        FailureCase(["create", "New.gallery", "pipe.jpg"], 65, names: "pipe.jpg"),
        FailureCase(["open", "absent.gallery"], 66, names: "absent.gallery"),
        FailureCase(["open", "Broken.gallery"], 65, names: "Broken.gallery"),
        FailureCase(["edit", "Trip.gallery", "remove", "9"], 64, names: "Trip.gallery"),
        FailureCase(["edit", "Trip.gallery", "move", "1", "--to", "9"], 64, names: "Trip.gallery"),
        FailureCase(["edit", "Trip.gallery", "columns", "40"], 64, names: "Trip.gallery"),
        FailureCase(["edit", "Trip.gallery", "redo"], 64, names: "Trip.gallery"),
        FailureCase(["edit", "Trip.gallery", "add", "notes.txt"], 65, names: "notes.txt"),
        FailureCase(["edit", "Trip.gallery", "add", "missing.jpg"], 66, names: "missing.jpg"),
        FailureCase(["edit", "Broken.gallery", "title", "x"], 65, names: "Broken.gallery"),
        FailureCase(["edit", "absent.gallery", "title", "x"], 66, names: "absent.gallery"),
        FailureCase(["copy", "Trip.gallery", "7", "Other.gallery"], 66, names: "Other.gallery"),
        FailureCase(["copy", "Trip.gallery", "7", "Trip.gallery"], 64, names: "Trip.gallery"),
        FailureCase(["export", "Trip.gallery", "--format", "bundle", "--output", "Trip.gallery"], 73, names: "Trip.gallery"),
        FailureCase(["export", "Trip.gallery", "--format", "folder", "--output", "notes.txt"], 73, names: "notes.txt"),
        FailureCase(["verify", "Broken.gallery"], 65, names: "Broken.gallery"),
        FailureCase(["edit", "Trip.gallery", "swap", "1", "0"], 64, names: "Trip.gallery"),
        FailureCase(["edit", "Trip.gallery", "dance"], 64, names: "Trip.gallery"),
    ]

    @Test(arguments: failures)
    func failsCleanly(_ failure: FailureCase) throws {
        let (arguments, status, names) = (failure.arguments, failure.status, failure.names)
        try makeDocument(images: 2)
        try Data("broken".utf8).write(to: folder.path("Broken.gallery"))
        try Data("not an image".utf8).write(to: folder.path("notes.txt"))
        try Data(contentsOf: Repository.sampleImage(".jpg")).prefix(200).write(to: folder.path("truncated.jpg"))
        try Data().write(to: folder.path("empty.jpg"))
        #expect(mkfifo(folder.path("pipe.jpg").path, 0o644) == 0)
        let before = try snapshot()
        let result = try Command.gallery(arguments, in: folder.url)
        #expect(result.status == status, "\(result)")
        #expect(result.output.isEmpty, "\(result)")
        let lines = result.errorOutput.split(separator: "\n")
        #expect(lines.count == 1, "\(result)")
        #expect(lines.first?.hasPrefix("gallery: error: ") == true, "\(result)")
        if let names { #expect(result.errorOutput.contains(names), "\(result)") }
        #expect(try snapshot() == before)
    }

    /// Each command that locks the folder is busy (75) naming the document given (copy and
    /// duplicate once named a made-up `x` in the folder).
    @Test(arguments: [
        ["edit", "Trip.gallery", "title", "Blocked"], ["copy", "Trip.gallery", "1", "Other.gallery"], ["duplicate", "Trip.gallery"],
    ])
    func busyWhenAnotherProcessHoldsTheLock(_ arguments: [String]) throws {
        try makeDocument(images: 1)
        try #require(try gallery("create", "Other.gallery").status == 0)
        let before = try snapshot()
        // Hold the folder's flock from another process until told (killed here at the end),
        // whatever the 5 s wait takes on a loaded machine.
        let holder = Process()
        holder.executableURL = Command.which("python3")
        holder.arguments = [
            "-c",
            "import fcntl,os,sys,time; d=os.open(sys.argv[1], os.O_RDONLY); fcntl.flock(d, fcntl.LOCK_EX); print('locked', flush=True); sys.stdin.readline()",
            folder.url.path,
        ]
        let ready = Pipe()
        holder.standardOutput = ready
        holder.standardInput = Pipe()
        try holder.run()
        defer { holder.terminate() }
        _ = ready.fileHandleForReading.availableData
        let result = try Command.gallery(arguments, in: folder.url)
        #expect(result.status == 75, "\(result)")
        #expect(result.errorOutput.hasPrefix("gallery: error: \(folder.path("Trip.gallery").path): another process"), "\(result)")
        #expect(try snapshot() == before)
    }

    @Test func everyCommandHasHelpWithAnExampleAndThereIsAVersion() throws {
        for command in ["create", "open", "edit", "copy", "export", "browse", "verify"] {
            let result = try gallery(command, "--help")
            #expect(result.status == 0, "\(command)")
            #expect(result.output.contains("Example"), "\(command)")
        }
        let action = try gallery("edit", "Trip.gallery", "move", "--help")
        #expect(action.status == 0)
        #expect(action.output.contains("--to"))
        let version = try gallery("--version")
        #expect(version.status == 0)
        #expect(version.output.contains("."))
    }

    @Test func writesZipsThatOtherToolsRead() throws {
        try makeDocument(images: 2)
        #expect(try gallery("edit", "Trip.gallery", "title", "Edited").status == 0)
        let python = try #require(Command.which("python3"), "python3 is needed")
        let check = try Command.run(
            python,
            ["-c", "import zipfile,sys; z=zipfile.ZipFile(sys.argv[1]); r=z.testzip(); print(r); sys.exit(r is not None)", "Trip.gallery"],
            in: folder.url)
        #expect(check.status == 0, "\(check)")
        let bsdtar = try #require(Command.which("bsdtar"), "bsdtar (libarchive-tools) is needed")
        let listing = try Command.run(bsdtar, ["-tf", "Trip.gallery"], in: folder.url)
        #expect(listing.status == 0, "\(listing)")
        #expect(listing.output.split(separator: "\n").prefix(2) == ["mimetype", "manifest.json"])
    }

    @Test func cachesWithOrWithoutThumbnails() throws {
        let files = try folder.distinctImages(2, from: Repository.sampleImage(".jpg")).map(\.lastPathComponent)
        let made = try Command.gallery(["create", "With.gallery", "--cache"] + files, in: folder.url)
        #expect(made.status == 0, "\(made)")
        let madeWithout = try Command.gallery(["create", "Without.gallery", "--cache", "--no-thumbnails"] + files, in: folder.url)
        #expect(madeWithout.status == 0, "\(madeWithout)")
        let bsdtar = try #require(Command.which("bsdtar"))
        let with = try Command.run(bsdtar, ["-tf", "With.gallery"], in: folder.url).output
        let without = try Command.run(bsdtar, ["-tf", "Without.gallery"], in: folder.url).output
        #expect(with.contains("preview.jpg") && with.components(separatedBy: "thumbnails/").count == 3, "\(with)")
        #expect(!without.contains("preview.jpg") && !without.contains("thumbnails/"), "\(without)")

        // `edit cache` gives the images cached without thumbnails theirs, unless told not to.
        try FileManager.default.copyItem(at: folder.path("Without.gallery"), to: folder.path("Kept.gallery"))
        #expect(try gallery("edit", "Kept.gallery", "cache", "--no-thumbnails").status == 0)
        #expect(!(try Command.run(bsdtar, ["-tf", "Kept.gallery"], in: folder.url).output.contains("thumbnails/")))
        #expect(try gallery("edit", "Without.gallery", "cache").status == 0)
        let filled = try Command.run(bsdtar, ["-tf", "Without.gallery"], in: folder.url).output
        #expect(filled.contains("preview.jpg") && filled.components(separatedBy: "thumbnails/").count == 3, "\(filled)")
    }

    @Test func exportIsByteIdenticalInAnyTimeZone() throws {
        try makeDocument(images: 2)
        #expect(
            try gallery("export", "Trip.gallery", "--format", "bundle", "--output", "utc.gallery", environment: ["TZ": "UTC"]).status == 0)
        #expect(
            try gallery("export", "Trip.gallery", "--format", "bundle", "--output", "tokyo.gallery", environment: ["TZ": "Asia/Tokyo"])
                .status == 0)
        #expect(try Data(contentsOf: folder.path("utc.gallery")) == Data(contentsOf: folder.path("tokyo.gallery")))
    }

    /// Every file in the folder with its bytes' size and modification time.
    func snapshot() throws -> [String: [Int]] {
        var result: [String: [Int]] = [:]
        for name in folder.listing() {
            let attributes = try FileManager.default.attributesOfItem(atPath: folder.path(name).path)
            let modified = (attributes[.modificationDate] as? Date)?.timeIntervalSince1970 ?? 0
            result[name] = [attributes[.size] as? Int ?? 0, Int(modified * 1000)]
        }
        return result
    }
}
