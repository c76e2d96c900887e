import Foundation

/// The Files app's operations on whole documents: new, duplicate, rename. (Moving to the Trash
/// and back is `Trash`.)
extension GalleryDocument {
    /// Creates and saves an empty document in `folder` under the first free name:
    /// `Untitled.gallery`, `Untitled 2.gallery`, … — or, with a title, `Trip.gallery`,
    /// `Trip 2.gallery`, ….
    ///
    /// Never replaces a file, also when other processes create documents in the same folder at
    /// the same moment: each name is taken atomically, and a process that loses a name to
    /// another takes the next one.
    /// - Parameters:
    ///   - folder: the folder to create the document in.
    ///   - title: the gallery's title and the name's stem (a `/` becomes `-`); without
    ///     one, the title is the name's stem ("Untitled 2").
    ///   - lockTimeout: how long to wait for the folder's lock.
    /// - Throws: `.invalidArgument` for a title longer than `Gallery.maximumTextLength`
    ///   characters (nothing is created); `.cannotCreate` if `folder` is missing, not a folder or
    ///   not writable; `.busy` if another process holds the folder's lock longer than `lockTimeout`.
    public static func createDocument(in folder: URL, title: String? = nil, lockTimeout: Duration = .seconds(5)) throws -> GalleryDocument {
        if let title { try Gallery.checkLength(of: title, naming: "title") }
        try checkWritableFolder(folder)
        let stem = FreeName.stem(forTitle: title ?? "Untitled")
        return try FreeName.create(in: folder, stem: stem) { url in
            let name = String(decoding: FreeName.stem(of: FileLocation.name(of: url)), as: UTF8.self)
            var document = GalleryDocument(creating: url, gallery: Gallery(title: title ?? name))
            try document.save(lockTimeout: lockTimeout)
            return document
        }
    }

    /// Copies the document at `url` next to it as `Trip copy.gallery` (then `Trip copy 2.gallery`,
    /// …; a copy of `Trip copy` is `Trip copy 2`), never replacing a file.
    ///
    /// The copy is a new document: a new `id` and creation date, the same title, images, cached
    /// bytes, thumbnails and extension entries. Its undo history is left behind, as for any new
    /// document: history revisions written by GalleryKit 0.1.0 are whole manifests, and undoing
    /// to one would bring back the original's id; and the copy is smaller without the bytes only
    /// the history kept.
    /// - Returns: the copy's location.
    /// - Throws: `.fileNotFound`; the errors of opening the document; `.cannotCreate`; `.busy`.
    public static func duplicateDocument(at url: URL, lockTimeout: Duration = .seconds(5)) throws -> URL {
        guard FileLocation.status(of: url) != nil else { throw GalleryError(.fileNotFound, url: url, "no such document") }
        let folder = url.deletingLastPathComponent()
        try checkWritableFolder(folder)
        // The copy's folder, and the original's (through a link, the target's), stay locked
        // while its entries are copied, so no save replaces it part way.
        let locks = try FileLock.lockingFolders(
            [folder, FileLocation.target(of: url).deletingLastPathComponent()].map { ($0, url) }, timeout: lockTimeout)
        let original = try GalleryDocument(contentsOf: url)
        let stem = FreeName.copyStem(of: FreeName.stem(of: FileLocation.name(of: url)))
        let copy = try FreeName.create(in: folder, stem: stem) { destination in
            var gallery = original.gallery
            let now = Date.now.wholeSeconds
            gallery.id = UUID()
            gallery.created = now
            gallery.modified = now
            gallery.generator = GalleryKitVersion.generator
            try original.write(gallery, to: destination, mode: .createNew, includingHistory: false)
            return destination
        }
        withExtendedLifetime(locks) {}
        return copy
    }

    /// Renames the document at `url` within its folder, holding the folder's lock.
    ///
    /// `.gallery` is added when `newName` does not end with it. A symbolic link is renamed
    /// itself, as the Files app does; the file it points to keeps its name.
    /// - Returns: the new location (`url` itself when the name is unchanged).
    /// - Throws: `.invalidArgument` for a name `DocumentName` refuses (empty, hidden, with `/`,
    ///   longer than 255 bytes, …); `.fileNotFound`; `.alreadyExists` if the folder has a file of that
    ///   name (it is not replaced); `.busy`.
    public static func renameDocument(at url: URL, to newName: String, lockTimeout: Duration = .seconds(5)) throws -> URL {
        let name = try documentName(newName, for: url)
        guard FileLocation.linkStatus(of: url) != nil else { throw GalleryError(.fileNotFound, url: url, "no such document") }
        guard name != FileLocation.name(of: url) else { return url }
        let folder = url.deletingLastPathComponent()
        let destination = FileLocation.url(of: name, in: folder)
        let lock = try FileLock(forDocumentAt: url, timeout: lockTimeout)
        try GalleryError.system(
            "cannot rename \(url.lastPathComponent)", url: destination,
            ifExists: "already exists; choose another name (nothing was renamed)"
        ) { () throws(SystemError) in try FileLocation.renameWithoutReplacing(url, to: destination) }
        AtomicFile.syncFolder(folder)
        withExtendedLifetime(lock) {}
        return destination
    }

    /// The file name a rename to `newName` gives, `.gallery` added.
    private static func documentName(_ newName: String, for url: URL) throws -> [UInt8] {
        let name = DocumentName.withExtension(newName)
        if let problem = DocumentName.problem(with: name) {
            throw GalleryError(.invalidArgument, url: url, "cannot rename to '\(newName)': \(problem)")
        }
        return Array(name.utf8)
    }

    /// Throws `.cannotCreate` unless `folder` is an existing folder.
    private static func checkWritableFolder(_ folder: URL) throws {
        guard let status = FileLocation.status(of: folder) else {
            throw GalleryError(.cannotCreate, url: folder, "no such folder")
        }
        guard status.st_mode & S_IFMT == S_IFDIR else { throw GalleryError(.cannotCreate, url: folder, "not a folder") }
    }
}
