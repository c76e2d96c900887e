import Foundation

/// Writes a `.gallery` archive from a list of entries, in the spec's fixed order (§entries).
///
/// Entry data can come from memory, from a local file (which must still be the file that was
/// hashed — same inode, size and modification time — so changed bytes cannot end up under the
/// wrong content address; comparing that is what spares a second SHA-256 pass), or from the
/// document being replaced (copied without holding it in memory).
struct BundleWriter {
    struct Entry {
        enum Source {
            case data(Data)
            /// A local file, as it was when its digest was taken.
            case file(URL, identity: FileIdentity)
            /// An entry of an existing document (the one being replaced, or another one), possibly
            /// written under another name.
            case archived(URL, name: String)
        }

        var name: String
        var source: Source
        var compression: ArchiveWriter.Compression

        /// An entry compressed as the format says for its name.
        init(name: String, source: Source) {
            self.name = name
            self.source = source
            self.compression = BundleLayout.compression(ofEntryNamed: name)
        }
    }

    /// The documents `.archived` entries come from, and what each holds.
    var sources: [URL: BundleContents]
    var limits: BundleLimits = .standard

    /// Writes `entries` (in any order; they are sorted here) to `descriptor`.
    /// - Returns: what the archive holds, as `BundleReader.open` would list it.
    /// - Complexity: O(total bytes); memory O(largest in-memory entry).
    @discardableResult
    func write(_ entries: [Entry], modified: Date, to descriptor: Int32) throws -> BundleContents {
        let ordered = entries.sorted { BundleLayout.precedes($0.name, $1.name) }
        let writer = try ArchiveWriter(fileDescriptor: descriptor)
        var cursors: [URL: SourceCursor] = [:]
        var written = BundleContents()
        for entry in ordered {
            switch entry.source {
            case .data(let data):
                try writer.writeEntry(named: entry.name, data: data, modified: modified, compression: entry.compression)
                written.append(entry.name, size: Int64(data.count))
            case .file(let url, let identity):
                try writer.writeEntry(named: entry.name, size: identity.size, modified: modified, compression: entry.compression) { write in
                    try FileChunks.read(url, expecting: identity, write)
                }
                written.append(entry.name, size: identity.size)
            case .archived(let url, let name):
                guard let contents = sources[url] else {
                    throw GalleryError(.damagedDocument, url: url, "entry \(name) is missing from the document")
                }
                var cursor = cursors[url] ?? SourceCursor(url: url, contents: contents, limits: limits)
                try cursor.copy(name, as: entry.name, compression: entry.compression, modified: modified, into: writer)
                cursors[url] = cursor
                written.append(entry.name, size: contents.sizes[name] ?? 0)
            }
        }
        try writer.finish()
        return written
    }
}

/// Walks the source archive forward, reopening it only when an entry is wanted out of stored order
/// (which never happens for archives this writer wrote: they are already in the spec's order).
private struct SourceCursor {
    let url: URL
    let contents: BundleContents
    let limits: BundleLimits
    private var reader: ArchiveReader?
    private var position = -1

    init(url: URL, contents: BundleContents, limits: BundleLimits) {
        self.url = url
        self.contents = contents
        self.limits = limits
    }

    mutating func copy(
        _ name: String,
        as newName: String,
        compression: ArchiveWriter.Compression,
        modified: Date,
        into writer: ArchiveWriter
    ) throws {
        guard let target = contents.positions[name], let size = contents.sizes[name] else {
            throw GalleryError(.damagedDocument, url: url, "entry \(name) is missing from the document")
        }
        if reader == nil || target <= position {
            reader = try GalleryError.attributing(to: url) { try ArchiveReader(contentsOf: url, access: .seekable) }
            position = -1
        }
        guard let reader else { return }
        // Positions count regular files only; directory entries are skipped over without counting.
        while position < target {
            guard let entry = try GalleryError.attributing(to: url, { try reader.nextEntry() }) else {
                throw GalleryError(.damagedDocument, url: url, "entry \(name) is missing from the document")
            }
            if entry.kind == .regularFile { position += 1 }
        }
        let inflation = limits.inflation
        // Reading errors are the source's; writing errors (a full disk) stay unnamed, for the
        // save to name the document being written.
        do {
            try writer.writeEntry(named: newName, size: size, modified: modified, compression: compression) { write in
                try GalleryError.attributing(to: url) {
                    _ = try reader.readData(inflation: inflation) { chunk in
                        do { try write(chunk) } catch let error as GalleryError { throw OutputFailure(error: error) }
                    }
                }
            }
        } catch let failure as OutputFailure {
            throw failure.error
        }
    }
}

/// A writing error carried out through the source's attribution untouched.
private struct OutputFailure: Error {
    let error: GalleryError
}
