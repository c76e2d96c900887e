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
}
