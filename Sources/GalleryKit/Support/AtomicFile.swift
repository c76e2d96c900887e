import Foundation

/// Replaces or creates a file so that a crash at any moment leaves either the old file or the new
/// one, never a mix (spec §9.1).
///
/// The new bytes go to `.<name>.tmp-<random>` in the same folder (same file system, so the final
/// rename is atomic), are fsynced, renamed over the target, and the folder is fsynced so the
/// rename itself survives a power cut. Callers hold the folder's `FileLock`, which is what
/// makes it safe to delete temporary files a killed writer left behind.
///
/// A replaced file keeps its permission bits, and its owner and group where the process may set
/// them: a private document stays private. `url` must not be a symbolic link (the rename would
/// replace the link itself): callers pass `FileLocation.target(of:)`.
enum AtomicFile {
    enum Mode {
        /// Fails with `.alreadyExists` if the target exists (checked atomically at the end).
        case createNew
        /// Replaces the target if it exists.
        case replace
    }

    /// Writes a new version of `url` through `write`, which receives a descriptor open for writing.
    /// - Parameters:
    ///   - name: the file errors name (the path the user gave, which may be a link to `url`).
    ///   - newFileMode: the permission bits of a file that did not exist (less the umask); a
    ///     replaced one keeps its own.
    ///   - syncing: whether the file and the rename are made durable (fsync); a list that may
    ///     lose its last update in a power cut (recent documents) skips both.
    /// - Returns: the identity of the file now at `url`.
    @discardableResult
    static func write(
        to url: URL, naming name: URL? = nil, mode: Mode, newFileMode: mode_t = 0o666, syncing: Bool = true, _ write: (Int32) throws -> Void
    ) throws -> FileIdentity {
        let shown = name ?? url
        let folder = url.deletingLastPathComponent()
        let temporary = folder.appendingPathComponent(temporaryPrefix(for: url) + randomSuffix())
        // A replaced file's mode from the start (the umask can only narrow it), so a private
        // document's bytes are never readable by others, not even in the temporary file;
        // a new file gets 0666 less the umask, as any program's.
        let existing = mode == .replace ? FileLocation.status(of: url) : nil
        let permissions = existing.map { mode_t($0.st_mode) & 0o777 } ?? newFileMode
        let descriptor = FileLocation.open(temporary, O_RDWR | O_CREAT | O_EXCL | O_CLOEXEC, mode: permissions)
        guard descriptor >= 0 else { throw GalleryError.system("cannot create a file next to it", url: shown) }
        var isFinished = false
        defer {
            if !isFinished { FileLocation.unlink(temporary) }
        }
        // Open until the file is in place: its identity is read after the rename (and the
        // temporary name's unlink), which change its status-change time.
        defer { close(descriptor) }
        SavePoint.temporaryCreated.reached()
        do {
            try write(descriptor)
        } catch let error as GalleryError where error.path == nil {
            // An archive error names no file; it is the document that could not be saved.
            throw GalleryError(error.code, url: shown, "cannot save: \(error.reason); the document is unchanged")
        }
        if let existing {
            try copyOwnership(from: existing, to: descriptor, reportingAs: shown)
        }
        guard !syncing || fsync(descriptor) == 0 else {
            throw GalleryError.system("cannot save (the document is unchanged)", url: shown)
        }
        SavePoint.temporaryWritten.reached()
        switch mode {
        case .replace:
            try GalleryError.system("cannot replace", url: shown) { () throws(SystemError) in try FileLocation.rename(temporary, to: url) }
        case .createNew:
            // link(2) fails with EEXIST instead of replacing a file created meanwhile.
            try GalleryError.system("cannot create", url: shown, ifExists: "already exists (use --force to replace it)") {
                () throws(SystemError) in
                try FileLocation.link(temporary, to: url)
            }
            FileLocation.unlink(temporary)
        }
        isFinished = true
        let identity = try FileIdentity(fileDescriptor: descriptor, url: shown)
        SavePoint.renamed.reached()
        if syncing { syncFolder(folder) }
        return identity
    }

    /// Gives the new file the old one's permission bits, owner and group.
    ///
    /// The mode must come through: a 0600 document must never be readable by others, even for a
    /// moment, so failing to set it fails the save. Owner and group are kept where the process
    /// may set them (root, or a group the user belongs to); otherwise the new file is the
    /// user's, as with any editor that saves by rename.
    private static func copyOwnership(from existing: stat, to descriptor: Int32, reportingAs url: URL) throws {
        var current = stat()
        guard fstat(descriptor, &current) == 0 else { throw GalleryError.system("cannot save", url: url) }
        if current.st_uid != existing.st_uid || current.st_gid != existing.st_gid {
            if fchown(descriptor, existing.st_uid, existing.st_gid) != 0 {
                _ = fchown(descriptor, uid_t.max, existing.st_gid)  // uid -1: keep the owner, try the group
            }
        }
        // Set after chown, which clears the set-id bits.
        guard fchmod(descriptor, existing.st_mode & 0o7777) == 0 else {
            throw GalleryError.system("cannot keep the document's permissions", url: url)
        }
    }

    /// Deletes temporary files that a killed writer left next to `url`. Call only under the lock.
    static func removeStaleTemporaryFiles(for url: URL) {
        let prefix = temporaryPrefix(for: url)
        let folder = url.deletingLastPathComponent()
        guard let names = try? FileManager.default.contentsOfDirectory(atPath: folder.path) else { return }
        for name in names where name.hasPrefix(prefix) {
            FileLocation.unlink(folder.appendingPathComponent(name))
        }
    }

    static func temporaryPrefix(for url: URL) -> String {
        ".\(url.lastPathComponent).tmp-"
    }

    private static func randomSuffix() -> String {
        String((0..<12).map { _ in "abcdefghijklmnopqrstuvwxyz0123456789".randomElement()! })
    }

    static func syncFolder(_ folder: URL) {
        let descriptor = FileLocation.open(folder, O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return }
        fsync(descriptor)
        close(descriptor)
    }
}
