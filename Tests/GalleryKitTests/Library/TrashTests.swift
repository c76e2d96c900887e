import Foundation
import GalleryTestSupport
import Testing
@testable import GalleryKit

/// The freedesktop.org Trash: layout and `.trashinfo` content per the specification 1.0, unique
/// names, listing that tolerates damage, restoring without replacing, and the per-volume trash —
/// here on a second file system acted out by a device function (the CLI tests also use a real
/// tmpfs when the machine lets them mount one).
@Suite struct TrashTests {
    let folder = TemporaryFolder()

    var home: URL { folder.path("home") }
    var data: URL { folder.path("home/data") }
    var homeTrash: URL { data.appendingPathComponent("Trash") }
    /// A folder the device function says is another file system.
    var volume: URL { folder.path("volume") }

    /// The Trash, with `volume` on a device of its own.
    func trash() -> Trash {
        let volumePath = FileLocation.bytes(of: FileLocation.target(of: volume))
        return Trash(
            directories: BaseDirectories(environment: ["HOME": home.path, "XDG_DATA_HOME": data.path]), userID: getuid(),
            device: { path in
                guard let real = Trash.device(of: path) else { return nil }
                let isOnVolume =
                    path.starts(with: volumePath) && (path.count == volumePath.count || path[volumePath.count] == UInt8(ascii: "/"))
                return isOnVolume ? 999_999 : real
            },
            mountPoints: { [volumePath] }
        )
    }

    func makeDocument(_ name: String, in subfolder: String) throws -> URL {
        let location = folder.path(subfolder)
        try FileManager.default.createDirectory(at: location, withIntermediateDirectories: true)
        return try GalleryDocument.createDocument(in: location, title: name).url
    }

    func lines(_ url: URL) throws -> [String] {
        try String(contentsOf: url, encoding: .utf8).split(separator: "\n").map(String.init)
    }

    /// RFC 2396 escaping with only unreserved ASCII and `/` kept, computed independently.
    func percentEncoded(_ path: String) -> String {
        let kept = CharacterSet(charactersIn: "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789-._~/")
        return path.addingPercentEncoding(withAllowedCharacters: kept)!
    }

    @Test func aDocumentGoesToTheHomeTrashWithItsTrashInfo() throws {
        let document = try makeDocument("Été trip", in: "my photos")
        let trashed = try trash().moveToTrash(document)
        #expect(trashed.name == "Été trip.gallery")
        #expect(trashed.trashURL.path == homeTrash.path)
        #expect(trashed.volume == nil)
        #expect(FileLocation.status(of: document) == nil)
        #expect(FileManager.default.fileExists(atPath: homeTrash.appendingPathComponent("files/Été trip.gallery").path))
        #expect(try GalleryDocument(contentsOf: trashed.url).gallery.title == "Été trip")

        let info = try lines(homeTrash.appendingPathComponent("info/Été trip.gallery.trashinfo"))
        let absolute = FileLocation.target(of: folder.path("my photos")).path + "/Été trip.gallery"
        #expect(info.count == 3)
        #expect(info.first == "[Trash Info]")
        #expect(info.dropFirst().first == "Path=" + percentEncoded(absolute))
        #expect(info.dropFirst().first?.contains("my%20photos/%C3%89t%C3%A9%20trip.gallery") == true)
        let formatter = DateFormatter()
        formatter.locale = Locale(identifier: "en_US_POSIX")
        formatter.timeZone = .current
        formatter.dateFormat = "yyyy-MM-dd'T'HH:mm:ss"
        let date = try #require(info.last.flatMap { $0.hasPrefix("DeletionDate=") ? formatter.date(from: String($0.dropFirst(13))) : nil })
        #expect(abs(date.timeIntervalSinceNow) < 5)

        // Spec: the trash folders are the user's alone.
        for path in ["", "/files", "/info"] {
            let status = try #require(FileLocation.status(of: URL(fileURLWithPath: homeTrash.path + path)))
            #expect(status.st_mode & 0o777 == 0o700, "\(path)")
        }
    }

    @Test func sameNamesTakeNumbersAndComeBackWhereTheyWere() throws {
        let first = try makeDocument("Trip", in: "a")
        let second = try makeDocument("Trip", in: "b")
        let trash = trash()
        #expect(try trash.moveToTrash(first).name == "Trip.gallery")
        #expect(try trash.moveToTrash(second).name == "Trip.2.gallery")
        let listed = trash.documents()
        #expect(Set(listed.map(\.name)) == ["Trip.gallery", "Trip.2.gallery"])
        #expect(
            listed.first { $0.name == "Trip.2.gallery" }?.originalURL.map(FileLocation.bytes(of:))
                == FileLocation.bytes(of: FileLocation.target(of: second)))

        let restored = try trash.restore(try trash.document(named: "Trip.2.gallery", orTrashedFrom: folder.path("x")))
        #expect(FileLocation.bytes(of: restored) == FileLocation.bytes(of: FileLocation.target(of: second)))
        // By the path it was trashed from.
        _ = try trash.restore(try trash.document(named: "a/Trip.gallery", orTrashedFrom: first))
        #expect(FileManager.default.fileExists(atPath: first.path) && FileManager.default.fileExists(atPath: second.path))
        #expect(trash.documents().isEmpty)
        #expect(try FileManager.default.contentsOfDirectory(atPath: homeTrash.appendingPathComponent("info").path).isEmpty)
        #expect(galleryErrorCode { try trash.document(named: "Trip.gallery", orTrashedFrom: first) } == .fileNotFound)
    }

    @Test func aFileWithoutItsInfoKeepsItsNameAndIsListedWithoutALocation() throws {
        let trash = trash()
        try trash.home.prepare()
        try Data("orphan".utf8).write(to: homeTrash.appendingPathComponent("files/Trip.gallery"))
        try Data("[Trash Info]\nPath=../../etc/x.gallery\n".utf8).write(
            to: homeTrash.appendingPathComponent("info/Escape.gallery.trashinfo"))
        try Data("x".utf8).write(to: homeTrash.appendingPathComponent("files/Escape.gallery"))
        try Data("garbage".utf8).write(to: homeTrash.appendingPathComponent("info/Broken.gallery.trashinfo"))
        try Data("x".utf8).write(to: homeTrash.appendingPathComponent("files/Broken.gallery"))
        try Data("x".utf8).write(to: homeTrash.appendingPathComponent("files/notes.txt"))
        try Data("[Trash Info]\nPath=/gone.gallery\n".utf8).write(to: homeTrash.appendingPathComponent("info/Stale.gallery.trashinfo"))

        let document = try makeDocument("Trip", in: "a")
        #expect(try trash.moveToTrash(document).name == "Trip.2.gallery")
        let listed = trash.documents()
        #expect(listed.map(\.name) == ["Trip.2.gallery", "Broken.gallery", "Escape.gallery", "Trip.gallery"])
        #expect(listed.dropFirst().allSatisfy { $0.originalURL == nil && $0.deletionDate == nil })
        #expect(galleryErrorCode { try trash.restore(listed[1]) } == .damagedDocument)
    }

    @Test func restoringNeverReplacesAFileNorRecreatesAFolder() throws {
        let trash = trash()
        let document = try makeDocument("Trip", in: "a")
        let trashed = try trash.moveToTrash(document)
        let newer = try GalleryDocument.createDocument(in: folder.path("a"), title: "Trip").url
        let before = try Data(contentsOf: newer)
        #expect(galleryErrorCode { try trash.restore(trashed) } == .alreadyExists)
        #expect(try Data(contentsOf: newer) == before)
        #expect(trash.documents().map(\.name) == ["Trip.gallery"])

        try FileManager.default.removeItem(at: folder.path("a"))
        #expect(galleryErrorCode { try trash.restore(trashed) } == .cannotCreate)
        #expect(trash.documents().map(\.name) == ["Trip.gallery"])
        #expect(FileLocation.status(of: folder.path("a")) == nil)
    }

    @Test func onlyGalleriesGoToTheTrash() throws {
        try Data().write(to: folder.path("notes.txt"))
        try FileManager.default.createDirectory(at: folder.path("Folder.gallery"), withIntermediateDirectories: false)
        let trash = trash()
        for (url, code) in [
            (folder.path("notes.txt"), GalleryError.Code.invalidArgument), (folder.path("Folder.gallery"), .invalidArgument),
            (folder.path("Gone.gallery"), .fileNotFound),
        ] {
            #expect(galleryErrorCode { try trash.moveToTrash(url) } == code, "\(url.lastPathComponent)")
        }
        #expect(FileManager.default.fileExists(atPath: folder.path("notes.txt").path))
    }

    @Test func anotherFileSystemUsesItsOwnTrashWithRelativePaths() throws {
        let document = try makeDocument("Trip", in: "volume/sub")
        let trash = trash()
        let trashed = try trash.moveToTrash(document)
        let volumeTrash = volume.appendingPathComponent(".Trash-\(getuid())")
        #expect(trashed.trashURL.path == volumeTrash.path)
        #expect(trashed.volume.map(FileLocation.bytes(of:)) == FileLocation.bytes(of: FileLocation.target(of: volume)))
        #expect(FileManager.default.fileExists(atPath: volumeTrash.appendingPathComponent("files/Trip.gallery").path))
        #expect(try lines(volumeTrash.appendingPathComponent("info/Trip.gallery.trashinfo")).dropFirst().first == "Path=sub/Trip.gallery")
        #expect(try #require(FileLocation.status(of: volumeTrash)).st_mode & 0o777 == 0o700)
        #expect(FileLocation.status(of: homeTrash.appendingPathComponent("files/Trip.gallery")) == nil)

        let listed = try #require(trash.documents().first)
        #expect(listed.originalURL.map(FileLocation.bytes(of:)) == FileLocation.bytes(of: FileLocation.target(of: document)))
        #expect(FileLocation.bytes(of: try trash.restore(listed)) == FileLocation.bytes(of: FileLocation.target(of: document)))
        #expect(FileManager.default.fileExists(atPath: document.path))
    }

    @Test func aValidSharedTrashIsUsedAndAnInvalidOneIsNot() throws {
        let shared = volume.appendingPathComponent(".Trash")
        try FileManager.default.createDirectory(at: shared, withIntermediateDirectories: true)
        let trash = trash()
        // Without the sticky bit the administrator's .Trash must not be used.
        chmod(shared.path, 0o777)
        #expect(try trash.moveToTrash(try makeDocument("A", in: "volume")).trashURL.lastPathComponent == ".Trash-\(getuid())")
        chmod(shared.path, 0o1777)
        let trashed = try trash.moveToTrash(try makeDocument("B", in: "volume"))
        #expect(trashed.trashURL.path == shared.appendingPathComponent("\(getuid())").path)
        #expect(try lines(shared.appendingPathComponent("\(getuid())/info/B.gallery.trashinfo")).dropFirst().first == "Path=B.gallery")
        #expect(Set(trash.documents().map(\.name)) == ["A.gallery", "B.gallery"])
        // A link is never trusted as the shared trash.
        try FileManager.default.removeItem(at: shared)
        try FileManager.default.createDirectory(at: folder.path("elsewhere"), withIntermediateDirectories: false)
        chmod(folder.path("elsewhere").path, 0o1777)
        try FileManager.default.createSymbolicLink(at: shared, withDestinationURL: folder.path("elsewhere"))
        #expect(try trash.moveToTrash(try makeDocument("C", in: "volume")).trashURL.lastPathComponent == ".Trash-\(getuid())")
    }

    @Test func theTopDirectoryIsTheHighestFolderOnTheSameDevice() {
        let usb = Array("/media/usb".utf8)
        let trash = Trash(
            directories: BaseDirectories(environment: ["HOME": "/home/ana"]), userID: 1000,
            device: { path in path.starts(with: usb) ? 2 : 1 }, mountPoints: { [] }
        )
        #expect(trash.topDirectory(of: Array("/media/usb/photos/2024/Trip.gallery".utf8), device: 2).path == "/media/usb")
        #expect(trash.topDirectory(of: Array("/media/usb/Trip.gallery".utf8), device: 2).path == "/media/usb")
        #expect(trash.topDirectory(of: Array("/srv/Trip.gallery".utf8), device: 1).path == "/")
    }

    @Test func trashInfoTextRoundTrips() throws {
        #expect(TrashInfo.percentEncoded(Array("/tmp/a b/Été%#?.gallery".utf8)) == "/tmp/a%20b/%C3%89t%C3%A9%25%23%3F.gallery")
        #expect(TrashInfo.percentEncoded([0x2F, 0xFF]) == "/%FF")
        let date = Date(timeIntervalSince1970: 1_795_000_000)
        #expect(TrashInfo.date(fromLocalTimestamp: TrashInfo.localTimestamp(date)) == date)
        let info = TrashInfo(path: Array("/tmp/a b/Été.gallery".utf8), deletionDate: date)
        #expect(TrashInfo(parsing: Array(info.text.utf8)) == info)
        let other =
            "# comment\n[Other]\nPath=/wrong\n[Trash Info]\nX-Key=1\nDeletionDate=2026-11-23T10:52:46.5+01:00\nPath=rel/a%20b.gallery\n"
        let parsed = try #require(TrashInfo(parsing: Array(other.utf8)))
        #expect(parsed.path == Array("rel/a b.gallery".utf8))
        #expect(parsed.deletionDate != nil)
        #expect(TrashInfo(parsing: Array("[Trash Info]\nDeletionDate=2026-11-23T10:52:46\n".utf8)) == nil)
        #expect(TrashInfo.date(fromLocalTimestamp: "2026-13-01T00:00:00") == nil)
    }

    @Test func mountPointsAreReadFromTheMountTable() {
        let table =
            "sysfs /sys sysfs rw 0 0\n/dev/sda1 / ext4 rw 0 0\n/dev/sdb1 /media/USB\\040stick vfat rw 0 0\nproc /proc proc rw 0 0\n/dev/sda1 / ext4 rw 0 0\n"
        #expect(MountTable.mountPoints(in: Array(table.utf8)).map { String(decoding: $0, as: UTF8.self) } == ["/", "/media/USB stick"])
    }
}
