import Foundation

/// A private temporary folder for downloaded images, removed with everything in it when the
/// last reference goes away (after the document that needs the files has been saved).
///
/// Downloads go to disk, not memory, so two hundred large images cost disk space, not RAM.
public final class DownloadSpool: Sendable {
    let folder: URL

    init() throws {
        folder = FileManager.default.temporaryDirectory.appendingPathComponent("gallerykit-downloads-\(UUID().uuidString)")
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
}
