import Foundation

/// A private temporary folder for downloaded images, removed with everything in it when the
/// last reference goes away (after the document that needs the files has been saved).
///
/// Downloads go to disk, not memory, so two hundred large images cost disk space, not RAM.
public final class DownloadSpool: Sendable {
    let folder: URL

    static let prefix = "gallerykit-downloads-"

    init() throws {
        Self.removeAbandoned(olderThan: 24 * 60 * 60)
        folder = FileManager.default.temporaryDirectory.appendingPathComponent(Self.prefix + UUID().uuidString)
        do {
            try FileManager.default.createDirectory(at: folder, withIntermediateDirectories: true, attributes: [.posixPermissions: 0o700])
        } catch {
            throw GalleryError(.cannotCreate, url: folder, "cannot create a folder for downloads: \(error.localizedDescription)")
        }
    }

    /// A new file name in the spool.
    func newFile() -> URL { folder.appendingPathComponent(UUID().uuidString) }

    deinit {
        try? FileManager.default.removeItem(at: folder)
    }

    /// Removes spools a killed process left (a signal skips `deinit`). Only old ones: a spool
    /// lives for one command, and a day is far longer than any command runs.
    static func removeAbandoned(olderThan age: TimeInterval) {
        let temporary = FileManager.default.temporaryDirectory
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: temporary.path) else { return }
        let cutoff = Date.now.addingTimeInterval(-age)
        for name in names where name.hasPrefix(prefix) {
            let folder = temporary.appendingPathComponent(name)
            guard let modified = (try? FileManager.default.attributesOfItem(atPath: folder.path))?[.modificationDate] as? Date,
                modified < cutoff
            else { continue }
            try? FileManager.default.removeItem(at: folder)
        }
    }
}
