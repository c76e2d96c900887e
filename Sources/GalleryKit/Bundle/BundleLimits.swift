/// The limits a reader enforces on an untrusted document (spec §limits).
public struct BundleLimits: Sendable {
    /// The largest `manifest.json` accepted.
    public var maximumManifestBytes: Int64 = 16 * 1024 * 1024
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

    var inflation: ArchiveReader.InflationLimit {
        ArchiveReader.InflationLimit(ratio: maximumInflationRatio, threshold: inflationThreshold)
    }
}
