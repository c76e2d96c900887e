import Foundation

/// The limits a reader enforces on an untrusted document (spec §limits).
public struct BundleLimits: Sendable {
    /// The largest `manifest.json` accepted.
    public var maximumManifestBytes: Int64 = 64 * 1024 * 1024
    /// The most images one manifest may list.
    public var maximumImages = 100_000
    /// The most entries one archive may hold.
    public var maximumEntries = 250_000
    /// An entry may not inflate to more than this many times the compressed bytes read for it…
    public var maximumInflationRatio: Int64 = 100
    /// …once it is past this many bytes (so small, very compressible entries stay legal).
    public var inflationThreshold: Int64 = 64 * 1024 * 1024
    /// Undo (and redo) revisions kept in a document.
    public var maximumRevisions = 20

    /// The limits of format version 1.
    public static let standard = BundleLimits()

    /// Spec §9.1: what a writer is about to write, checked against the limits its reader enforces,
    /// before anything is written — a save must never leave a document that does not open.
    /// - Throws: `.limitExceeded`, saying which limit and what to do.
    func checkWritable(manifest: Data, images: Int, entries: Int, revisions: [Data]) throws {
        let unchanged = "; the document is unchanged"
        guard images <= maximumImages else {
            throw GalleryError(
                .limitExceeded, "cannot save \(images) images; a document holds at most \(maximumImages) (split the gallery)\(unchanged)")
        }
        guard Int64(manifest.count) <= maximumManifestBytes else {
            throw GalleryError(
                .limitExceeded,
                "cannot save: manifest.json would be \(Self.mebibytes(manifest.count)), over the \(Self.mebibytes(maximumManifestBytes)) limit (remove images or split the gallery)\(unchanged)"
            )
        }
        if let largest = revisions.map(\.count).max(), Int64(largest) > maximumManifestBytes {
            throw GalleryError(
                .limitExceeded,
                "cannot save: an undo revision would be \(Self.mebibytes(largest)), over the \(Self.mebibytes(maximumManifestBytes)) limit\(unchanged)"
            )
        }
        guard entries <= maximumEntries else {
            throw GalleryError(.limitExceeded, "cannot save \(entries) entries; a document holds at most \(maximumEntries)\(unchanged)")
        }
    }

    /// "16 MiB" for a whole number of MiB, else the exact bytes: a size just over a limit must
    /// not print as the limit itself.
    private static func mebibytes(_ bytes: some BinaryInteger) -> String {
        bytes % 1_048_576 == 0 ? "\(bytes / 1_048_576) MiB" : "\(bytes) bytes"
    }

    /// The shape a manifest may have: as many JSON values as images of 32 values each (an image
    /// with every member, a cached object and unknown members has about 20) — so the largest
    /// manifest cannot hold millions of tiny values that would exhaust memory.
    var parsing: ManifestParser.Limits {
        ManifestParser.Limits(maximumImages: maximumImages, maximumValues: 32 * maximumImages + 10_000)
    }

    var inflation: ArchiveReader.InflationLimit {
        ArchiveReader.InflationLimit(ratio: maximumInflationRatio, threshold: inflationThreshold)
    }
}
