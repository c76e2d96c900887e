import Foundation

/// Reads `.gallery` archives and enforces every rule of spec §reading on them.
///
/// Three depths, each as cheap as its use allows:
/// - `summary(of:)` — `mimetype` and `manifest.json` only, through the streaming reader (browsing);
/// - `open(_:)` — the whole central directory checked (names, types, flags, sizes; no entry data)
///   plus the manifest: O(entries), not O(bytes);
/// - `BundleVerifier` — every byte of every entry.
enum BundleReader {
    /// A document as `open` found it.
    struct Opened {
        var gallery: Gallery
        var contents: BundleContents
        var identity: FileIdentity
        /// `manifest.json`: the state undo patches apply to (spec §3.7).
        var manifest: StoredManifest
    }

    /// A document's `manifest.json` as stored. Kept as bytes until an undo patch needs its tree:
    /// opening a document builds only the gallery.
    enum StoredManifest: Sendable {
        case bytes(Data)
        case tree(JSONValue)

        func tree(limits: BundleLimits) throws -> JSONValue {
            switch self {
            case .bytes(let data): try ManifestParser.parse(data, limits: limits.parsing)
            case .tree(let tree): tree
            }
        }
    }

    /// Opens the document at `url`, checking its whole structure and reading its manifest.
    /// - Throws: `GalleryError` naming the file: `.fileNotFound`, `.damagedDocument`,
    ///   `.unsafeArchive`, `.limitExceeded` or `.unsupportedVersion`.
    /// - Complexity: O(entries + manifest size).
    static func open(_ url: URL, limits: BundleLimits = .standard) throws -> Opened {
        try GalleryError.attributing(to: url) {
            let descriptor = FileLocation.open(url, O_RDONLY | O_CLOEXEC)
            guard descriptor >= 0 else { throw GalleryError.system("cannot open", url: url) }
            let identity: FileIdentity
            do {
                identity = try FileIdentity(fileDescriptor: descriptor, url: url)
                try ZipEnd.check(descriptor)
            } catch {
                close(descriptor)
                throw error
            }
            let reader = try notAGalleryIfUnreadable { try ArchiveReader(fileDescriptor: descriptor, access: .seekable) }
            var contents = BundleContents()
            var manifest: Data?
            var index = 0
            while let entry = try reader.nextEntry() {
                try check(entry, at: index, in: contents, limits: limits)
                index += 1
                guard entry.kind == .regularFile else { continue }
                contents.append(entry.name, size: entry.declaredSize ?? 0)
                if entry.name == BundleLayout.mimetypeName {
                    try checkMimetype(reader, isFirst: contents.names.count == 1, limits: limits)
                } else if entry.name == BundleLayout.manifestName {
                    manifest = try readManifest(reader, declaredSize: entry.declaredSize, limits: limits)
                }
            }
            guard contents.names.first == BundleLayout.mimetypeName else {
                throw GalleryError(.damagedDocument, "not a gallery document (mimetype is missing)")
            }
            guard let manifest else {
                throw GalleryError(.damagedDocument, "not a gallery document (manifest.json is missing)")
            }
            let gallery = try Manifest.decode(manifest, limits: limits)
            try checkReferences(of: gallery, in: contents)
            return Opened(gallery: gallery, contents: contents, identity: identity, manifest: .bytes(manifest))
        }
    }

    /// Whether the file at `url` starts as a gallery document does: a ZIP whose first entry is
    /// `mimetype`, stored, holding the format's media type (spec §2). Only such a file is ever
    /// replaced by a save: a photo named where a document was meant is not.
    static func startsLikeADocument(_ url: URL) -> Bool {
        let descriptor = FileLocation.open(url, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { return false }
        defer { close(descriptor) }
        var start = [UInt8](repeating: 0, count: 512)
        let count = start.withUnsafeMutableBytes { pread(descriptor, $0.baseAddress, $0.count, 0) }
        guard count >= 30 else { return false }
        let bytes = start.prefix(count)
        func number(_ offset: Int) -> Int { Int(bytes[offset]) | Int(bytes[offset + 1]) << 8 }
        let name = Array(BundleLayout.mimetypeName.utf8), type = Array(BundleLayout.mimetype.utf8)
        let data = 30 + number(26) + number(28)
        return bytes.starts(with: [0x50, 0x4B, 0x03, 0x04]) && number(8) == 0 && number(26) == name.count
            && bytes.dropFirst(30).starts(with: name) && count >= data + type.count && bytes.dropFirst(data).starts(with: type)
    }

    /// Reads only `mimetype` and `manifest.json` — enough to list the document.
    ///
    /// Falls back to `open` when `manifest.json` is not the second entry (a foreign writer).
    /// - Complexity: O(manifest size), whatever the size of the archive.
    static func summary(of url: URL, limits: BundleLimits = .standard) throws -> Gallery {
        try GalleryError.attributing(to: url) { try summary(atPath: Data(FileLocation.bytes(of: url)), limits: limits) }
    }

    /// `summary(of:limits:)` of the file whose path is `path`'s bytes, as a listing knows it: its
    /// URL is made only for a message or a foreign writer's document. The errors are not yet
    /// attributed to the file (`GalleryError.about(_:)`).
    static func summary(atPath path: Data, limits: BundleLimits = .standard) throws -> Gallery {
        let descriptor = FileLocation.open(path: path, O_RDONLY | O_CLOEXEC)
        guard descriptor >= 0 else { throw GalleryError.system("cannot open", url: FileLocation.fileURL(forPath: path)) }
        return try summary(readingFrom: descriptor, path: path, limits: limits)
    }

    /// `summary(atPath:limits:)` of the file open as `descriptor`, which it takes over (and closes).
    static func summary(readingFrom descriptor: Int32, path: Data, limits: BundleLimits = .standard) throws -> Gallery {
        do {
            try ZipEnd.check(descriptor)
        } catch {
            close(descriptor)
            throw error
        }
        let reader = try notAGalleryIfUnreadable { try ArchiveReader(fileDescriptor: descriptor, access: .streaming) }
        return try leadingSummary(from: reader, limits: limits) ?? open(FileLocation.fileURL(forPath: path), limits: limits).gallery
    }

    /// The gallery of a document whose first two entries are `mimetype` and `manifest.json`, as
    /// GalleryKit writes them; `nil` if they are not (the whole document must then be opened).
    private static func leadingSummary(from reader: ArchiveReader, limits: BundleLimits) throws -> Gallery? {
        // Room for the two from the start: growing the contents twice took 1,800 instructions more.
        var contents = BundleContents(reservingCapacity: 2)
        for index in 0..<2 {
            guard let entry = try reader.nextEntry() else { break }
            // A streamed writer's local headers may leave the size to a data descriptor;
            // the reads below are capped anyway.
            try check(entry, at: index, in: contents, limits: limits, requiringSize: false)
            guard entry.kind == .regularFile else { break }
            contents.append(entry.name, size: entry.declaredSize ?? 0)
            switch (index, entry.name) {
            case (0, BundleLayout.mimetypeName):
                try checkMimetype(reader, isFirst: true, limits: limits)
            case (0, _):
                throw GalleryError(.damagedDocument, "not a gallery document (mimetype is not the first entry)")
            case (1, BundleLayout.manifestName):
                return try Manifest.decode(try readManifest(reader, declaredSize: entry.declaredSize, limits: limits), limits: limits)
            default:
                break
            }
        }
        return nil
    }

    /// Visits the named entries in one pass over the archive, in stored order, positioned so that
    /// `visit` can read each one's data (through the reader, within the limits), with each
    /// entry's header (its name, and its compression method for the verifier's writer rules).
    /// - Parameter blockSize: the bytes read at a time: small to pick a few entries out of a
    ///   large archive, large to read most of it (`ArchiveReader.init(contentsOf:access:blockSize:)`).
    static func visitEntries(
        named names: Set<String>,
        of url: URL,
        blockSize: Int = 4096,
        _ visit: (_ entry: ArchiveEntry, _ reader: ArchiveReader) throws -> Void
    ) throws {
        guard !names.isEmpty else { return }
        try GalleryError.attributing(to: url) {
            let reader = try ArchiveReader(contentsOf: url, access: .seekable, blockSize: blockSize)
            var remaining = names
            while !remaining.isEmpty, let entry = try reader.nextEntry() {
                guard remaining.remove(entry.name) != nil else { continue }
                try visit(entry, reader)
            }
        }
    }

    /// Reads the named entries into memory, each at most `maximumBytes`.
    static func readEntries(
        named names: Set<String>, of url: URL, maximumBytes: Int64, limits: BundleLimits = .standard
    ) throws -> [String: Data] {
        var found: [String: Data] = [:]
        try visitEntries(named: names, of: url) { entry, reader in
            let name = entry.name
            found[name] = try reader.readData(maximumBytes: maximumBytes, inflation: limits.inflation)
        }
        return found
    }

    /// Spec §reading: one entry's header, before any of its data is read.
    static func check(
        _ entry: ArchiveEntry,
        at index: Int,
        in contents: BundleContents,
        limits: BundleLimits,
        requiringSize: Bool = true
    ) throws {
        guard index < limits.maximumEntries else {
            throw GalleryError(.limitExceeded, "the archive has more than \(limits.maximumEntries) entries")
        }
        try BundleLayout.checkName(entry.name)
        switch entry.kind {
        case .regularFile, .directory: break
        case .symbolicLink: throw GalleryError(.unsafeArchive, "entry \(entry.name) is a symbolic link")
        case .hardLink: throw GalleryError(.unsafeArchive, "entry \(entry.name) is a hard link")
        case .special: throw GalleryError(.unsafeArchive, "entry \(entry.name) is a device or other special file")
        }
        if entry.isEncrypted { throw GalleryError(.unsafeArchive, "entry \(entry.name) is encrypted") }
        // Spec §container: stored or deflate only, so no other decoder ever sees untrusted bytes.
        if entry.kind == .regularFile, let method = entry.compression, !["uncompressed", "deflation"].contains(method) {
            throw GalleryError(.unsafeArchive, "entry \(entry.name) uses \(method) compression; documents use only stored or deflate")
        }
        if contents.contains(entry.name) { throw GalleryError(.unsafeArchive, "entry \(entry.name) appears twice") }
        if requiringSize, entry.kind == .regularFile, entry.declaredSize == nil {
            throw GalleryError(.damagedDocument, "entry \(entry.name) does not declare its size")
        }
    }

    private static func checkMimetype(_ reader: ArchiveReader, isFirst: Bool, limits: BundleLimits) throws {
        guard isFirst else { throw GalleryError(.damagedDocument, "not a gallery document (mimetype is not the first entry)") }
        let data: Data
        do {
            data = try reader.readData(maximumBytes: 256, inflation: limits.inflation)
        } catch let error as GalleryError where error.code == .limitExceeded {
            throw GalleryError(.damagedDocument, "not a gallery document (mimetype is longer than 256 bytes)")
        }
        // Compared in place with the literal's own bytes: making the expected bytes a `Data` for
        // each document took 1,800 instructions (and one kept in a static is reported as leaked
        // by the fuzzers' sanitizer); comparing with its UTF-8 view byte by byte, 1,300.
        var expected = BundleLayout.mimetype
        let isExpected = expected.withUTF8 { expected in
            data.withUnsafeBytes { found in
                found.count == expected.count && memcmp(found.baseAddress!, expected.baseAddress!, expected.count) == 0
            }
        }
        guard isExpected else {
            let found = String(decoding: data.prefix(64), as: UTF8.self)
            throw GalleryError(
                .damagedDocument, "not a gallery document (mimetype is \(found.debugDescription), not \(BundleLayout.mimetype))")
        }
    }

    private static func readManifest(_ reader: ArchiveReader, declaredSize: Int64?, limits: BundleLimits) throws -> Data {
        ManifestParser.prepareWorkers(forManifestOf: declaredSize ?? 0, limits: limits.parsing)
        do {
            return try reader.readData(maximumBytes: limits.maximumManifestBytes, inflation: limits.inflation)
        } catch let error as GalleryError where error.code == .limitExceeded {
            throw GalleryError(.limitExceeded, "manifest.json is larger than the \(limits.maximumManifestBytes / 1_048_576) MiB limit")
        }
    }

    /// Spec §manifest: every cached image's entry exists and has the size the manifest records.
    /// - Parameters:
    ///   - revision: the undo or redo revision `gallery` comes from, if it is not the manifest.
    ///   - supplied: entries that will be written from elsewhere (bytes cached since opening).
    static func checkReferences(
        of gallery: Gallery,
        in contents: BundleContents,
        revision: String? = nil,
        supplied: Set<String> = []
    ) throws {
        let place = revision.map { " in \($0)" } ?? ""
        for (offset, image) in gallery.images.enumerated() {
            guard let cached = image.cached, !supplied.contains(cached.path) else { continue }
            guard let size = contents.sizes[cached.path] else {
                throw GalleryError(.damagedDocument, "image \(offset + 1)\(place) is cached at \(cached.path), which is not in the archive")
            }
            guard size == cached.bytes else {
                throw GalleryError(
                    .damagedDocument, "image \(offset + 1)\(place): \(cached.path) holds \(size) bytes, the manifest says \(cached.bytes)")
            }
        }
    }

    /// A file libarchive cannot read as a zip at all is simply not a gallery document.
    private static func notAGalleryIfUnreadable(_ body: () throws -> ArchiveReader) throws -> ArchiveReader {
        do {
            return try body()
        } catch let error as GalleryError where error.code == .damagedDocument {
            // libarchive's words ("Unrecognized archive format") are the detail, not the reason.
            let detail = error.detail ?? error.reason
            let what = detail == "Unrecognized archive format" ? "not a zip archive" : "its zip directory is damaged"
            throw GalleryError(.damagedDocument, "not a gallery document (\(what))", detail: detail)
        }
    }
}
