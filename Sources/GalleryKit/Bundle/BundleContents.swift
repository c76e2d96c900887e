/// The entries of an opened document, as its central directory lists them.
struct BundleContents: Sendable, Equatable {
    /// Regular-file entry names in stored order (directory entries are left out: spec §entries).
    private(set) var names: [String] = []
    /// Each entry's declared uncompressed size.
    private(set) var sizes: [String: Int64] = [:]
    /// Each entry's position in `names`.
    private(set) var positions: [String: Int] = [:]

    init() {}

    /// Contents with room for `count` entries without growing.
    init(reservingCapacity count: Int) {
        names.reserveCapacity(count)
        sizes.reserveCapacity(count)
        positions.reserveCapacity(count)
    }

    mutating func append(_ name: String, size: Int64) {
        positions[name] = names.count
        names.append(name)
        sizes[name] = size
    }

    func contains(_ name: String) -> Bool { sizes[name] != nil }

    /// The names of the revisions on one side of the history, most recent first.
    func revisions(_ side: BundleLayout.RevisionSide) -> [String] {
        let folder = side == .undo ? BundleLayout.undoFolder : BundleLayout.redoFolder
        return names.filter { $0.hasPrefix(folder) && $0.hasSuffix(".json") }.sorted()
    }
}
