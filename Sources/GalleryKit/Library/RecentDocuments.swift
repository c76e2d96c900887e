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
        // A `stat` first: FileManager's attribute dictionary costs every command run-time type
        // lookups (about 0.3 ms), and the folder nearly always exists.
        guard
            FileLocation.status(of: folder) != nil
                || (try? FileManager.default.createDirectory(
                    at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])) != nil,
            let lock = try? FileLock(
                FileLocation.url(of: Array("recents.json.lock".utf8), in: folder), opening: O_RDWR | O_CREAT, mode: 0o600, .exclusive,
                within: .seconds(1), retryingEvery: .milliseconds(2))
        else { return false }
        defer { withExtendedLifetime(lock) {} }
        AtomicFile.removeStaleTemporaryFiles(for: file)
        let key = FileLocation.bytes(of: document.url)
        let current = FileLocation.contents(of: file, limit: Self.maximumFileSize)
        var documents =
            [document]
            + Self.documents(inList: current).filter {
                FileLocation.bytes(of: $0.url) != key && FileLocation.status(of: $0.url) != nil
            }
        documents = Array(documents.prefix(capacity))
        let updated = Self.encoded(documents)
        // The same list (the document first already, recorded again within the second): no
        // temporary file and rename for nothing.
        if let current, updated.elementsEqual(current) { return true }
        return Self.replace(file, with: updated)
    }

    /// The documents in the list that still exist, newest first.
    public func documents() -> [RecentDocument] {
        stored().filter { FileLocation.status(of: $0.url) != nil }
    }

    /// Everything the file lists, existing or not; empty when it is missing or damaged.
    ///
    /// The file's shape: `{"version": 1, "documents": [{"path", "url", "event", "date"}]}`.
    /// `path` is for people and programs reading it; `url` (percent-encoded) is exact also for
    /// names that are not UTF-8, and wins when both are there. Read and written as a `JSONValue`
    /// rather than through `Codable`: every command that opens a document records it, and
    /// `JSONDecoder`'s first use costs about 2 ms of run-time type lookups.
    func stored() -> [RecentDocument] {
        Self.documents(inList: FileLocation.contents(of: file, limit: Self.maximumFileSize))
    }

    /// The documents a list file's bytes hold (`stored()`); none for no file.
    private static func documents(inList bytes: [UInt8]?) -> [RecentDocument] {
        guard let bytes,
            case .object(let list)? = try? JSONReader.value(
                of: Data(bytes), named: "recents.json", maximumValues: 1_000_000, maximumDepth: 8),
            case .integer? = list["version"], case .array(let entries)? = list["documents"]
        else { return [] }
        var documents: [RecentDocument] = []
        for value in entries {
            // A damaged entry makes the whole file count as damaged.
            guard case .object(let entry) = value, case .string(let eventName)? = entry["event"],
                case .string(let dateText)? = entry["date"],
                let date = RFC3339.date(from: dateText)
            else { return [] }
            func text(_ key: String) -> String?? {
                switch entry[key] {
                case nil, .null?: return .some(nil)
                case .string(let value)?: return value
                default: return nil
                }
            }
            guard let path = text("path"), let url = text("url") else { return [] }
            guard let event = RecentDocument.Event(rawValue: eventName) else { continue }
            let location =
                url.flatMap { URL(string: $0) }.flatMap { $0.isFileURL ? $0 : nil }
                ?? path.flatMap { $0.hasPrefix("/") ? URL(fileURLWithPath: $0) : nil }
            if let location { documents.append(RecentDocument(url: location, event: event, date: date)) }
        }
        return documents
    }

    /// A list file larger than this is not read (it holds at most `capacity` short entries).
    private static let maximumFileSize = 4 << 20

    private static func encoded(_ documents: [RecentDocument]) -> Data {
        let entries = documents.map { document in
            JSONValue.object([
                "path": .string(document.url.pathForDisplay), "url": .string(document.url.absoluteString),
                "event": .string(document.event.rawValue), "date": .string(RFC3339.string(from: document.date)),
            ])
        }
        return JSONValue.object(["version": .integer(1), "documents": .array(entries)]).serialized(.pretty) + Data("\n".utf8)
    }

    /// Writes `data` to a temporary file beside `url` and renames it over `url` (`AtomicFile`,
    /// private to the user, not synced: the list may lose its last update in a power cut).
    private static func replace(_ url: URL, with data: Data) -> Bool {
        let written = try? AtomicFile.write(to: url, mode: .replace, newFileMode: 0o600, syncing: false) { descriptor in
            guard data.withUnsafeBytes({ FileLocation.writeAll($0, to: descriptor) }) else {
                throw GalleryError.system("cannot write", url: url)
            }
        }
        return written != nil
    }
}
