import Foundation

/// A gallery stored in a `.gallery` file: open it, edit it, undo and redo, save it atomically.
///
/// ```swift
/// try GalleryDocument.modify(at: url) { document in
///     try document.edit { try $0.move(fromOffsets: [2, 5], toOffset: 0) }
/// }
/// ```
/// `modify(at:)` is the safe way to edit from several processes: it holds the folder's lock while
/// it re-reads, edits and saves. A document kept open longer (a UI) saves with `save()`, which
/// refuses with `.documentChanged` rather than overwrite a newer version saved by someone else.
public struct GalleryDocument: Sendable {
    /// Where the document lives.
    public let url: URL
    /// The gallery as currently edited.
    public private(set) var gallery: Gallery {
        didSet { galleryManifest = nil }
    }
    /// `gallery`'s manifest, when known without building it: as read from disk, or as built for
    /// an edit's undo patch. Kept because building it is most of an edit's cost.
    var galleryManifest: BundleReader.StoredManifest?

    /// What the file on disk holds; `nil` for a document not saved yet.
    var contents: BundleContents?
    /// The file as it was when opened; `nil` for a document not saved yet.
    var identity: FileIdentity?
    /// Earlier states, most recent first, each a patch from the state one step newer (spec §3.7).
    var undoStack: [Revision] = []
    var redoStack: [Revision] = []
    /// Bytes cached since the last save, by entry name.
    var pendingEntries: [String: BundleWriter.Entry.Source] = [:]
    /// The thumbnails the preview in the file was made from.
    var previewShows: [String] = []
    /// Folders of downloaded files that pending entries are copied from, kept until saved.
    var spools: [DownloadSpool] = []
    /// Other documents that pending entries are copied from, and what they hold.
    var otherSources: [URL: BundleContents] = [:]
    let limits: BundleLimits

    enum Revision: Sendable {
        /// A revision already in the file, by entry name: a patch, or a whole manifest as
        /// GalleryKit 0.1.0 wrote them.
        case stored(String)
        /// A patch made in this session (RFC 6902), from the state one step newer to this one.
        case patch(JSONValue)
    }

    /// Opens the document at `url`, checking its structure and reading its manifest.
    /// - Throws: `GalleryError` naming the file (`.fileNotFound`, `.damagedDocument`,
    ///   `.unsafeArchive`, `.limitExceeded`, `.unsupportedVersion`).
    /// - Complexity: O(entries + manifest size); no image data is read.
    public init(contentsOf url: URL, limits: BundleLimits = .standard) throws {
        let opened = try BundleReader.open(url, limits: limits)
        self.init(url: url, opened: opened, limits: limits)
    }

    /// The document `opened` describes: read from disk, or just written.
    private init(url: URL, opened: BundleReader.Opened, limits: BundleLimits) {
        self.url = url
        self.gallery = opened.gallery
        self.galleryManifest = opened.manifest
        self.contents = opened.contents
        self.identity = opened.identity
        self.limits = limits
        undoStack = opened.contents.revisions(.undo).map(Revision.stored)
        redoStack = opened.contents.revisions(.redo).map(Revision.stored)
        previewShows = opened.contents.contains(BundleLayout.previewName) ? previewThumbnails(of: opened.gallery) : []
    }

    /// A new document for `url`, not written until `save()`.
    public init(creating url: URL, gallery: Gallery, limits: BundleLimits = .standard) {
        self.url = url
        self.gallery = gallery
        self.limits = limits
    }

    /// Forgets all undo and redo steps (a new document, an export to share).
    public mutating func clearHistory() {
        undoStack.removeAll()
        redoStack.removeAll()
    }

    /// Whether there is an edit to undo.
    public var canUndo: Bool { !undoStack.isEmpty }
    /// Whether there is an undone edit to redo.
    public var canRedo: Bool { !redoStack.isEmpty }

    /// Applies an edit to the gallery and records the previous state for undo.
    ///
    /// An edit that changes nothing takes no undo step. If `change` throws, nothing changes.
    /// - Complexity: O(n log n) in the number of images, for the undo step's patch.
    public mutating func edit(_ change: (inout Gallery) throws -> Void) throws {
        var edited = gallery
        // The model's errors ("image 9 does not exist") know no file; this document is the one.
        try GalleryError.attributing(to: url) { try change(&edited) }
        guard edited != gallery else { return }
        let editedJSON = Manifest.json(of: edited)
        undoStack.insert(.patch(RevisionPatch.difference(from: editedJSON, to: try currentJSON())), at: 0)
        undoStack = Array(undoStack.prefix(limits.maximumRevisions))
        redoStack.removeAll()
        gallery = edited
        galleryManifest = .tree(editedJSON)
    }

    /// Goes back to the state before the last edit; cached bytes the edit dropped come back too.
    /// - Throws: `.invalidArgument` if there is nothing to undo.
    public mutating func undo() throws {
        try step(from: \.undoStack, to: \.redoStack, orSay: "there is nothing to undo")
    }

    /// Re-applies the last undone edit.
    /// - Throws: `.invalidArgument` if there is nothing to redo.
    public mutating func redo() throws {
        try step(from: \.redoStack, to: \.undoStack, orSay: "there is nothing to redo")
    }

    /// Makes the newest revision of one side current, pushing the current state onto the other.
    private mutating func step(
        from side: WritableKeyPath<GalleryDocument, [Revision]>,
        to otherSide: WritableKeyPath<GalleryDocument, [Revision]>,
        orSay emptyMessage: String
    ) throws {
        guard let revision = self[keyPath: side].first else { throw GalleryError(.invalidArgument, url: url, emptyMessage) }
        let (restored, restoredJSON) = try load(revision)
        let back = RevisionPatch.difference(from: restoredJSON, to: try currentJSON())
        self[keyPath: otherSide].insert(.patch(back), at: 0)
        self[keyPath: otherSide] = Array(self[keyPath: otherSide].prefix(limits.maximumRevisions))
        self[keyPath: side].removeFirst()
        gallery = restored
        galleryManifest = .tree(restoredJSON)
    }

    /// The current gallery's manifest as a JSON tree.
    private func currentJSON() throws -> JSONValue {
        guard let galleryManifest else { return Manifest.json(of: gallery) }
        return try GalleryError.attributing(to: url) { try galleryManifest.tree(limits: limits) }
    }

    /// The state `revision` describes, one step from the current one, and its JSON.
    private func load(_ revision: Revision) throws -> (Gallery, JSONValue) {
        try GalleryError.attributing(to: url) {
            switch revision {
            case .patch(let patch):
                let state = try RevisionPatch.apply(patch, to: try currentJSON())
                return (try Manifest.gallery(from: state, limits: limits), state)
            case .stored(let name):
                let data = try BundleReader.readEntries(named: [name], of: url, maximumBytes: limits.maximumManifestBytes, limits: limits)
                guard let stored = data[name] else { throw GalleryError(.damagedDocument, "\(name) is missing") }
                let tree = try ManifestParser.parse(stored, limits: limits.parsing)
                let state = try RevisionPatch.state(of: tree, from: try currentJSON())
                let revision = try Manifest.gallery(from: state, limits: limits)
                // Restoring it must give a document that opens: its cached bytes are all here.
                if let contents {
                    try BundleReader.checkReferences(of: revision, in: contents, revision: name, supplied: Set(pendingEntries.keys))
                }
                return (revision, state)
            }
        }
    }

}

// MARK: - Saving

extension GalleryDocument {
    /// Edits the document at `url` under its folder's lock: opens it afresh, runs `body`, saves.
    ///
    /// Two processes editing the same document at once both keep their edits: the second waits
    /// for the first, then re-reads what the first saved. Nothing is written if `body` throws.
    /// - Throws: `.busy` if the lock is not free within `lockTimeout`; whatever `body` throws.
    @discardableResult
    public static func modify<T>(
        at url: URL,
        lockTimeout: Duration = .seconds(5),
        limits: BundleLimits = .standard,
        _ body: (inout GalleryDocument) throws -> T
    ) throws -> T {
        guard FileLocation.status(of: url) != nil else {
            throw GalleryError(.fileNotFound, url: url, "no such document")
        }
        let lock = try FileLock(forDocumentAt: FileLocation.target(of: url), timeout: lockTimeout)
        var document = try GalleryDocument(contentsOf: url, limits: limits)
        let result = try GalleryError.attributing(to: url) { try body(&document) }
        try document.saveHoldingLock()
        withExtendedLifetime(lock) {}
        return result
    }

    /// Whether the file at `url` starts as a gallery document does (a ZIP whose first entry is
    /// the format's `mimetype`): the only kind of file a save replaces. A document cut short
    /// still does; a photo does not.
    public static func startsLikeADocument(_ url: URL) -> Bool {
        BundleReader.startsLikeADocument(url)
    }

    /// Saves the document where it lives, atomically.
    ///
    /// - Parameters:
    ///   - replacingExisting: for a new document, replace a gallery document already at `url`
    ///     (otherwise that is `.alreadyExists`). A file that is not one (a photo named where the
    ///     document was meant) is never replaced: that is `.alreadyExists` too.
    ///   - lockTimeout: how long to wait for the folder's lock before failing with `.busy`.
    /// - Throws: `.busy` if another process holds the lock; `.documentChanged` if the file was
    ///   replaced since this document was opened (re-open it and edit again).
    public mutating func save(replacingExisting: Bool = false, lockTimeout: Duration = .seconds(5)) throws {
        let lock = try FileLock(forDocumentAt: FileLocation.target(of: url), timeout: lockTimeout)
        try saveHoldingLock(replacingExisting: replacingExisting)
        withExtendedLifetime(lock) {}
    }

    mutating func saveHoldingLock(replacingExisting: Bool = false) throws {
        if let identity, FileIdentity.current(of: url) != identity {
            throw GalleryError(.documentChanged, url: url, "changed on disk since it was opened; open it again and repeat the edit")
        }
        // Through a symbolic link, the file it points to is saved, and the link stays.
        let file = FileLocation.target(of: url)
        if identity == nil, replacingExisting, FileIdentity.current(of: file) != nil, !BundleReader.startsLikeADocument(file) {
            throw GalleryError(.alreadyExists, url: url, "is not a gallery document, and nothing but a gallery document is ever replaced")
        }
        AtomicFile.removeStaleTemporaryFiles(for: file)
        var saved = gallery
        saved.modified = Date.now.wholeSeconds
        saved.generator = GalleryKitVersion.generator
        let mode: AtomicFile.Mode = identity != nil || replacingExisting ? .replace : .createNew
        let written = try write(saved, to: file, naming: url, mode: mode, includingHistory: true, manifest: savedManifest(saved))
        // What was just written, without reading it back: every limit was checked before writing.
        let opened = BundleReader.Opened(
            gallery: saved, contents: written.contents, identity: written.identity, manifest: .tree(written.manifest))
        self = GalleryDocument(url: url, opened: opened, limits: limits)
    }

    /// The manifest tree of `saved` — the current gallery with a new `modified` and `generator` —
    /// from the current one's when it is built already (after an edit): building a tree of
    /// 10,000 images again took a tenth of the edit.
    private func savedManifest(_ saved: Gallery) -> JSONValue? {
        guard case .tree(let tree)? = galleryManifest else { return nil }
        return Manifest.json(of: saved, restamping: tree)
    }

    /// Writes `gallery` with this document's cached bytes, history and extension entries to `destination`.
    ///
    /// Spec §9.1: nothing is written that this version's own reader would reject — every limit
    /// of §8.2 is checked on the entries first, so a save over a limit fails with the document
    /// unchanged instead of replacing it with one that no longer opens.
    /// - Parameters:
    ///   - name: the file errors name, if not `destination` (a link to it).
    ///   - knownTree: `gallery`'s manifest as a JSON tree, if already built.
    /// - Returns: what the new file holds, its identity, and its manifest as a JSON tree.
    @discardableResult
    func write(
        _ gallery: Gallery, to destination: URL, naming name: URL? = nil, mode: AtomicFile.Mode, includingHistory: Bool,
        manifest knownTree: JSONValue? = nil
    ) throws -> WrittenDocument {
        let undo = includingHistory ? Array(undoStack.prefix(limits.maximumRevisions)) : []
        let redo = includingHistory ? Array(redoStack.prefix(limits.maximumRevisions)) : []
        let storedRevisions = Set(
            (undo + redo).compactMap { revision -> String? in
                if case .stored(let name) = revision { return name } else { return nil }
            })
        let storedData = try BundleReader.readEntries(
            named: storedRevisions, of: url, maximumBytes: limits.maximumManifestBytes, limits: limits)

        func planned(_ revision: Revision) throws -> BundlePlan.Revision {
            switch revision {
            case .patch(let patch): return BundlePlan.Revision(tree: patch, data: try Manifest.serialize(patch))
            case .stored(let name):
                guard let data = storedData[name] else { throw GalleryError(.damagedDocument, url: url, "\(name) is missing") }
                let tree = try GalleryError.attributing(to: url) { try ManifestParser.parse(data, limits: limits.parsing) }
                return BundlePlan.Revision(tree: tree, data: data)
            }
        }

        let tree = knownTree ?? Manifest.json(of: gallery)
        let manifest = try Manifest.serialize(tree)
        let plan = try GalleryError.attributing(to: url) {
            try BundlePlan(
                manifest: manifest, gallery: gallery, undo: undo.map(planned), redo: redo.map(planned), pending: pendingEntries,
                existing: contents.map { BundlePlan.Existing(url: url, contents: $0) }, preview: previewSource(for: gallery))
        }
        try GalleryError.attributing(to: name ?? destination) { try plan.check(against: limits, images: gallery.images.count) }

        var sources = otherSources
        sources[url] = contents
        let writer = BundleWriter(sources: sources, limits: limits)
        var written = BundleContents()
        let identity = try AtomicFile.write(to: destination, naming: name, mode: mode) { descriptor in
            written = try writer.write(plan.entries, modified: gallery.modified, to: descriptor)
        }
        return WrittenDocument(contents: written, identity: identity, manifest: tree)
    }

    /// What `write` made: the new file's entries, its identity, and its manifest as a JSON tree.
    struct WrittenDocument {
        var contents: BundleContents
        var identity: FileIdentity
        var manifest: JSONValue
    }

    /// Spec §3.4: a contact sheet of the first thumbnails, made again only when they change.
    /// A preview that cannot be made is left out; it never fails a save.
    private func previewSource(for gallery: Gallery) -> BundleWriter.Entry.Source? {
        let shown = previewThumbnails(of: gallery)
        guard !shown.isEmpty else { return nil }
        if shown == previewShows { return .archived(url, name: BundleLayout.previewName) }
        guard let thumbnails = try? bytes(ofEntries: shown), let jpeg = try? Thumbnailer.previewJPEG(of: thumbnails) else { return nil }
        return .data(jpeg)
    }

    /// The first thumbnails the document has, which its preview shows.
    func previewThumbnails(of gallery: Gallery) -> [String] {
        let available = gallery.images.lazy.compactMap(\.thumbnail).filter { pendingEntries[$0] != nil || contents?.contains($0) == true }
        return Array(available.prefix(PageStyle.previewCount))
    }

    /// The bytes of small entries (thumbnails) that will be written, wherever they are now, in
    /// the order of `names`. Entries of one archive are read in one pass over it.
    private func bytes(ofEntries names: [String]) throws -> [Data] {
        let limit: Int64 = 16 << 20
        var archived: [URL: [String: String]] = [:]  // archive → stored name → entry name
        var found: [String: Data] = [:]
        for name in names {
            switch pendingEntries[name] {
            case .data(let data)?: found[name] = data
            case .file(let file, _)?: found[name] = try Data(contentsOf: file)
            case .archived(let source, let stored)?: archived[source, default: [:]][stored] = name
            case nil: archived[url, default: [:]][name] = name
            }
        }
        for (source, wanted) in archived {
            let data = try BundleReader.readEntries(named: Set(wanted.keys), of: source, maximumBytes: limit, limits: limits)
            for (stored, name) in wanted { found[name] = data[stored] ?? Data() }
        }
        return names.map { found[$0] ?? Data() }
    }
}
