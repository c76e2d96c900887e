import Foundation

/// Lists the `.gallery` documents in a folder, like the Files app's document browser.
public struct DocumentBrowser: Sendable {
    /// The format's limits each document is read within.
    public var limits: BundleLimits
    /// The index that remembers documents between listings, or `nil` to read every document
    /// at every listing.
    public var index: DocumentIndex?

    /// A browser that reads documents within `limits`, remembering them in `index` if given.
    ///
    /// `DocumentBrowser(index: DocumentIndex())` uses the index in the user's cache folder, as
    /// `gallery browse` does.
    public init(limits: BundleLimits = .standard, index: DocumentIndex? = nil) {
        self.limits = limits
        self.index = index
    }

    /// The documents in `folder` (and its subfolders when `recursive`), with their manifests'
    /// titles and counts, in no particular order.
    ///
    /// Only `mimetype` and `manifest.json` of each are read, on all cores, and with an index only
    /// for documents that are new or changed since the index last saw them. A damaged document is
    /// listed with its error; it never stops the listing. Hidden files are skipped. The index
    /// never changes the outcome: if it cannot be used, the documents are read.
    /// - Parameters:
    ///   - folder: the folder to list.
    ///   - recursive: whether to list the documents in its subfolders too.
    ///   - search: keep only documents whose name, title, captions or image URLs have
    ///     words starting with each word of `search`, ignoring case and diacritics (text in scripts
    ///     written without spaces, like Japanese, need only occur); see `DocumentSearch`.
    /// - Throws: `.fileNotFound` if `folder` does not exist.
    /// - Complexity: O(documents) `stat` calls, plus O(manifest size) for each document read.
    public func documents(in folder: URL, recursive: Bool = false, search: String? = nil) throws -> [DocumentSummary] {
        let listing = try listing(in: folder, recursive: recursive, search: search)
        listing.finishing.wait()
        return listing.documents
    }

    /// Hands `documents(in:recursive:search:)`, sorted (`sort(by:reverse:)`), to `body` as soon as
    /// they are known, and returns `body`'s result once the index's last steps are done too
    /// (closing its database; for the first listing, committing the new index, making it
    /// durable and putting it in place): they run meanwhile. A program that shows the listing
    /// shows it sooner this way, 3 to 4 ms sooner for a first listing of 2,000 documents.
    /// - Throws: what `documents(in:recursive:search:)` throws (before `body` is called), or
    ///   what `body` throws.
    public func withDocuments<Result>(
        in folder: URL, recursive: Bool = false, search: String? = nil, sortedBy key: DocumentSummary.SortKey, reverse: Bool = false,
        _ body: ([DocumentSummary]) throws -> Result
    ) throws -> Result {
        var listing = try listing(in: folder, recursive: recursive, search: search)
        defer { listing.finishing.wait() }
        listing.documents.sort(by: key, reverse: reverse)
        return try body(listing.documents)
    }

    /// The listing, with how it was made; the index's last steps may still be running
    /// (`DocumentListing.isIndexed` waits for them).
    func listing(in folder: URL, recursive: Bool, search: String?) throws -> DocumentListing {
        let start = FileStamp.now()
        let folder = folder.standardizedFileURL
        // A listing that reads every document (there is no index yet, or none is used) takes
        // each one's stamp from the descriptor it is read through: a `stat` of each first was
        // 3 ms of a 60 ms listing of 2,000 documents, before any could be read.
        let isIndexNew = index.map { FileLocation.status(of: $0.location) == nil } ?? false
        // A first listing's index is made aside on another core while the folder is scanned,
        // once the folder opens (a folder that cannot be listed leaves no trace in the cache).
        var aside: BackgroundWork<AsideIndex?>?
        let files: [ListedFile]
        do {
            files = try galleryFiles(in: folder, recursive: recursive, statting: index != nil && !isIndexNew) {
                if isIndexNew { aside = index?.makingAsideIndex() }
            }
        } catch {
            // A listing ends with nothing of its own left running: an aside index started before
            // the folder could not be read is waited for and removed.
            if let index, let made = aside?.wait() {
                try? made.database?.close()
                index.removeDatabaseFiles(at: made.location)
            }
            throw error
        }
        let search = search.map(DocumentSearch.init)
        let reader = DocumentReader(
            files: files, limits: limits,
            settledBefore: start - (index?.settlingNanoseconds ?? FileStamp.settlingNanoseconds)
        )
        if let index,
            let listing = index.listing(
                of: files, in: ListingScope(folder: folder, isRecursive: recursive), matching: search, reader: reader,
                aside: aside)
        {
            return listing
        }
        let documents = reader.documents(at: Array(files.indices)).filter { !$0.isGone }
        let kept = search.map { search in documents.filter { search.matches($0.text) } } ?? documents
        return DocumentListing(documents: kept.map(\.summary), readCount: reader.readCount, finishing: BackgroundWork(done: false))
    }

    /// The regular `.gallery` files in `folder` (and its subfolders when `recursive`), each
    /// with its `stat`, taken before it is read, if `statting` (else as `readdir` tells the
    /// type, with a `stat` only where it does not). Hidden files and folders are skipped, and
    /// so are symbolic links (as the Files app lists a folder's own documents).
    ///
    /// `readdir` and `fstatat` on the folder's descriptor: FileManager's enumerator with
    /// resource values cost 90 ms for 2,000 documents, this about 3 ms.
    /// - Parameter whenOpened: called once the folder is open, before it is read.
    private func galleryFiles(in folder: URL, recursive: Bool, statting: Bool, whenOpened: () -> Void) throws -> [ListedFile] {
        guard let status = FileLocation.status(of: folder) else {
            throw GalleryError(.fileNotFound, url: folder, "no such folder")
        }
        guard status.st_mode & S_IFMT == S_IFDIR else { throw GalleryError(.invalidArgument, url: folder, "is not a folder") }
        var path = FileLocation.bytes(of: folder)
        while path.count > 1, path.last == UInt8(ascii: "/") { path.removeLast() }
        var files: [ListedFile] = []
        guard Self.collectGalleryFiles(in: path, recursive: recursive, statting: statting, into: &files, whenOpened: whenOpened) else {
            throw GalleryError.system("cannot list the folder", url: folder)
        }
        return files
    }

    /// Appends the documents in the folder at `path` to `files`; `false` if it cannot be read
    /// (a subfolder that cannot is skipped).
    private static func collectGalleryFiles(
        in path: [UInt8], recursive: Bool, statting: Bool, into files: inout [ListedFile], whenOpened: () -> Void = {}
    ) -> Bool {
        let descriptor = FileLocation.open(URL(fileSystemPath: path), O_RDONLY | O_DIRECTORY | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        guard let directory = fdopendir(descriptor) else {
            close(descriptor)
            return false
        }
        defer { closedir(directory) }
        whenOpened()
        let prefix = path == [UInt8(ascii: "/")] ? path : path + [UInt8(ascii: "/")]
        let suffix = Array(".gallery".utf8)
        var subfolders: [[UInt8]] = []
        while let entry = readdir(directory) {
            // The name where readdir left it (NUL-terminated, as fstatat takes it): no copy
            // until it is a document's.
            var status = stat()
            let kind: (isDocument: Bool, path: Data, type: mode_t, isStatted: Bool)? = withUnsafeBytes(of: &entry.pointee.d_name) {
                bytes in
                let name = UnsafeRawBufferPointer(rebasing: bytes[..<(bytes.firstIndex(of: 0) ?? bytes.count)])
                guard name.first != UInt8(ascii: ".") else { return nil }
                let type = Int(entry.pointee.d_type)
                let isDocumentName = name.count > suffix.count && name.suffix(suffix.count).elementsEqual(suffix)
                let mayBeFolder = type == Int(DT_DIR) || type == Int(DT_UNKNOWN)
                guard isDocumentName || (recursive && mayBeFolder) else { return nil }
                let typeFromFolder: mode_t? = statting ? nil : type == Int(DT_REG) ? S_IFREG : type == Int(DT_DIR) ? S_IFDIR : nil
                if typeFromFolder == nil {
                    let found =
                        fstatat(dirfd(directory), bytes.baseAddress!.assumingMemoryBound(to: CChar.self), &status, AT_SYMLINK_NOFOLLOW) == 0
                    // A file removed since the folder was read is simply not listed.
                    guard found else { return nil }
                }
                // Made at its size and filled in place: `Data(capacity:)` and two appends took
                // 2,000 instructions a document, before any could be read.
                var filePath = Data(count: prefix.count + name.count)
                filePath.withUnsafeMutableBytes { bytes in
                    bytes.copyBytes(from: prefix)
                    UnsafeMutableRawBufferPointer(rebasing: bytes[prefix.count...]).copyMemory(from: name)
                }
                return (isDocumentName, filePath, typeFromFolder ?? status.st_mode & S_IFMT, typeFromFolder == nil)
            }
            guard let kind else { continue }
            switch kind.type {
            case S_IFDIR where recursive:
                subfolders.append(Array(kind.path))
            case S_IFREG where kind.isDocument:
                files.append(ListedFile(path: kind.path, stamp: kind.isStatted ? FileStamp(status) : nil))
            default:
                break
            }
        }
        for subfolder in subfolders {
            _ = collectGalleryFiles(in: subfolder, recursive: true, statting: statting, into: &files)
        }
        return true
    }
}

/// A document file a listing found.
struct ListedFile: Sendable {
    /// The path's bytes (absolute when the listed folder's path is), as the index keys the document.
    var path: Data
    /// What `stat` said of the file before it was read; nil when the listing reads every
    /// document and takes it from the descriptor each is read through (`DocumentReader`).
    var stamp: FileStamp?

    /// The file's URL, made when needed: a listing that reads nothing makes none.
    var url: URL { FileLocation.fileURL(forPath: path) }

    /// The file name without `.gallery`, as `DocumentSummary.name` has it.
    var name: String {
        // Straight from the bytes when they are UTF-8 (the URL's methods cost microseconds each),
        // searched in place: Data's own `lastIndex(of:)` and slices took 4,400 instructions.
        path.withUnsafeBytes { raw in
            let bytes = raw.assumingMemoryBound(to: UInt8.self)
            let start = bytes.lastIndex(of: UInt8(ascii: "/")).map { $0 + 1 } ?? 0
            let end = max(start, bytes.count - ".gallery".utf8.count)
            return FileLocation.displayText(of: UnsafeBufferPointer(rebasing: bytes[start..<end]))
        }
    }
}

/// What tells one version of a file from another without reading it (its `FileIdentity`:
/// device, inode, size, modification and status-change times), and whether those can vouch for
/// its content at a later listing.
struct FileStamp: Equatable, Sendable {
    /// Which file it is, its size and its times.
    var identity: FileIdentity

    var device: UInt64 { identity.device }
    var inode: UInt64 { identity.inode }
    var size: Int64 { identity.size }
    var modifiedNanoseconds: Int64 { identity.modifiedNanoseconds }
    var changedNanoseconds: Int64 { identity.changedNanoseconds }

    init(identity: FileIdentity) {
        self.identity = identity
    }

    /// A file's stamp.
    init(_ status: stat) {
        self.init(identity: FileIdentity(status))
    }

    /// The wall clock now, in nanoseconds since 1970, as file times are kept.
    static func now() -> Int64 {
        var time = timespec()
        clock_gettime(CLOCK_REALTIME, &time)
        return Int64(time.tv_sec) * 1_000_000_000 + Int64(time.tv_nsec)
    }

    /// How close to a listing a file's times may be before its content could still change
    /// without changing them: file systems keep times in clock ticks (a few milliseconds on
    /// Linux, two seconds on FAT), so two writes within one tick look alike.
    static let settlingNanoseconds: Int64 = 2_000_000_000

    /// Whether the file was last written before `time` (a listing's start less
    /// `settlingNanoseconds`), so that its times tell any later write apart.
    func isSettled(before time: Int64) -> Bool {
        max(modifiedNanoseconds, changedNanoseconds) < time
    }
}

/// A document as a listing knows it: from its file or from the index.
struct IndexedDocument: Sendable {
    /// The file's stamp when it was read.
    var stamp: FileStamp
    /// Whether the stamp can vouch for the content at the next listing (`FileStamp.isSettled(before:)`).
    var isSettled: Bool
    var summary: DocumentSummary
    var text: SearchableText
    /// Whether the file was gone, or no longer a regular file, when it was to be read (a listing
    /// that did not `stat` it first): it is then not listed, as a file gone before the folder's
    /// `stat`s would not be.
    var isGone = false
}
