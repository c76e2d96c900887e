import Foundation
import GalleryTestSupport
import Testing

/// `new`, `duplicate`, `rename`, `trash`, `restore` and `recents` through the real binary, with
/// HOME and the XDG folders in a temporary folder: never the real home, Trash or recents.
@Suite struct DocumentOperationsCLITests {
    let folder = TemporaryFolder()
    let home = TemporaryFolder()

    var environment: [String: String] {
        ["HOME": home.url.path, "XDG_DATA_HOME": home.path("data").path, "XDG_STATE_HOME": home.path("state").path]
    }
    var homeTrash: URL { home.path("data/Trash") }

    func gallery(_ arguments: String..., in directory: URL? = nil, environment extra: [String: String] = [:]) throws -> CommandResult {
        try Command.gallery(arguments, in: directory ?? folder.url, environment: environment.merging(extra) { $1 })
    }

    func galleries(in directory: URL? = nil) -> [String] {
        ((try? FileManager.default.contentsOfDirectory(atPath: (directory ?? folder.url).path)) ?? []).filter { $0.hasSuffix(".gallery") }
            .sorted()
    }

    func json(_ result: CommandResult) throws -> Any {
        try #require(result.status == 0, "\(result)")
        return try JSONSerialization.jsonObject(with: Data(result.output.utf8))
    }

    func id(of document: String, in directory: URL? = nil) throws -> String {
        let opened = try #require(try json(try gallery("open", document, "--json", in: directory)) as? [String: Any])
        return try #require(opened["id"] as? String)
    }

    /// Starts `gallery` without waiting; its stdout goes to a file.
    func start(_ arguments: [String], output: URL) throws -> Process {
        _ = FileManager.default.createFile(atPath: output.path, contents: nil)
        let process = Process()
        process.executableURL = Command.gallery
        process.arguments = arguments
        process.currentDirectoryURL = folder.url
        process.environment = Command.environment.merging(environment) { $1 }
        process.standardOutput = try FileHandle(forWritingTo: output)
        process.standardError = FileHandle.nullDevice
        try process.run()
        return process
    }

    // MARK: new, duplicate, rename

    @Test func newPicksUntitledThenNumbersAndPrintsThePath() throws {
        #expect(try gallery("new").output == "Untitled.gallery\n")
        #expect(try gallery("new").output == "Untitled 2.gallery\n")
        #expect(try gallery("new", "--title", "Summer trip").output == "Summer trip.gallery\n")
        #expect(try gallery("new", "--title", "Summer trip").output == "Summer trip 2.gallery\n")
        try FileManager.default.createDirectory(at: folder.path("Sub"), withIntermediateDirectories: false)
        #expect(try gallery("new", "Sub").output == "Sub/Untitled.gallery\n")
        #expect(galleries() == ["Summer trip 2.gallery", "Summer trip.gallery", "Untitled 2.gallery", "Untitled.gallery"])
        let opened = try #require(try json(try gallery("open", "Untitled 2.gallery", "--json")) as? [String: Any])
        #expect(opened["title"] as? String == "Untitled 2")
        #expect((opened["images"] as? [Any])?.isEmpty == true)
        #expect(try id(of: "Summer trip 2.gallery") != id(of: "Summer trip.gallery"))
    }

    @Test(arguments: ["missing", "notes.txt"])
    func newFailsWith73WhenTheFolderCannotBeWritten(_ target: String) throws {
        try Data().write(to: folder.path("notes.txt"))
        let result = try gallery("new", target)
        #expect(result.status == 73, "\(result)")
        #expect(result.errorOutput.hasPrefix("gallery: error: ") && result.errorOutput.filter { $0 == "\n" }.count == 1, "\(result)")
        #expect(galleries().isEmpty)
    }

    @Test func newInARaceNeverOverwrites() throws {
        let count = 8
        let outputs = (0..<count).map { home.path("out-\($0)") }
        let processes = try outputs.map { try start(["new"], output: $0) }
        for process in processes { process.waitUntilExit() }
        #expect(processes.allSatisfy { $0.terminationStatus == 0 })
        let printed = try outputs.map { try String(contentsOf: $0, encoding: .utf8).trimmingCharacters(in: .newlines) }
        let expected = ["Untitled.gallery"] + (2...count).map { "Untitled \($0).gallery" }
        #expect(printed.sorted() == expected.sorted(), "\(printed)")
        #expect(galleries() == expected.sorted())
        #expect(folder.listing().filter { $0.hasPrefix(".") }.isEmpty, "temporary files left: \(folder.listing())")
        #expect(Set(try expected.map { try id(of: $0) }).count == count)
    }

    @Test func duplicateMakesANewDocumentWithTheSameImages() throws {
        let files = try folder.distinctImages(2, from: Repository.sampleImage(".jpg")).map(\.lastPathComponent)
        try #require(
            try Command.gallery(["create", "Trip.gallery", "--title", "Trip", "--cache"] + files, in: folder.url, environment: environment)
                .status == 0)
        #expect(try gallery("duplicate", "Trip.gallery").output == "Trip copy.gallery\n")
        #expect(try gallery("duplicate", "Trip.gallery").output == "Trip copy 2.gallery\n")
        #expect(try gallery("duplicate", "Trip copy.gallery").output == "Trip copy 3.gallery\n")

        let original = try #require(try json(try gallery("open", "Trip.gallery", "--json")) as? [String: Any])
        let copy = try #require(try json(try gallery("open", "Trip copy.gallery", "--json")) as? [String: Any])
        #expect(copy["id"] as? String != original["id"] as? String)
        #expect(copy["title"] as? String == "Trip")
        let shas = { (json: [String: Any]) in (json["images"] as? [[String: Any]])?.compactMap { $0["sha256"] as? String } }
        #expect(shas(copy) == shas(original))
        #expect(shas(copy)?.count == 2)
        #expect(try gallery("verify", "Trip copy.gallery").status == 0)
        // A new document: nothing to undo.
        #expect(try gallery("edit", "Trip copy.gallery", "undo").status == 64)

        let missing = try gallery("duplicate", "Gone.gallery")
        #expect(missing.status == 66, "\(missing)")
    }

    @Test func renameKeepsTheFolderAndTheExtensionAndNeverReplaces() throws {
        _ = try gallery("new", "--title", "Trip")
        _ = try gallery("new", "--title", "Other")
        let renamed = try gallery("rename", "Trip.gallery", "Summer")
        #expect(renamed.status == 0, "\(renamed)")
        #expect(renamed.output == "Summer.gallery\n")
        #expect(try gallery("rename", "Summer.gallery", "Été 2024.gallery").output == "Été 2024.gallery\n")
        #expect(galleries() == ["Other.gallery", "Été 2024.gallery"].sorted())

        let before = try Data(contentsOf: folder.path("Other.gallery"))
        let exists = try gallery("rename", "Été 2024.gallery", "Other")
        #expect(exists.status == 73, "\(exists)")
        #expect(exists.errorOutput.contains("Other.gallery: already exists"), "\(exists)")
        #expect(try Data(contentsOf: folder.path("Other.gallery")) == before)

        for bad in ["sub/Trip", "..", ""] {
            let refused = try gallery("rename", "Other.gallery", bad)
            #expect(refused.status == 64, "\(bad): \(refused)")
            #expect(refused.errorOutput.filter { $0 == "\n" }.count == 1, "\(refused)")
        }
        #expect(try gallery("rename", "Gone.gallery", "X").status == 66)
        #expect(galleries() == ["Other.gallery", "Été 2024.gallery"].sorted())
    }

    // MARK: trash, restore

    @Test func trashWritesTheSpecLayoutWithAPercentEncodedPathAndLocalTime() throws {
        let subfolder = folder.path("my photos")
        try FileManager.default.createDirectory(at: subfolder, withIntermediateDirectories: false)
        #expect(try gallery("new", "my photos", "--title", "Été trip").status == 0)
        // A zone 5:45 ahead of UTC: a DeletionDate in UTC (or with the wrong offset) is far off.
        let zone = "Asia/Kathmandu"
        let result = try gallery("trash", "my photos/Été trip.gallery", environment: ["TZ": zone])
        #expect(result.status == 0, "\(result)")
        #expect(result.output == "my photos/Été trip.gallery: moved to the Trash\n")
        #expect(galleries(in: subfolder).isEmpty)
        #expect(FileManager.default.fileExists(atPath: homeTrash.appendingPathComponent("files/Été trip.gallery").path))

        let info = try String(contentsOf: homeTrash.appendingPathComponent("info/Été trip.gallery.trashinfo"), encoding: .utf8)
        let lines = info.split(separator: "\n").map(String.init)
        #expect(lines.count == 3, "\(info)")
        #expect(lines.first == "[Trash Info]")
        let realFolder = URL(fileURLWithPath: subfolder.path).resolvingSymlinksInPath().path
        let kept = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~/")
        #expect(lines.dropFirst().first == "Path=" + (realFolder + "/Été trip.gallery").addingPercentEncoding(withAllowedCharacters: kept)!)
        #expect(info.contains("/my%20photos/%C3%89t%C3%A9%20trip.gallery\n"), "\(info)")

        let stamp = try #require(lines.last.flatMap { $0.hasPrefix("DeletionDate=") ? String($0.dropFirst(13)) : nil }, "\(info)")
        #expect(stamp.range(of: #"^\d{4}-\d\d-\d\dT\d\d:\d\d:\d\d$"#, options: .regularExpression) != nil, "\(stamp)")
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ss"
        formatter.timeZone = TimeZone(identifier: zone)
        let date = try #require(formatter.date(from: stamp))
        #expect(abs(date.timeIntervalSinceNow) < 5, "\(stamp) is not now in \(zone)")
    }

    @Test func trashListsAndRestoresByNameOrPath() throws {
        for name in ["a", "b"] {
            try FileManager.default.createDirectory(at: folder.path(name), withIntermediateDirectories: false)
            #expect(try gallery("new", name, "--title", "Trip").status == 0)
        }
        #expect(try gallery("trash", "a/Trip.gallery").output == "a/Trip.gallery: moved to the Trash\n")
        #expect(try gallery("trash", "b/Trip.gallery").output == "b/Trip.gallery: moved to the Trash as Trip.2.gallery\n")

        let listed = try #require(try json(try gallery("trash", "--list", "--json")) as? [[String: Any]])
        // Only this test's Trash (other tests may have a volume's trash mounted meanwhile).
        let mine = listed.filter { ($0["trash"] as? String)?.hasPrefix(home.url.path) == true }
        #expect(Set(mine.compactMap { $0["name"] as? String }) == ["Trip.gallery", "Trip.2.gallery"])
        #expect(
            Set(
                mine.compactMap {
                    ($0["originalPath"] as? String).map { URL(fileURLWithPath: $0).deletingLastPathComponent().lastPathComponent }
                }) == ["a", "b"])
        #expect(mine.allSatisfy { $0["deletionDate"] is String && $0["path"] is String })
        let table = try gallery("trash", "--list")
        #expect(table.output.hasPrefix("NAME"), "\(table)")
        #expect(table.output.contains("Trip.2.gallery"), "\(table)")

        let byName = try gallery("restore", "Trip.2.gallery")
        #expect(byName.status == 0, "\(byName)")
        #expect(byName.output == "b/Trip.gallery\n")
        let byPath = try gallery("restore", "a/Trip.gallery")
        #expect(byPath.output == "a/Trip.gallery\n", "\(byPath)")
        #expect(galleries(in: folder.path("a")) == ["Trip.gallery"] && galleries(in: folder.path("b")) == ["Trip.gallery"])
        #expect(try FileManager.default.contentsOfDirectory(atPath: homeTrash.appendingPathComponent("info").path).isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: homeTrash.appendingPathComponent("files").path).isEmpty)

        let unknown = try gallery("restore", "Trip.gallery")
        #expect(unknown.status == 66, "\(unknown)")
        #expect(unknown.errorOutput == "gallery: error: Trip.gallery: not in the Trash\n")
    }

    @Test func restoreNeverOverwrites() throws {
        _ = try gallery("new", "--title", "Trip")
        _ = try gallery("trash", "Trip.gallery")
        _ = try gallery("new", "--title", "Trip")
        let before = try Data(contentsOf: folder.path("Trip.gallery"))
        let refused = try gallery("restore", "Trip.gallery")
        #expect(refused.status == 73, "\(refused)")
        #expect(refused.errorOutput.contains("nothing was restored"), "\(refused)")
        #expect(try Data(contentsOf: folder.path("Trip.gallery")) == before)
        #expect(FileManager.default.fileExists(atPath: homeTrash.appendingPathComponent("files/Trip.gallery").path))
        #expect(FileManager.default.fileExists(atPath: homeTrash.appendingPathComponent("info/Trip.gallery.trashinfo").path))
    }

    @Test func trashMovesEachDocumentAndReportsEachFailure() throws {
        _ = try gallery("new", "--title", "A")
        _ = try gallery("new", "--title", "B")
        try Data().write(to: folder.path("notes.txt"))
        let result = try gallery("trash", "A.gallery", "Gone.gallery", "notes.txt", "B.gallery", "--json")
        #expect(result.status == 66, "\(result)")
        let lines = result.errorOutput.split(separator: "\n")
        #expect(lines.count == 2 && lines.allSatisfy { $0.hasPrefix("gallery: error: ") }, "\(result)")
        let moved = try #require(try JSONSerialization.jsonObject(with: Data(result.output.utf8)) as? [[String: Any]])
        #expect(moved.compactMap { $0["name"] as? String } == ["A.gallery", "B.gallery"])
        #expect(galleries().isEmpty)
        #expect(FileManager.default.fileExists(atPath: folder.path("notes.txt").path))
        #expect(try gallery("trash").status == 64)
        #expect(try gallery("trash", "A.gallery", "--list").status == 64)
    }

    /// The per-volume trash on a real second file system: a tmpfs mounted for the test. Where
    /// mounting is not allowed (not root, a container without CAP_SYS_ADMIN) this says so on
    /// stderr; `TrashTests` checks the same logic with a simulated device either way.
    @Test func aDocumentOnAnotherFileSystemGoesToThatVolumesTrash() throws {
        let mountPoint = folder.path("volume")
        try FileManager.default.createDirectory(at: mountPoint, withIntermediateDirectories: false)
        guard let mount = Command.which("mount"),
            try Command.run(mount, ["-t", "tmpfs", "-o", "size=16m,mode=0755", "gallerykit-test", mountPoint.path], in: folder.url).status
                == 0
        else {
            FileHandle.standardError.write(
                Data("note: cannot mount a tmpfs here; the per-volume trash is checked only with a simulated device (TrashTests)\n".utf8))
            return
        }
        defer { _ = try? Command.run(Command.which("umount") ?? URL(fileURLWithPath: "/bin/umount"), [mountPoint.path], in: folder.url) }
        #expect(try gallery("new", "volume", "--title", "Trip").status == 0)
        let trashed = try gallery("trash", "volume/Trip.gallery")
        #expect(trashed.status == 0, "\(trashed)")
        #expect(trashed.output == "volume/Trip.gallery: moved to the Trash of \(mountPoint.path)\n", "\(trashed)")
        let volumeTrash = mountPoint.appendingPathComponent(".Trash-\(getuid())")
        #expect(FileManager.default.fileExists(atPath: volumeTrash.appendingPathComponent("files/Trip.gallery").path))
        #expect(!FileManager.default.fileExists(atPath: homeTrash.appendingPathComponent("files/Trip.gallery").path))
        let info = try String(contentsOf: volumeTrash.appendingPathComponent("info/Trip.gallery.trashinfo"), encoding: .utf8)
        #expect(info.contains("\nPath=Trip.gallery\n"), "relative to the volume's top: \(info)")
        let mode = try #require(try FileManager.default.attributesOfItem(atPath: volumeTrash.path)[.posixPermissions] as? Int)
        #expect(mode == 0o700)

        let listed = try #require(try json(try gallery("trash", "--list", "--json")) as? [[String: Any]])
        #expect(listed.contains { $0["originalPath"] as? String == mountPoint.appendingPathComponent("Trip.gallery").path }, "\(listed)")
        let restored = try gallery("restore", "volume/Trip.gallery")
        #expect(restored.output == "volume/Trip.gallery\n", "\(restored)")
        #expect(galleries(in: mountPoint) == ["Trip.gallery"])
    }

    // MARK: recents

    @Test func recentsListWhatCommandsDidNewestFirst() throws {
        _ = try gallery("new")
        _ = try gallery("new", "--title", "Trip")
        _ = try gallery("open", "Untitled.gallery")
        _ = try gallery("edit", "Trip.gallery", "title", "Summer")
        _ = try gallery("duplicate", "Trip.gallery")
        _ = try gallery("rename", "Trip copy.gallery", "Best")
        let path = { (name: String) in
            URL(fileURLWithPath: self.folder.url.path).resolvingSymlinksInPath().appendingPathComponent(name).path
        }

        let listed = try #require(try json(try gallery("recents", "--json")) as? [[String: Any]])
        #expect(listed.compactMap { $0["path"] as? String } == [path("Best.gallery"), path("Trip.gallery"), path("Untitled.gallery")])
        #expect(listed.compactMap { $0["event"] as? String } == ["renamed", "edited", "opened"])
        #expect(listed.allSatisfy { $0["date"] is String })
        let table = try gallery("recents")
        #expect(table.output.hasPrefix("DATE"), "\(table)")
        #expect(table.output.contains("renamed") && table.output.contains("Best.gallery"), "\(table)")

        // A trashed document is left out; restored, it is back on top.
        _ = try gallery("trash", "Trip.gallery")
        #expect((try json(try gallery("recents", "--json")) as? [[String: Any]])?.count == 2)
        _ = try gallery("restore", "Trip.gallery")
        let after = try #require(try json(try gallery("recents", "--json")) as? [[String: Any]])
        #expect(after.first?["event"] as? String == "restored")
    }

    @Test func recentsStayValidJSONUnderConcurrentWriters() throws {
        let count = 12
        let processes = try (0..<count).map { try start(["new", "--title", "Doc \($0)"], output: home.path("out-\($0)")) }
        let file = home.path("state/gallery/recents.json")
        while processes.contains(where: \.isRunning) {
            if let data = FileManager.default.contents(atPath: file.path) {
                let parsed = try? JSONSerialization.jsonObject(with: data) as? [String: Any]
                #expect(parsed?["documents"] is [Any], "torn or invalid recents.json: \(String(decoding: data, as: UTF8.self))")
            }
        }
        for process in processes { process.waitUntilExit() }
        #expect(processes.allSatisfy { $0.terminationStatus == 0 })
        let listed = try #require(try json(try gallery("recents", "--json")) as? [[String: Any]])
        #expect(listed.count == count, "every writer's entry is kept: \(listed)")
        #expect(
            Set(listed.compactMap { ($0["path"] as? String).map { URL(fileURLWithPath: $0).lastPathComponent } })
                == Set((0..<count).map { "Doc \($0).gallery" }))
        let stateFiles = try FileManager.default.contentsOfDirectory(atPath: home.path("state/gallery").path).sorted()
        #expect(stateFiles == ["recents.json", "recents.json.lock"], "no temporary files left: \(stateFiles)")
    }

    @Test func recentsAreBoundedTo50() throws {
        for index in 0..<52 { try Data().write(to: folder.path("D\(index).gallery")) }
        // `rename` records without reading the document: 52 cheap commands.
        for index in 0..<52 { _ = try gallery("rename", "D\(index).gallery", "E\(index)") }
        let listed = try #require(try json(try gallery("recents", "--json")) as? [[String: Any]])
        #expect(listed.count == 50)
        #expect((listed.first?["path"] as? String)?.hasSuffix("/E51.gallery") == true)
        #expect((listed.last?["path"] as? String)?.hasSuffix("/E2.gallery") == true)
    }
}
