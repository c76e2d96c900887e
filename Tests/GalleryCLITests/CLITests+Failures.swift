import Foundation
import GalleryTestSupport
import Testing

/// Bad arguments, missing and damaged files, a held lock: one line, the status, nothing changed.
extension CLITests {
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
        // The document forgotten: the first photo is never turned into a document, --force or not.
        FailureCase(["create", "image-0.jpg", "image-1.jpg"], 73, names: "image-0.jpg"),
        FailureCase(["create", "image-0.jpg", "image-1.jpg", "--force"], 73, names: "image-0.jpg"),
        FailureCase(["create", "Broken.gallery", "image-0.jpg", "--force"], 73, names: "Broken.gallery"),
        FailureCase(["create", "Photo.png", "image-0.jpg"], 64, names: "Photo.png"),
        FailureCase(["open", "Folder"], 64, names: "Folder"),
        FailureCase(["open", "Cut.gallery"], 65, names: "Cut.gallery"),
        FailureCase(["verify", "Cut.gallery"], 65, names: "Cut.gallery"),
        FailureCase(["edit", "Cut.gallery", "title", "x"], 65, names: "Cut.gallery"),
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
        try FileManager.default.createDirectory(at: folder.path("Folder"), withIntermediateDirectories: false)
        let whole = try Data(contentsOf: folder.path("Trip.gallery"))
        try whole.prefix(whole.count / 2).write(to: folder.path("Cut.gallery"))
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

    /// The damage or the mistake called by its name: a document cut short is "truncated", a
    /// folder is a folder, and a photo given first shows the command meant.
    @Test(arguments: [
        (["open", "Cut.gallery"], "Cut.gallery: is truncated: the file was cut short"),
        (["verify", "Head.gallery"], "Head.gallery: is truncated: the file was cut short"),
        (["open", "Folder"], "Folder/: is a folder, not a gallery document"),
        (
            ["create", "image-0.jpg", "image-1.jpg", "--force"],
            "image-0.jpg: is not a gallery document, so it is never replaced; the document to create comes first: gallery create NAME.gallery image-0.jpg image-1.jpg"
        ),
    ])
    func theReasonSaysWhatHappened(_ arguments: [String], _ message: String) throws {
        try makeDocument(images: 2)
        let whole = try Data(contentsOf: folder.path("Trip.gallery"))
        try whole.prefix(whole.count / 2).write(to: folder.path("Cut.gallery"))
        try whole.prefix(2048).write(to: folder.path("Head.gallery"))
        try FileManager.default.createDirectory(at: folder.path("Folder"), withIntermediateDirectories: false)
        let result = try Command.gallery(arguments, in: folder.url)
        #expect(result.errorOutput.hasPrefix("gallery: error: \(folder.path(message).path)"), "\(result)")
    }

    /// A document named without an extension is written with `.gallery` added, as the help says.
    @Test func aNameWithoutAnExtensionGetsGallery() throws {
        let files = try folder.distinctImages(1, from: Repository.sampleImage(".jpg")).map(\.lastPathComponent)
        let result = try Command.gallery(["create", "NoExt"] + files, in: folder.url)
        #expect(result.status == 0 && result.output.hasPrefix("Created NoExt.gallery with 1 image"), "\(result)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("NoExt").path))
        #expect(try images("NoExt.gallery").count == 1)
        let help = try gallery("create", "--help").output.split(whereSeparator: \.isWhitespace).joined(separator: " ")
        #expect(help.contains("\"gallery create Trip photos/*.jpg\" writes Trip.gallery"))
    }

    /// A folder with things that are not images in it: each is named with a plain reason, and
    /// --skip-failed leaves them out, as it does failed web images (it covered only those).
    @Test func filesThatAreNotImagesAreNamedPlainlyAndCanBeSkipped() throws {
        let photo = try folder.distinctImages(1, from: Repository.sampleImage(".jpg"))[0].lastPathComponent
        try Data(#"<?xml version="1.0"?><svg xmlns="http://www.w3.org/2000/svg" width="10" height="10"/>"#.utf8)
            .write(to: folder.path("drawing.svg"))
        try Data("<!DOCTYPE html><html><body>404</body></html>".utf8).write(to: folder.path("page.jpg"))
        try Data("shopping list".utf8).write(to: folder.path("notes.jpg"))
        let stopped = try Command.gallery(["create", "Mixed.gallery", photo, "notes.jpg"], in: folder.url)
        #expect(stopped.status == 65)
        #expect(
            stopped.errorOutput
                == "gallery: error: \(folder.path("notes.jpg").path): is not an image this program can read (JPEG, PNG, WebP, GIF, TIFF and HEIF only) (--skip-failed leaves out what is not an image)\n"
        )
        #expect(!FileManager.default.fileExists(atPath: folder.path("Mixed.gallery").path))

        let skipped = try Command.gallery(
            ["create", "Mixed.gallery", photo, "drawing.svg", "page.jpg", "notes.jpg", "--skip-failed"], in: folder.url)
        #expect(skipped.status == 2, "\(skipped)")
        #expect(skipped.output.hasPrefix("Created Mixed.gallery with 1 image"), "\(skipped)")
        let lines = skipped.errorOutput.split(separator: "\n").map(String.init)
        #expect(
            lines == [
                "gallery: skipped: \(folder.path("drawing.svg").path): is an SVG image, which this program does not read (JPEG, PNG, WebP, GIF, TIFF and HEIF only)",
                "gallery: skipped: \(folder.path("page.jpg").path): is a web page, not an image",
                "gallery: skipped: \(folder.path("notes.jpg").path): is not an image this program can read (JPEG, PNG, WebP, GIF, TIFF and HEIF only)",
            ], "\(skipped)")
        #expect(try images("Mixed.gallery").count == 1)
    }

    /// A folder stands for the images in it, in a file manager's name order; its other files
    /// are left out, named in one line, and the command succeeds; hidden files and subfolders
    /// are not read. `edit … add` takes a folder too.
    @Test func aFolderGivesItsImagesInNameOrderAndLeavesOutTheRest() throws {
        let photos = folder.path("photos")
        try FileManager.default.createDirectory(at: photos.appendingPathComponent("nested"), withIntermediateDirectories: true)
        let samples = try folder.distinctImages(3, from: Repository.sampleImage(".jpg"))
        for (sample, name) in zip(samples, ["10.jpg", "2.jpg", "b.jpg"]) {
            try FileManager.default.moveItem(at: sample, to: photos.appendingPathComponent(name))
        }
        try Data("<svg xmlns=\"http://www.w3.org/2000/svg\"/>".utf8).write(to: photos.appendingPathComponent("logo.svg"))
        try Data("buy milk".utf8).write(to: photos.appendingPathComponent("notes.txt"))
        try Data("junk".utf8).write(to: photos.appendingPathComponent(".hidden.jpg"))
        try FileManager.default.copyItem(at: Repository.sampleImage(".png"), to: photos.appendingPathComponent("nested/deep.png"))

        let created = try Command.gallery(["create", "Holiday.gallery", "photos"], in: folder.url)
        #expect(created.status == 0, "\(created)")
        #expect(created.output == "Created Holiday.gallery with 3 images (0 cached).\n")
        #expect(created.errorOutput == "gallery: left out of photos/: logo.svg, notes.txt (not images)\n")
        let names = try images("Holiday.gallery").map { ($0["url"] as? String).map { URL(string: $0)!.lastPathComponent } }
        #expect(names == ["2.jpg", "10.jpg", "b.jpg"])

        let added = try Command.gallery(["edit", "Holiday.gallery", "add", "photos/nested", "--at", "1"], in: folder.url)
        #expect(added.status == 0, "\(added)")
        #expect(try images("Holiday.gallery").first.flatMap { $0["url"] as? String }?.hasSuffix("/nested/deep.png") == true)
    }

    /// `remove --failed` clears the error tiles without their numbers; undo brings them back.
    @Test func removeFailedTakesTheErrorTilesAway() throws {
        let photo = Repository.sampleImage("01-dawn").path
        let created = try Command.gallery(["create", "Web.gallery", photo, "http://127.0.0.1:9/gone.jpg", photo], in: folder.url)
        #expect(created.status == 2, "\(created)")
        let removed = try Command.gallery(["edit", "Web.gallery", "remove", "--failed"], in: folder.url)
        #expect(removed.output == "Web.gallery: removed 1 failed image (now 2)\n", "\(removed)")
        #expect(try images("Web.gallery").allSatisfy { $0["status"] as? String == "ok" })
        let none = try Command.gallery(["edit", "Web.gallery", "remove", "--failed"], in: folder.url)
        #expect(none.output.hasSuffix("no failed images to remove (2 images)\n"), "\(none)")
        let both = try Command.gallery(["edit", "Web.gallery", "remove", "1", "--failed"], in: folder.url)
        #expect(both.status == 64 && both.errorOutput.contains("give the images to remove, or --failed"), "\(both)")
    }

    /// The plain reason is for people; `--verbose` adds what the library underneath said, on a
    /// line of its own, for an error and for each image left out, and `verify --json` carries it.
    @Test func verboseAddsTheLibrarysOwnWords() throws {
        let photo = try folder.distinctImages(1, from: Repository.sampleImage(".jpg"))[0].lastPathComponent
        try Data("shopping list".utf8).write(to: folder.path("notes.jpg"))
        let plain = "gallery: error: \(folder.path("notes.jpg").path): is not an image this program can read"
        let stopped = try Command.gallery(["create", "Mixed.gallery", photo, "notes.jpg", "--verbose"], in: folder.url)
        #expect(stopped.status == 65)
        let lines = stopped.errorOutput.split(separator: "\n").map(String.init)
        #expect(lines.count == 2 && lines[0].hasPrefix(plain), "\(stopped)")
        #expect(lines.last?.hasPrefix("gallery: detail: ") == true && lines.last!.count > 20, "\(stopped)")
        #expect(!FileManager.default.fileExists(atPath: folder.path("Mixed.gallery").path))

        let skipped = try Command.gallery(["create", "Mixed.gallery", photo, "notes.jpg", "--skip-failed", "--verbose"], in: folder.url)
        #expect(skipped.status == 2)
        let skipLines = skipped.errorOutput.split(separator: "\n").map(String.init)
        #expect(skipLines.count == 2 && skipLines[0].hasPrefix("gallery: skipped: "), "\(skipped)")
        #expect(skipLines.last == lines.last, "\(skipped)")

        try Data("garbage".utf8).write(to: folder.path("Junk.gallery"))
        let opened = try Command.gallery(["open", "Junk.gallery", "--verbose"], in: folder.url)
        #expect(opened.status == 65)
        #expect(
            opened.errorOutput
                == "gallery: error: \(folder.path("Junk.gallery").path): not a gallery document (not a zip archive)\ngallery: detail: Unrecognized archive format\n"
        )
        let verified = try Command.gallery(["verify", "Junk.gallery", "--json"], in: folder.url)
        #expect(verified.status == 65)
        #expect(verified.output.contains(#""detail" : "Unrecognized archive format""#), "\(verified)")
        #expect(try Command.gallery(["open", "Junk.gallery"], in: folder.url).errorOutput.split(separator: "\n").count == 1)
    }

    /// A position below 1 is one error everywhere, naming the document it is a position in
    /// (`copy` was refused by the argument parser, naming neither document).
    @Test(arguments: [
        (["copy", "Trip.gallery", "1", "Other.gallery", "--at", "0"], "Other.gallery: --at 0: positions start at 1, the first image"),
        (["edit", "Trip.gallery", "add", "image-0.jpg", "--at", "0"], "Trip.gallery: --at 0: positions start at 1, the first image"),
        (["edit", "Trip.gallery", "move", "1", "--to", "0"], "Trip.gallery: --to 0: positions start at 1, the first image"),
    ])
    func aPositionBelowOneNamesItsDocument(_ arguments: [String], _ message: String) throws {
        try makeDocument(images: 2)
        try #require(try gallery("create", "Other.gallery").status == 0)
        let before = try snapshot()
        let result = try Command.gallery(arguments, in: folder.url)
        #expect(result.status == 64)
        #expect(result.errorOutput == "gallery: error: \(folder.path(message).path)\n", "\(result)")
        #expect(try snapshot() == before)
    }
}
