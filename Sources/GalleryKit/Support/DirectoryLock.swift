import Foundation

/// An exclusive advisory lock (`flock`) on the folder that holds a document, held until released.
///
/// Spec §locking: writers lock the folder, not the document — after a save renames a new file over
/// the document, a lock on the old inode would no longer exclude anyone — and not a lock file,
/// which would litter the folder. `flock` rather than `fcntl` locks, which a process silently loses
/// when it closes any other descriptor of the same file.
final class DirectoryLock {
    private let descriptor: Int32

    /// Waits up to `timeout` for the lock on the folder of `document`.
    /// - Throws: `.busy` if another process holds it that long.
    convenience init(forDocumentAt document: URL, timeout: Duration) throws {
        try self.init(folder: document.deletingLastPathComponent(), naming: document, timeout: timeout)
    }

    /// Waits up to `timeout` for the lock on `folder`; its errors name `document`, the document
    /// in it that the lock is taken for.
    init(folder: URL, naming document: URL, timeout: Duration) throws {
        // Stored only once locked: a throwing init whose properties are all set also runs deinit,
        // and closing the descriptor twice could close another thread's file.
        let descriptor = FileLocation.open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { throw GalleryError.system("cannot open the folder", url: folder) }
        switch FlockWait.acquire(LOCK_EX, on: descriptor, within: timeout, retryingEvery: .milliseconds(10)) {
        case 0: break
        case EWOULDBLOCK:
            close(descriptor)
            throw GalleryError(.busy, url: document, "another process is editing this document; try again in a moment")
        case let failure:
            close(descriptor)
            throw GalleryError.system("cannot lock", url: document, errno: failure)
        }
        self.descriptor = descriptor
    }

    deinit {
        // Closing the last descriptor releases the flock.
        close(descriptor)
    }
}
