import Foundation

/// The names of a document's entries and the order they are written in (spec §entries).
enum BundleLayout {
    static let mimetypeName = "mimetype"
    static let mimetype = "application/vnd.gallery+zip"
    static let manifestName = "manifest.json"
    static let previewName = "preview.jpg"
    static let imagesFolder = "images/"
    static let thumbnailsFolder = "thumbnails/"
    static let undoFolder = "history/undo/"
    static let redoFolder = "history/redo/"

    /// The entry that stores cached bytes with this digest and extension.
    static func imagePath(sha256: String, fileExtension: String) -> String {
        "\(imagesFolder)\(sha256).\(fileExtension)"
    }

    /// The thumbnail entry of the image with this digest.
    static func thumbnailPath(sha256: String) -> String {
        "\(thumbnailsFolder)\(sha256).jpg"
    }

    /// The entry of the `number`th undo or redo revision (1 = most recent).
    static func revisionPath(_ side: RevisionSide, number: Int) -> String {
        let folder = side == .undo ? undoFolder : redoFolder
        return folder + (number < 10 ? "0\(number)" : "\(number)") + ".json"
    }

    enum RevisionSide { case undo, redo }

    /// What an entry is, by its name; in the spec's fixed order of entries (§3.10).
    enum EntryKind: Int, Comparable {
        case mimetype, manifest, preview, image, thumbnail, undoRevision, redoRevision
        /// Any other entry: an extension, kept as it is.
        case `extension`

        static func < (first: EntryKind, second: EntryKind) -> Bool { first.rawValue < second.rawValue }

        /// Whether it is a revision of the undo history, either side.
        var isRevision: Bool { self == .undoRevision || self == .redoRevision }
    }

    /// What the entry `name` is.
    static func kind(of name: String) -> EntryKind {
        switch name {
        case mimetypeName: .mimetype
        case manifestName: .manifest
        case previewName: .preview
        case _ where name.hasPrefix(imagesFolder): .image
        case _ where name.hasPrefix(thumbnailsFolder): .thumbnail
        case _ where name.hasPrefix(undoFolder): .undoRevision
        case _ where name.hasPrefix(redoFolder): .redoRevision
        default: .extension
        }
    }

    /// How an entry is compressed (spec §2.2): the manifest, revisions and extension entries are
    /// deflated; `mimetype`, the preview, cached bytes and thumbnails (already compressed) stored.
    static func compression(ofEntryNamed name: String) -> ArchiveWriter.Compression {
        let kind = Self.kind(of: name)
        return kind == .manifest || kind.isRevision || kind == .extension ? .deflated : .stored
    }

    /// Whether `first` is written before `second`: the spec's fixed order, then by name.
    static func precedes(_ first: String, _ second: String) -> Bool {
        let (a, b) = (kind(of: first), kind(of: second))
        return a != b ? a < b : first < second
    }

    /// Entries the writer makes itself; any other entry is an extension kept as is.
    static func isKnown(_ name: String) -> Bool { kind(of: name) != .extension }

    /// Checks an entry name against the spec's rules (§names): relative, `/`-separated, no `.`
    /// or `..` segments, no backslashes, control characters or drive letters. The archive
    /// layer hands names back verbatim, so this is the only thing between a name and the disk.
    static func checkName(_ name: String) throws {
        var utf8 = name
        // On the bytes: Character and String operations go through grapheme breaking and
        // Foundation (`contains` about 20 µs a call), and every listed document has names to check.
        if let problem = utf8.withUTF8({ problem(withName: name, bytes: $0) }) {
            throw GalleryError(.unsafeArchive, "entry name \(name.debugDescription) \(problem)")
        }
    }

    /// What is wrong with `name`, whose UTF-8 is `bytes`; nil if nothing.
    private static func problem(withName name: String, bytes: UnsafeBufferPointer<UInt8>) -> String? {
        if bytes.isEmpty { return "is empty" }
        if bytes.count > 1024 { return "is longer than 1024 bytes" }
        if bytes[0] == UInt8(ascii: "/") { return "is an absolute path" }
        if bytes.contains(UInt8(ascii: "\\")) { return "contains a backslash" }
        // UTF-8 encodes no other character with a byte below 0x80, so control characters,
        // slashes and dots are found on the bytes too, without splitting the name into arrays.
        if bytes.contains(where: { $0 < 0x20 || $0 == 0x7F }) { return "contains a control character" }
        if bytes.contains(UInt8(ascii: ":")), name.count >= 2, name.dropFirst().first == ":", name.first?.isLetter == true {
            return "starts with a drive letter"
        }
        var segmentStart = 0
        for index in 0...bytes.count {
            let isEnd = index == bytes.count
            guard isEnd || bytes[index] == UInt8(ascii: "/") else { continue }
            let segment = UnsafeBufferPointer(rebasing: bytes[segmentStart..<index])
            // A segment of one or two dots: "." or "..".
            if (1...2).contains(segment.count), segment.allSatisfy({ $0 == UInt8(ascii: ".") }) {
                return "has a '\(String(decoding: segment, as: UTF8.self))' segment"
            }
            // A trailing slash marks a directory entry; its last (empty) segment is allowed.
            if segment.isEmpty, !isEnd { return "has an empty segment" }
            segmentStart = index + 1
        }
        return nil
    }
}
