import Foundation

/// Reads every byte of a document and checks it (spec §verification): CRCs and sizes of every
/// entry, the zip-bomb limit, each cached image's SHA-256 against its name and the manifest, that
/// every undo revision is a readable manifest, and the writer rules that readers forgive (a stored
/// `mimetype`, `manifest.json` second) — verification is the format's conformance checker.
public enum BundleVerifier {
    /// What a successful verification covered.
    public struct Report: Sendable, Equatable {
        /// Archive entries checked.
        public var entries: Int
        /// Bytes of entry data read and checked.
        public var bytes: Int64
        /// Cached images whose SHA-256 was checked.
        public var cachedImages: Int
        /// Undo and redo revisions read and checked.
        public var revisions: Int
    }

    /// Verifies the document at `url`.
    ///
    /// Problems that make the document unreadable or untrustworthy are reported before those
    /// only a writer rule forbids, so an error about a writer rule means everything else is sound.
    /// - Throws: the first problem found, as a `GalleryError` naming the file: `.damagedDocument`
    ///   also for a document that opens but breaks a writer rule (spec §3.2, §3.3).
    /// - Complexity: O(total bytes).
    public static func verify(_ url: URL, limits: BundleLimits = .standard) throws -> Report {
        let opened = try BundleReader.open(url, limits: limits)
        let expected = opened.gallery.cachedImagesByPath
        var report = Report(entries: 0, bytes: 0, cachedImages: 0, revisions: 0)
        var revisions: [String: JSONValue] = [:]
        var mimetypeCompression: String?
        try BundleReader.visitEntries(named: Set(opened.contents.names), of: url, blockSize: 1 << 20) { (entry: ArchiveEntry, reader) in
            let name = entry.name
            if name == BundleLayout.mimetypeName { mimetypeCompression = entry.compression }
            report.entries += 1
            if name.hasPrefix(BundleLayout.imagesFolder) {
                report.bytes += try readEntry(name, from: reader, expecting: expected[name], limits: limits) { _ in }
                report.cachedImages += expected[name] == nil ? 0 : 1
            } else if BundleLayout.kind(of: name).isRevision {
                let data = try reader.readData(maximumBytes: limits.maximumManifestBytes, inflation: limits.inflation)
                report.bytes += Int64(data.count)
                revisions[name] = try damagedRevision(name) { try ManifestParser.parse(data, limits: limits.parsing) }
                report.revisions += 1
            } else {
                report.bytes += try reader.readData(inflation: limits.inflation) { _ in }
            }
        }
        try GalleryError.attributing(to: url) {
            try checkHistory(revisions, of: opened, limits: limits)
            try checkWriterRules(entries: opened.contents.names, mimetypeCompression: mimetypeCompression)
        }
        return report
    }

    /// Reads the entry `reader` is at to its end, handing its bytes to `consume`, and checks it
    /// as it goes: CRC-32, exact size and the inflation limit, and for cached bytes
    /// (`images/<sha256>.<ext>`) the SHA-256 their name and the manifest (`cached`) give.
    /// - Returns: the number of bytes read.
    /// - Throws: `.damagedDocument` or `.limitExceeded`, naming the entry (not the document).
    /// - Complexity: O(size of the entry); memory O(one block).
    @discardableResult
    static func readEntry(
        _ name: String, from reader: ArchiveReader, expecting cached: CachedImage?, limits: BundleLimits,
        _ consume: (UnsafeRawBufferPointer) throws -> Void
    ) throws -> Int64 {
        guard name.hasPrefix(BundleLayout.imagesFolder) else { return try reader.readData(inflation: limits.inflation, consume) }
        var hash = ContentHash()
        let bytes = try reader.readData(inflation: limits.inflation) { chunk in
            hash.update(chunk)
            try consume(chunk)
        }
        try check(name, sha256: hash.finalize(), bytes: hash.byteCount, against: cached)
        return bytes
    }

    /// Reads and checks the named entries of the document at `url` (as `readEntry` does),
    /// keeping none of their bytes.
    /// - Parameter cached: the manifest's record of each `images/` entry.
    /// - Throws: the first problem found, naming the document.
    static func checkEntries(named names: Set<String>, of url: URL, expecting cached: [String: CachedImage], limits: BundleLimits) throws {
        var remaining = names
        try BundleReader.visitEntries(named: names, of: url, blockSize: 1 << 20) { entry, reader in
            let name = entry.name
            remaining.remove(name)
            try readEntry(name, from: reader, expecting: cached[name], limits: limits) { _ in }
        }
        if let missing = remaining.min() {
            throw GalleryError(.damagedDocument, url: url, "entry \(missing) is missing from the document")
        }
    }

    /// The writer rules a reader forgives (open accepts such a document) but a conformance
    /// checker must report; `entries` are the regular entries in stored order (directory entries
    /// take no part in the order, spec §3.8).
    private static func checkWriterRules(entries: [String], mimetypeCompression: String?) throws {
        // Spec §3.2: mimetype stored, so its 27 bytes can be found at a fixed place (Appendix B).
        if let method = mimetypeCompression, method != "uncompressed" {
            let how = method == "deflation" ? "deflated" : "compressed (\(method))"
            throw GalleryError(.damagedDocument, "mimetype is \(how); spec §3.2 requires it stored (uncompressed)")
        }
        // Spec §3.3: manifest.json second, so a listing reads two entries, not the whole archive.
        if entries.count < 2 || entries[1] != BundleLayout.manifestName {
            let place = entries.firstIndex(of: BundleLayout.manifestName).map { "regular entry \($0 + 1) of \(entries.count)" } ?? "missing"
            throw GalleryError(
                .damagedDocument, "manifest.json is \(place); spec §3.3 requires it to be the second entry, right after mimetype")
        }
    }

    /// Spec §3.7: each side's revisions, from the manifest outwards, give manifests whose cached
    /// bytes are all in the document — so every undo and redo works. Entries of the history
    /// folders that take no part in the chains (not `.json`) must be whole manifests.
    private static func checkHistory(_ revisions: [String: JSONValue], of opened: BundleReader.Opened, limits: BundleLimits) throws {
        let manifest = Manifest.json(of: opened.gallery)
        var chained = Set<String>()
        for side in [BundleLayout.RevisionSide.undo, .redo] {
            var state = manifest
            for name in opened.contents.revisions(side) {
                guard let revision = revisions[name] else { continue }
                chained.insert(name)
                try damagedRevision(name) {
                    state = try RevisionPatch.state(of: revision, from: state)
                    try check(state, named: name, in: opened.contents, limits: limits)
                }
            }
        }
        for (name, revision) in revisions where !chained.contains(name) {
            try damagedRevision(name) {
                guard case .object = revision else { throw GalleryError(.damagedDocument, "is not a manifest") }
                try check(revision, named: name, in: opened.contents, limits: limits)
            }
        }
    }

    private static func check(_ state: JSONValue, named name: String, in contents: BundleContents, limits: BundleLimits) throws {
        let revision = try Manifest.gallery(from: state, limits: limits)
        // Undoing to it must be possible: the bytes it caches are still here.
        try BundleReader.checkReferences(of: revision, in: contents)
    }

    private static func damagedRevision<T>(_ name: String, _ body: () throws -> T) throws -> T {
        do {
            return try body()
        } catch let error as GalleryError {
            throw GalleryError(.damagedDocument, "revision \(name) is damaged: \(error.reason)")
        }
    }

    /// Spec §images: cached bytes live at `images/<sha256 of the bytes>.<ext>`.
    private static func check(_ name: String, sha256: String, bytes: Int64, against cached: CachedImage?) throws {
        let stem = name.dropFirst(BundleLayout.imagesFolder.count).prefix { $0 != "." }
        guard stem == sha256 else {
            throw GalleryError(.damagedDocument, "\(name) is damaged: its bytes have SHA-256 \(sha256)")
        }
        if let cached, cached.sha256 != sha256 || cached.bytes != bytes {
            throw GalleryError(.damagedDocument, "\(name) does not match the manifest's sha256 and bytes")
        }
    }
}
