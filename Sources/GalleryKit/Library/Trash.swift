import Foundation

/// The freedesktop.org Trash (Trash specification 1.0): the same Trash the desktop's file
/// manager shows. Documents are moved there, never deleted, and can be put back.
///
/// A document on the same file system as `$XDG_DATA_HOME/Trash` goes to that home trash;
/// one on another file system (a USB stick, a second disk) goes to that volume's own trash,
/// `$topdir/.Trash/$uid` when the administrator made a valid shared `.Trash`, otherwise
/// `$topdir/.Trash-$uid` — never copied across file systems and deleted.
///
/// ```swift
/// let trash = Trash()
/// let trashed = try trash.moveToTrash(url)
/// let restored = try trash.restore(trashed)
/// ```
public struct Trash: Sendable {
    /// Where the home trash is (`data/Trash`).
    public let directories: BaseDirectories
    let userID: uid_t
    /// The device of the file at a path, not following a final link; replaceable so tests can
    /// act out a second file system.
    let device: @Sendable ([UInt8]) -> dev_t?
    /// The mount points whose volume trash folders are listed.
    let mountPoints: @Sendable () -> [[UInt8]]

    /// The Trash of the user running the process, its home trash where `directories` say.
    public init(directories: BaseDirectories = BaseDirectories()) {
        self.init(directories: directories, userID: getuid(), device: Trash.device(of:), mountPoints: MountTable.mountPoints)
    }

    init(
        directories: BaseDirectories, userID: uid_t,
        device: @escaping @Sendable ([UInt8]) -> dev_t?, mountPoints: @escaping @Sendable () -> [[UInt8]]
    ) {
        self.directories = directories
        self.userID = userID
        self.device = device
        self.mountPoints = mountPoints
    }

    /// `$XDG_DATA_HOME/Trash`.
    var home: TrashFolder { TrashFolder(url: FileLocation.url(of: Array("Trash".utf8), in: directories.data), topDirectory: nil) }

    // MARK: Trashing

    /// Moves the document at `url` to the Trash, holding its folder's lock so no save is under way.
    ///
    /// Spec: the `info/NAME.trashinfo` is created first, with `O_EXCL`, and only then is the
    /// document renamed to `files/NAME`; a name taken in either folder (by another document,
    /// or by another process trashing one at the same moment) moves on to `Trip.2.gallery`,
    /// `Trip.3.gallery`, …. A symbolic link is trashed itself, not the file it points to.
    /// - Returns: the document as the Trash now holds it.
    /// - Throws: `.fileNotFound`; `.invalidArgument` for a name not ending in `.gallery` or a
    ///   folder; `.cannotCreate` when no trash folder can be used on the document's file system;
    ///   `.busy`. Nothing is moved when it throws.
    @discardableResult
    public func moveToTrash(_ url: URL, lockTimeout: Duration = .seconds(5)) throws -> TrashedDocument {
        guard let status = FileLocation.linkStatus(of: url) else { throw GalleryError(.fileNotFound, url: url, "no such document") }
        let name = FileLocation.name(of: url)
        guard status.st_mode & S_IFMT != S_IFDIR else { throw GalleryError(.invalidArgument, url: url, "is a folder; nothing was moved") }
        guard FreeName.hasDocumentExtension(name) else {
            throw GalleryError(.invalidArgument, url: url, "not a .gallery document; nothing was moved")
        }
        // The absolute path, through links in the folders (but not a link the document is), as
        // the file manager would record it.
        let originalPath = FileLocation.bytes(of: FileLocation.url(of: name, in: FileLocation.target(of: url.deletingLastPathComponent())))
        let folder = try trashFolder(forFileAt: originalPath)
        try folder.prepare()
        let lock = try FileLock(forDocumentAt: url, timeout: lockTimeout)
        let info = TrashInfo(path: folder.infoPath(for: originalPath), deletionDate: Date.now.wholeSeconds)
        let stem = FreeName.stem(of: name), suffix = Array(name.suffix(FreeName.fileExtension.count))
        for number in 1...FreeName.maximumNumber {
            let trashedName = number == 1 ? name : stem + Array(".\(number)".utf8) + suffix
            let infoURL = folder.infoFile(named: trashedName)
            let descriptor = FileLocation.open(infoURL, O_WRONLY | O_CREAT | O_EXCL | O_CLOEXEC, mode: 0o600)
            guard descriptor >= 0 else {
                if errno == EEXIST { continue }
                throw GalleryError.system("cannot write in the Trash (nothing was moved)", url: infoURL)
            }
            let destination = folder.file(named: trashedName)
            // A file in files/ without its .trashinfo (another program's crash) keeps its name too.
            if FileLocation.linkStatus(of: destination) != nil {
                close(descriptor)
                try? FileLocation.removeFile(infoURL)
                continue
            }
            do {
                try Self.writeAll(Array(info.text.utf8), to: descriptor, url: infoURL)
                close(descriptor)
            } catch {
                close(descriptor)
                try? FileLocation.removeFile(infoURL)
                throw error
            }
            do throws(SystemError) {
                try FileLocation.renameWithoutReplacing(url, to: destination)
            } catch {
                try? FileLocation.removeFile(infoURL)
                if error == .exists { continue }
                if error == .crossesDevices {
                    throw GalleryError(
                        .ioFailure, url: url, "is on another file system than its Trash (\(folder.url.pathForDisplay)); nothing was moved")
                }
                throw GalleryError.system("cannot move to the Trash (nothing was moved)", url: url, error)
            }
            AtomicFile.syncFolder(folder.files)
            AtomicFile.syncFolder(url.deletingLastPathComponent())
            withExtendedLifetime(lock) {}
            return TrashedDocument(
                name: String(decoding: trashedName, as: UTF8.self), url: destination, originalURL: URL(fileSystemPath: originalPath),
                deletionDate: info.deletionDate, trashURL: folder.url, volume: folder.topDirectory, infoURL: infoURL
            )
        }
        throw GalleryError(.cannotCreate, url: url, "no free name in the Trash (\(folder.url.pathForDisplay)); nothing was moved")
    }

    /// The trash folder for a file at the absolute path `path`: the home trash when it is on the
    /// same file system, otherwise the volume's.
    func trashFolder(forFileAt path: [UInt8]) throws -> TrashFolder {
        guard let fileDevice = device(path) else {
            throw GalleryError(.fileNotFound, url: URL(fileSystemPath: path), "no such document")
        }
        // The home trash may not exist yet: the nearest folder that does says its file system.
        var homePath = FileLocation.bytes(of: home.url)
        while device(homePath) == nil, homePath != [UInt8(ascii: "/")] { homePath = FileLocation.parentPath(of: homePath) }
        if device(homePath) == fileDevice { return home }

        let top = topDirectory(of: path, device: fileDevice)
        if let shared = sharedTrashFolder(in: top) { return shared }
        let own = TrashFolder(url: FileLocation.url(of: Array(".Trash-\(userID)".utf8), in: top), topDirectory: top)
        if let status = FileLocation.linkStatus(of: own.url), status.st_mode & S_IFMT != S_IFDIR || status.st_uid != userID {
            throw GalleryError(
                .cannotCreate, url: own.url, "is not a folder of yours, so it cannot be your Trash on this file system; nothing was moved")
        }
        return own
    }

    /// The top directory of the file system holding `path`: the highest folder above it on the
    /// same device (its mount point).
    func topDirectory(of path: [UInt8], device fileDevice: dev_t) -> URL {
        var current = FileLocation.parentPath(of: path)
        while current != [UInt8(ascii: "/")] {
            let parent = FileLocation.parentPath(of: current)
            guard device(parent) == fileDevice else { break }
            current = parent
        }
        return URL(fileSystemPath: current)
    }

    /// `$topdir/.Trash/$uid`, if the administrator made `$topdir/.Trash` and it passes the
    /// specification's checks: a real folder (not a link) with the sticky bit set. `$uid` in it
    /// must be the user's own folder when it exists. Otherwise `nil`, and `.Trash-$uid` is used.
    func sharedTrashFolder(in top: URL) -> TrashFolder? {
        let shared = FileLocation.url(of: Array(".Trash".utf8), in: top)
        guard let status = FileLocation.linkStatus(of: shared), status.st_mode & S_IFMT == S_IFDIR, status.st_mode & S_ISVTX != 0 else {
            return nil
        }
        let mine = FileLocation.url(of: Array("\(userID)".utf8), in: shared)
        if let own = FileLocation.linkStatus(of: mine), own.st_mode & S_IFMT != S_IFDIR || own.st_uid != userID { return nil }
        return TrashFolder(url: mine, topDirectory: top)
    }

    // MARK: Listing

    /// The galleries in the Trash (names ending in `.gallery`): the home trash and the trash
    /// folders of mounted volumes, most recently trashed first.
    ///
    /// A document whose `.trashinfo` is missing or damaged is listed with no original location
    /// or date; a `.trashinfo` without its file is ignored.
    /// - Complexity: O(documents in the trash folders), one small read each.
    public func documents() -> [TrashedDocument] {
        var folders = [home]
        for point in mountPoints() {
            let top = URL(fileSystemPath: point)
            if let shared = sharedTrashFolder(in: top), FileLocation.linkStatus(of: shared.url) != nil { folders.append(shared) }
            let own = TrashFolder(url: FileLocation.url(of: Array(".Trash-\(userID)".utf8), in: top), topDirectory: top)
            if let status = FileLocation.linkStatus(of: own.url), status.st_mode & S_IFMT == S_IFDIR, status.st_uid == userID {
                folders.append(own)
            }
        }
        // A volume mounted twice (a bind mount) shows the same folder twice.
        var seen = Set<[UInt64]>()
        folders = folders.filter { folder in
            guard let status = FileLocation.status(of: folder.url) else { return false }
            return seen.insert([UInt64(status.st_dev), UInt64(status.st_ino)]).inserted
        }
        return folders.flatMap(documents(in:)).sorted { first, second in
            switch (first.deletionDate, second.deletionDate) {
            case let (a?, b?) where a != b: a > b
            case (nil, _?): false
            case (_?, nil): true
            default: first.name < second.name
            }
        }
    }

    /// The galleries in one trash folder.
    func documents(in folder: TrashFolder) -> [TrashedDocument] {
        guard let names = FileLocation.names(in: folder.files) else { return [] }
        return names.filter(FreeName.hasDocumentExtension).map { name in
            let infoURL = folder.infoFile(named: name)
            let info = FileLocation.contents(of: infoURL, limit: 64 << 10).flatMap(TrashInfo.init(parsing:))
            return TrashedDocument(
                name: String(decoding: name, as: UTF8.self), url: folder.file(named: name),
                originalURL: info.flatMap { folder.originalURL(forInfoPath: $0.path) }, deletionDate: info?.deletionDate,
                trashURL: folder.url, volume: folder.topDirectory, infoURL: infoURL
            )
        }
    }

    /// The trashed document a person means: one named `name` in the Trash (`Trip.2.gallery`, as
    /// `documents()` lists it), else one trashed from `originalURL`; the most recently trashed
    /// when several match.
    /// - Throws: `.fileNotFound` when none does.
    public func document(named name: String, orTrashedFrom originalURL: URL) throws -> TrashedDocument {
        let all = documents()
        if !name.contains("/"), let match = all.first(where: { $0.name == name }) { return match }
        let folder = originalURL.deletingLastPathComponent()
        let candidates = [originalURL, FileLocation.url(of: FileLocation.name(of: originalURL), in: FileLocation.target(of: folder))]
            .map { FileLocation.bytes(of: $0) }
        let wasThere = { (document: TrashedDocument) in
            document.originalURL.map { candidates.contains(FileLocation.bytes(of: $0)) } ?? false
        }
        if let match = all.first(where: wasThere) { return match }
        throw GalleryError(.fileNotFound, path: name, "not in the Trash")
    }

    // MARK: Restoring

    /// Moves a trashed document back where it was, then removes its `.trashinfo`.
    ///
    /// Never replaces a file: if one of that name is there now, nothing is restored. Nor does
    /// it recreate a folder that was removed meanwhile.
    /// - Returns: where the document is now.
    /// - Throws: `.damagedDocument` when its original location is unknown; `.fileNotFound` when
    ///   it is no longer in the Trash; `.cannotCreate` when its folder is gone;
    ///   `.alreadyExists`; `.busy`.
    @discardableResult
    public func restore(_ document: TrashedDocument, lockTimeout: Duration = .seconds(5)) throws -> URL {
        guard let original = document.originalURL else {
            throw GalleryError(
                .damagedDocument, url: document.url,
                "its original location is unknown (\(document.name).trashinfo is missing or damaged); move it out of the Trash yourself"
            )
        }
        guard FileLocation.linkStatus(of: document.url) != nil else {
            throw GalleryError(.fileNotFound, url: document.url, "no longer in the Trash")
        }
        let folder = original.deletingLastPathComponent()
        guard let status = FileLocation.status(of: folder), status.st_mode & S_IFMT == S_IFDIR else {
            throw GalleryError(
                .cannotCreate, url: original, "its folder no longer exists; create it, then restore again (nothing was restored)")
        }
        let lock = try FileLock(forDocumentAt: original, timeout: lockTimeout)
        do throws(SystemError) {
            try FileLocation.renameWithoutReplacing(document.url, to: original)
        } catch {
            switch error {
            case .exists:
                throw GalleryError(
                    .alreadyExists, url: original,
                    "a file of this name is there now; move or rename it, then restore again (nothing was restored)")
            case .crossesDevices:
                throw GalleryError(
                    .ioFailure, url: original, "is on another file system than the Trash that holds the document; nothing was restored")
            default:
                throw GalleryError.system("cannot restore", url: original, error)
            }
        }
        try? FileLocation.removeFile(document.infoURL)
        AtomicFile.syncFolder(folder)
        withExtendedLifetime(lock) {}
        return original
    }

    // MARK: Helpers

    /// The device of the file at `path` (`lstat`).
    static func device(of path: [UInt8]) -> dev_t? {
        FileLocation.linkStatus(of: URL(fileSystemPath: path)).map(\.st_dev)
    }

    private static func writeAll(_ bytes: [UInt8], to descriptor: Int32, url: URL) throws {
        guard bytes.withUnsafeBytes({ FileLocation.writeAll($0, to: descriptor) }), fsync(descriptor) == 0 else {
            throw GalleryError.system("cannot write in the Trash (nothing was moved)", url: url)
        }
    }
}
