import Foundation

/// The documents recently created, opened or edited, newest first:
/// `$XDG_STATE_HOME/gallery/recents.json` (default `~/.local/state/gallery/recents.json`).
///
/// ```json
/// {"version": 1, "documents": [{"path": "/home/ana/Trip.gallery", "url": "file:///home/ana/Trip.gallery",
///                               "event": "edited", "date": "2026-11-23T10:52:46Z"}]}
/// ```
/// One entry per document (a new event replaces its older one), at most `capacity`. Writers
/// take `recents.json.lock` (`flock`) for the read-modify-write, so concurrent processes each
/// add their entry, and replace the file by renaming a complete new one over it, so a reader
/// never sees a torn file. A file that cannot be read as this JSON counts as empty.
public struct RecentDocuments: Sendable {
    /// How many documents are remembered unless told otherwise.
    public static let defaultCapacity = 50

    /// The list's file.
    public let file: URL
    /// How many documents are remembered.
    public let capacity: Int

    /// The recents of the user the environment names (`XDG_STATE_HOME`, `HOME`).
    public init(directories: BaseDirectories = BaseDirectories(), capacity: Int = RecentDocuments.defaultCapacity) {
        file = BaseDirectories.gallery(in: directories.state).appendingPathComponent("recents.json")
        self.capacity = max(1, capacity)
    }

    /// Notes that `event` happened to the document at `url` now.
    ///
    /// Never fails and never waits long: recents are a convenience, so a read-only state
    /// folder, a damaged file or another process holding the lock for over a second only means
    /// this event is not recorded. Costs one small read, a few `stat`s and one small write (not
    /// fsynced: after a power cut the list may lack its last entries, but is never torn).
    /// - Returns: whether it was recorded.
    @discardableResult
    public func record(_ url: URL, _ event: RecentDocument.Event, date: Date = .now) -> Bool {
        let document = RecentDocument(url: FileLocation.target(of: url.absoluteURL), event: event, date: date.wholeSeconds)
        let folder = file.deletingLastPathComponent()
        guard (try? FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])) != nil,
              let lock = Self.lock(FileLocation.url(of: Array("recents.json.lock".utf8), in: folder), timeout: .seconds(1))
        else { return false }
        defer { close(lock) }
        AtomicFile.removeStaleTemporaryFiles(for: file)
        let key = FileLocation.bytes(of: document.url)
        var documents = [document] + stored().filter { FileLocation.bytes(of: $0.url) != key && FileLocation.status(of: $0.url) != nil }
        documents = Array(documents.prefix(capacity))
        guard let data = try? Self.encoded(documents) else { return false }
        return Self.replace(file, with: data)
    }

    /// The documents in the list that still exist, newest first.
    public func documents() -> [RecentDocument] {
        stored().filter { FileLocation.status(of: $0.url) != nil }
    }

    /// Everything the file lists, existing or not; empty when it is missing or damaged.
    func stored() -> [RecentDocument] {
        guard let bytes = FileLocation.contents(of: file, limit: 4 << 20),
              let list = try? JSONDecoder.recents.decode(StoredList.self, from: Data(bytes)) else { return [] }
        return list.documents.compactMap { entry in
            guard let event = RecentDocument.Event(rawValue: entry.event) else { return nil }
            let url = entry.url.flatMap { URL(string: $0) }.flatMap { $0.isFileURL ? $0 : nil }
                ?? entry.path.flatMap { $0.hasPrefix("/") ? URL(fileURLWithPath: $0) : nil }
            return url.map { RecentDocument(url: $0, event: event, date: entry.date) }
        }
    }

    /// The file's shape. `path` is for people and programs reading it; `url` (percent-encoded)
    /// is exact also for names that are not UTF-8, and wins when both are there.
    private struct StoredList: Codable {
        struct Entry: Codable {
            var path: String?
            var url: String?
            var event: String
            var date: Date
        }
        var version: Int
        var documents: [Entry]
    }

    private static func encoded(_ documents: [RecentDocument]) throws -> Data {
        let list = StoredList(version: 1, documents: documents.map {
            StoredList.Entry(path: $0.url.pathForDisplay, url: $0.url.absoluteString, event: $0.event.rawValue, date: $0.date)
        })
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        return try encoder.encode(list) + Data("\n".utf8)
    }

    /// Takes an exclusive `flock` on `url` (created if needed), waiting up to `timeout`.
    /// - Returns: the descriptor holding it (close it to release), or `nil`.
    private static func lock(_ url: URL, timeout: Duration) -> Int32? {
        let descriptor = FileLocation.open(url, O_RDWR | O_CREAT | O_CLOEXEC, mode: 0o600)
        guard descriptor >= 0 else { return nil }
        let clock = ContinuousClock()
        let deadline = clock.now.advanced(by: timeout)
        while flock(descriptor, LOCK_EX | LOCK_NB) != 0 {
            guard errno == EWOULDBLOCK || errno == EINTR, clock.now < deadline else {
                close(descriptor)
                return nil
            }
            usleep(2_000)
        }
        return descriptor
    }

    /// Writes `data` to a temporary file beside `url` and renames it over `url`.
    private static func replace(_ url: URL, with data: Data) -> Bool {
        let temporary = FileLocation.url(
            of: Array((AtomicFile.temporaryPrefix(for: url) + UUID().uuidString.prefix(12)).utf8), in: url.deletingLastPathComponent()
        )
        let descriptor = FileLocation.open(temporary, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode: 0o600)
        guard descriptor >= 0 else { return false }
        let written = data.withUnsafeBytes { write(descriptor, $0.baseAddress, $0.count) }
        close(descriptor)
        guard written == data.count, FileLocation.rename(temporary, to: url) == 0 else {
            FileLocation.removeFile(temporary)
            return false
        }
        return true
    }
}

private extension JSONDecoder {
    static var recents: JSONDecoder {
        let decoder = JSONDecoder()
        decoder.dateDecodingStrategy = .iso8601
        return decoder
    }
}
