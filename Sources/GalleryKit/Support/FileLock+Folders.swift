import Foundation

/// The lock on the folder that holds a document, which its writers take.
///
/// Spec §locking: writers lock the folder, not the document — after a save renames a new file over
/// the document, a lock on the old inode would no longer exclude anyone — and not a lock file,
/// which would litter the folder.
extension FileLock {
    /// Waits up to `timeout` for the lock on the folder of `document`.
    /// - Throws: `.busy` if another process holds it that long.
    convenience init(forDocumentAt document: URL, timeout: Duration) throws {
        try self.init(folder: document.deletingLastPathComponent(), naming: document, timeout: timeout)
    }

    /// Waits up to `timeout` for the lock on `folder`; its errors name `document`, the document
    /// in it that the lock is taken for.
    /// - Throws: `.busy` if another process holds it that long.
    convenience init(folder: URL, naming document: URL, timeout: Duration) throws {
        do throws(Failure) {
            try self.init(folder, opening: O_RDONLY | O_DIRECTORY, .exclusive, within: timeout, retryingEvery: .milliseconds(10))
        } catch .cannotOpen(let error) {
            throw GalleryError.system("cannot open the folder", url: folder, error)
        } catch .timedOut {
            throw GalleryError(.busy, url: document, "another process is editing this document; try again in a moment")
        } catch .cannotLock(let error) {
            throw GalleryError.system("cannot lock", url: document, error)
        }
    }

    /// Waits up to `timeout` for the locks on several folders, each taken once and in the order
    /// of its path's bytes, so that two processes locking the same folders cannot deadlock (a
    /// second lock on one folder from this process would wait for itself). Links are followed:
    /// a folder is locked where saves happen.
    /// - Parameter folders: each folder with the document its errors name.
    static func lockingFolders(_ folders: [(folder: URL, document: URL)], timeout: Duration) throws -> [FileLock] {
        // Keyed by the path's bytes: `url.path` turns a name that is not UTF-8 into another one.
        var documents: [[UInt8]: URL] = [:]
        for (folder, document) in folders { documents[FileLocation.bytes(of: FileLocation.target(of: folder))] = document }
        return try documents.sorted { $0.key.lexicographicallyPrecedes($1.key) }.map { path, document in
            try FileLock(folder: URL(fileSystemPath: path), naming: document, timeout: timeout)
        }
    }
}
