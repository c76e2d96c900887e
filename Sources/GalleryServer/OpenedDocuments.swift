import Foundation
import GalleryKit

/// The documents read last, kept while their files are unchanged. A page of a large gallery asks
/// for its state and then for each thumbnail it shows; reading a manifest of 100,000 images for
/// each of those requests took most of their time. Every use names the file's current version
/// (device, inode, size, modification time: `DocumentVersion`), so a document saved or replaced
/// since is read again, never served as it was. Requests that arrive together for a document
/// not read yet wait for one reading.
actor OpenedDocuments {
    private typealias Entry = (url: URL, version: String, document: Task<GalleryDocument, any Error>)
    private var entries: [Entry] = []
    private let capacity: Int

    /// Keeps at most `capacity` documents (a large one holds tens of megabytes).
    init(capacity: Int = 4) {
        self.capacity = capacity
    }

    /// The document at `url` as its file is at `version`.
    func document(at url: URL, version: String) async throws -> GalleryDocument {
        if let index = entries.firstIndex(where: { $0.url == url && $0.version == version }) {
            let entry = entries.remove(at: index)
            entries.insert(entry, at: 0)
            return try await entry.document.value
        }
        let reading = Task { try await offloaded { try GalleryDocument(contentsOf: url) } }
        entries.removeAll { $0.url == url }
        entries.insert((url, version, reading), at: 0)
        if entries.count > capacity { entries.removeLast() }
        do {
            return try await reading.value
        } catch {
            // A file that could not be read is tried again by the next request.
            entries.removeAll { $0.url == url && $0.version == version }
            throw error
        }
    }

    /// The document at `url` as it is on disk now, and the version it was read at (read first:
    /// a save landing in between makes the answer look older than it is, never newer).
    func current(_ url: URL) async throws -> (document: GalleryDocument, version: String) {
        let version = DocumentVersion.of(url)
        return (try await document(at: url, version: version), version)
    }
}
