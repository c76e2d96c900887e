import Foundation

/// Replaces or creates a file so that a crash at any moment leaves either the old file or the new
/// one, never a mix (spec §saving).
///
/// The new bytes go to `.<name>.tmp-<random>` in the same folder (same file system, so the final
/// rename is atomic), are fsynced, renamed over the target, and the folder is fsynced so the
/// rename itself survives a power cut. Callers hold the folder's `DirectoryLock`, which is what
/// makes it safe to delete temporary files a killed writer left behind.
enum AtomicFile {
    enum Mode {
        /// Fails with `.alreadyExists` if the target exists (checked atomically at the end).
        case createNew
        /// Replaces the target if it exists.
        case replace
    }

    /// Writes a new version of `url` through `write`, which receives a descriptor open for writing.
    static func write(to url: URL, mode: Mode, _ write: (Int32) throws -> Void) throws {
        let folder = url.deletingLastPathComponent()
        let temporary = folder.appendingPathComponent(temporaryPrefix(for: url) + randomSuffix())
        let descriptor = open(temporary.path, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, 0o644)
        guard descriptor >= 0 else { throw GalleryError.system("cannot create a file next to it", url: url) }
        var isFinished = false
        defer {
            if !isFinished { unlink(temporary.path) }
        }
        do {
            defer { close(descriptor) }
            try write(descriptor)
            guard fsync(descriptor) == 0 else { throw GalleryError.system("cannot write", url: url) }
        }
        switch mode {
        case .replace:
            guard rename(temporary.path, url.path) == 0 else { throw GalleryError.system("cannot replace", url: url) }
        case .createNew:
            // link(2) fails with EEXIST instead of replacing a file created meanwhile.
            guard link(temporary.path, url.path) == 0 else {
                let failure = errno
                if failure == EEXIST {
                    throw GalleryError(.alreadyExists, url: url, "already exists (use --force to replace it)")
                }
                throw GalleryError.system("cannot create", url: url, errno: failure)
            }
            unlink(temporary.path)
        }
        isFinished = true
        syncFolder(folder)
    }

    /// Deletes temporary files that a killed writer left next to `url`. Call only under the lock.
    static func removeStaleTemporaryFiles(for url: URL) {
        let prefix = temporaryPrefix(for: url)
        let folder = url.deletingLastPathComponent()
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return }
        for name in names where name.hasPrefix(prefix) {
            unlink(folder.appendingPathComponent(name).path)
        }
    }

    static func temporaryPrefix(for url: URL) -> String {
        ".\(url.lastPathComponent).tmp-"
    }

    private static func randomSuffix() -> String {
        String((0..<12).map { _ in "abcdefghijklmnopqrstuvwxyz0123456789".randomElement()! })
    }

    private static func syncFolder(_ folder: URL) {
        let descriptor = open(folder.path, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        fsync(descriptor)
        close(descriptor)
    }
}
