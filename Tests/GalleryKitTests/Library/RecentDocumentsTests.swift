import Foundation
import GalleryTestSupport
import Testing
@testable import GalleryKit

/// Recents: newest first, one entry per document, bounded, missing files left out, a damaged
/// file read as empty. (Concurrent writers from several processes: `DocumentOperationsCLITests`.)
@Suite struct RecentDocumentsTests {
    let folder = TemporaryFolder()

    func recents(capacity: Int = RecentDocuments.defaultCapacity) -> RecentDocuments {
        RecentDocuments(
            directories: BaseDirectories(environment: ["HOME": folder.path("home").path, "XDG_STATE_HOME": folder.path("state").path]),
            capacity: capacity)
    }

    func documents(_ count: Int) throws -> [URL] {
        try (0..<count).map { index in
            let url = folder.path("D\(index).gallery")
            try Data().write(to: url)
            return url
        }
    }

    @Test func theListIsNewestFirstWithOneEntryPerDocument() throws {
        let recents = recents()
        let files = try documents(3)
        let start = Date(timeIntervalSince1970: 1_795_000_000)
        #expect(recents.record(files[0], .created, date: start))
        #expect(recents.record(files[1], .opened, date: start + 1))
        #expect(recents.record(files[2], .edited, date: start + 2))
        // The same document by another spelling of its path.
        #expect(recents.record(URL(fileURLWithPath: folder.url.path + "/./D0.gallery"), .exported, date: start + 3))
        let listed = recents.documents()
        #expect(listed.map(\.url.lastPathComponent) == ["D0.gallery", "D2.gallery", "D1.gallery"])
        #expect(listed.map(\.event) == [.exported, .edited, .opened])
        #expect(listed.first?.date == start + 3)
        #expect(recents.file.path == folder.path("state/gallery/recents.json").path)
        let json = try JSONSerialization.jsonObject(with: Data(contentsOf: recents.file)) as? [String: Any]
        let first = try #require((json?["documents"] as? [[String: Any]])?.first)
        #expect(first["path"] as? String == FileLocation.target(of: files[0]).path)
        #expect(first["event"] as? String == "exported")
    }

    /// Recording what the list already says first (a document opened twice within a second)
    /// writes nothing; anything else replaces the file.
    @Test func recordingTheSameEntryAgainWritesNothing() throws {
        let recents = recents()
        let files = try documents(2)
        let start = Date(timeIntervalSince1970: 1_795_000_000)
        #expect(recents.record(files[0], .opened, date: start))
        func inode() throws -> Int? { try FileManager.default.attributesOfItem(atPath: recents.file.path)[.systemFileNumber] as? Int }
        let first = try inode()
        #expect(recents.record(files[0], .opened, date: start + 0.5))
        #expect(try inode() == first)
        #expect(recents.record(files[0], .opened, date: start + 1))
        #expect(try inode() != first)
        #expect(recents.documents().first?.date == start + 1)
    }

    @Test func theListIsBounded() throws {
        let recents = recents(capacity: 3)
        let files = try documents(5)
        for file in files { recents.record(file, .opened) }
        #expect(recents.documents().map(\.url.lastPathComponent) == ["D4.gallery", "D3.gallery", "D2.gallery"])
        #expect(recents.stored().count == 3)
    }

    @Test func missingDocumentsAreLeftOut() throws {
        let recents = recents()
        let files = try documents(3)
        for file in files { recents.record(file, .opened) }
        try FileManager.default.removeItem(at: files[1])
        #expect(recents.documents().map(\.url.lastPathComponent) == ["D2.gallery", "D0.gallery"])
        // The next write forgets it.
        recents.record(files[0], .edited)
        #expect(recents.stored().map(\.url.lastPathComponent) == ["D0.gallery", "D2.gallery"])
    }

    @Test(arguments: ["", "not json", "{\"version\": 1}", "{\"version\": 1, \"documents\": [{\"path\": 3}]}", "[1, 2]"])
    func aDamagedFileCountsAsEmpty(_ text: String) throws {
        let recents = recents()
        try FileManager.default.createDirectory(at: recents.file.deletingLastPathComponent(), withIntermediateDirectories: true)
        try Data(text.utf8).write(to: recents.file)
        #expect(recents.documents().isEmpty)
        let file = try documents(1)[0]
        #expect(recents.record(file, .created))
        #expect(recents.documents().map(\.url.lastPathComponent) == ["D0.gallery"])
    }

    @Test func recordingNeverFails() throws {
        // The state folder is a file: nothing can be written, and nothing is thrown.
        try Data().write(to: folder.path("state"))
        let file = try documents(1)[0]
        #expect(!recents().record(file, .created))
        #expect(recents().documents().isEmpty)
    }
}
