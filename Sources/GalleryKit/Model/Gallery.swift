import Foundation

/// A gallery: an ordered collection of images with a title and a layout, as one document holds it.
///
/// A plain value with no I/O; `GalleryDocument` reads and writes it. The edits of the seed app's
/// collection view (insert, move, swap, remove) are in `Gallery+Editing.swift`.
public struct Gallery: Sendable, Equatable {
    /// The default number of images per row.
    public static let defaultColumns = 3
    /// The column counts a gallery may have.
    public static let columnRange = 1...12
    /// The most characters a title or a caption may have.
    public static let maximumTextLength = 10_000

    /// The document's identity; stays the same through edits and copies of the file.
    public var id: UUID
    /// The gallery's title; may be empty. At most `maximumTextLength` characters when set by `setTitle(_:)`.
    public var title: String
    /// When the gallery was created, to the second.
    public var created: Date
    /// When the document was last saved. Also the timestamp of every archive entry.
    public var modified: Date
    /// The program that last wrote the document.
    public var generator: String
    /// Images per row (the seed app's pinch gesture).
    public var columns: Int
    /// The images, in display order.
    public var images: [GalleryImage]
    /// Who made the images and under what terms, for those that do not say otherwise (format 1.1).
    public var attribution: Attribution?
    /// Top-level manifest fields this version does not know; written back unchanged.
    public var unknownFields: [String: JSONValue]

    /// Creates an empty gallery created now.
    public init(
        id: UUID = UUID(),
        title: String = "",
        columns: Int = Gallery.defaultColumns,
        images: [GalleryImage] = [],
        created: Date = .now
    ) {
        let created = created.wholeSeconds
        self.id = id
        self.title = title
        self.created = created
        self.modified = created
        self.generator = GalleryKitVersion.generator
        self.columns = columns
        self.images = images
        self.attribution = nil
        self.unknownFields = [:]
    }
}

extension Gallery {
    /// The attribution of the image at `offset`: its own, each member it leaves out the
    /// document's; `nil` when neither has any.
    public func attribution(ofImageAt offset: Int) -> Attribution? {
        // Most galleries have none: asked for every image of a state or an export, nothing is made.
        if attribution == nil, images[offset].attribution == nil { return nil }
        let resolved = (images[offset].attribution ?? Attribution()).resolved(over: attribution)
        return resolved.isEmpty ? nil : resolved
    }

    /// The manifest's record of each cached entry, by entry name (`images/<sha256>.<ext>`).
    var cachedImagesByPath: [String: CachedImage] {
        var cached: [String: CachedImage] = [:]
        for image in images { if let record = image.cached { cached[record.path] = record } }
        return cached
    }
}

extension Date {
    /// The manifest stores whole seconds; rounding here keeps a value equal to itself after a save.
    var wholeSeconds: Date { Date(timeIntervalSince1970: timeIntervalSince1970.rounded(.down)) }
}
