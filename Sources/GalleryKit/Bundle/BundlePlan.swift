import Foundation

/// The entries one save writes, gathered in the format's terms: `mimetype` and the manifest, then
/// whatever the document refers to, keeps and remembers — each compressed as spec §2.2 says
/// (`BundleLayout.compression(ofEntryNamed:)`), put in order by `BundleWriter`.
///
/// The document decides *which* entries a save holds (what its gallery and history refer to);
/// this type knows how the format writes them, and checks the whole against the limits (§9.1)
/// before a byte is written.
struct BundlePlan {
    /// The entries, in the order they were added (`BundleWriter` sorts them).
    private(set) var entries: [BundleWriter.Entry]
    /// The serialised manifest.
    let manifest: Data
    /// Each revision's bytes, for the limits.
    private(set) var revisions: [Data] = []

    /// A plan holding `mimetype` and `manifest`.
    init(manifest: Data) {
        self.manifest = manifest
        entries = [
            BundleWriter.Entry(name: BundleLayout.mimetypeName, source: .data(Data(BundleLayout.mimetype.utf8))),
            BundleWriter.Entry(name: BundleLayout.manifestName, source: .data(manifest)),
        ]
    }

    /// Adds the entry `name` (cached bytes, a thumbnail, the preview, or an extension entry kept).
    mutating func add(_ name: String, from source: BundleWriter.Entry.Source) {
        entries.append(BundleWriter.Entry(name: name, source: source))
    }

    /// Adds the `number`th revision (1 = most recent) of one side of the history.
    mutating func addRevision(_ data: Data, _ side: BundleLayout.RevisionSide, number: Int) {
        revisions.append(data)
        entries.append(BundleWriter.Entry(name: BundleLayout.revisionPath(side, number: number), source: .data(data)))
    }

    /// Checks the plan against `limits` for a gallery of `images` images (spec §9.1: nothing is
    /// written that this version's reader would reject).
    /// - Throws: `.limitExceeded` naming the limit; the error names no file (the caller's does).
    func check(against limits: BundleLimits, images: Int) throws {
        try limits.checkWritable(manifest: manifest, images: images, entries: entries.count, revisions: revisions)
    }
}
