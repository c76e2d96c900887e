import Foundation

/// The entries one save writes, worked out whole in the format's terms: `mimetype` and the
/// manifest; the cached bytes and thumbnails the gallery or any revision refers to (spec §3.7:
/// they stay while anything refers to them); the preview; the extension entries of the old file
/// (spec §compatibility); and the history, each revision named by its side and number. Each is
/// compressed as spec §2.2 says (`BundleLayout.compression(ofEntryNamed:)`) and put in order by
/// `BundleWriter`.
///
/// The document says what it holds (its gallery, its revisions, where each entry's bytes are
/// now); this type decides which entries a save writes, and checks the whole against the limits
/// (§9.1) before a byte is written.
struct BundlePlan {
    /// One revision of the history to write: its tree (for what it refers to) and its bytes.
    struct Revision {
        var tree: JSONValue
        var data: Data
    }

    /// Where entries of the document's file come from: the file itself and what it holds.
    struct Existing {
        var url: URL
        var contents: BundleContents
    }

    /// The entries (`BundleWriter` sorts them).
    private(set) var entries: [BundleWriter.Entry]
    /// The serialised manifest.
    let manifest: Data
    /// Each revision's bytes, for the limits.
    private(set) var revisions: [Data] = []

    /// The plan of a save of `gallery`.
    /// - Parameters:
    ///   - manifest: `gallery`'s manifest, serialised.
    ///   - undo, redo: the history's two sides, most recent first.
    ///   - pending: bytes cached since the file was read, by entry name.
    ///   - existing: the file saved over or copied from, if any: its entries are carried over.
    ///   - preview: the preview's bytes, if the gallery has one.
    /// - Throws: `.damagedDocument` (naming no file) when cached bytes something refers to are
    ///   neither pending nor in the file.
    init(
        manifest: Data, gallery: Gallery, undo: [Revision], redo: [Revision], pending: [String: BundleWriter.Entry.Source],
        existing: Existing?, preview: BundleWriter.Entry.Source?
    ) throws {
        self.manifest = manifest
        entries = [
            BundleWriter.Entry(name: BundleLayout.mimetypeName, source: .data(Data(BundleLayout.mimetype.utf8))),
            BundleWriter.Entry(name: BundleLayout.manifestName, source: .data(manifest)),
        ]
        var referenced = References(gallery)
        for revision in undo + redo { referenced.formUnion(References(RevisionPatch.referencedEntries(in: revision.tree))) }
        let held = existing?.contents
        for path in referenced.images.sorted() {
            if let source = pending[path] {
                add(path, from: source)
            } else if let existing, held?.contains(path) == true {
                add(path, from: .archived(existing.url, name: path))
            } else {
                throw GalleryError(.damagedDocument, "the bytes of \(path) are missing")
            }
        }
        for path in referenced.thumbnails.sorted() where held?.contains(path) != true {
            if let source = pending[path] { add(path, from: source) }
        }
        if let preview { add(BundleLayout.previewName, from: preview) }
        if let existing {
            for name in existing.contents.names where Self.keeps(name, referenced: referenced) {
                add(name, from: .archived(existing.url, name: name))
            }
        }
        for (side, sideRevisions) in [(BundleLayout.RevisionSide.undo, undo), (.redo, redo)] {
            for (offset, revision) in sideRevisions.enumerated() {
                revisions.append(revision.data)
                add(BundleLayout.revisionPath(side, number: offset + 1), from: .data(revision.data))
            }
        }
    }

    /// Checks the plan against `limits` for a gallery of `images` images (spec §9.1: nothing is
    /// written that this version's reader would reject).
    /// - Throws: `.limitExceeded` naming the limit; the error names no file (the caller's does).
    func check(against limits: BundleLimits, images: Int) throws {
        try limits.checkWritable(manifest: manifest, images: images, entries: entries.count, revisions: revisions)
    }

    private mutating func add(_ name: String, from source: BundleWriter.Entry.Source) {
        entries.append(BundleWriter.Entry(name: name, source: source))
    }

    /// Whether an entry of the old file is carried over as it is: a thumbnail still in use, or
    /// an extension entry this version does not know (spec §compatibility).
    private static func keeps(_ name: String, referenced: References) -> Bool {
        if BundleLayout.kind(of: name) == .thumbnail { return referenced.thumbnails.contains(name) }
        return !BundleLayout.isKnown(name)
    }
}

/// The entries a gallery or a revision refers to.
private struct References {
    var images: Set<String> = []
    var thumbnails: Set<String> = []

    init(_ gallery: Gallery) {
        for image in gallery.images {
            if let cached = image.cached {
                images.insert(cached.path)
                thumbnails.insert(BundleLayout.thumbnailPath(sha256: cached.sha256))
            }
            if let thumbnail = image.thumbnail { thumbnails.insert(thumbnail) }
        }
    }

    init(_ entries: (images: Set<String>, thumbnails: Set<String>)) {
        images = entries.images
        thumbnails = entries.thumbnails
    }

    mutating func formUnion(_ other: References) {
        images.formUnion(other.images)
        thumbnails.formUnion(other.thumbnails)
    }
}
