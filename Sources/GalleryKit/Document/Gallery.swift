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
    public var title: String
    public var created: Date
    /// When the document was last saved. Also the timestamp of every archive entry.
    public var modified: Date
    /// The program that last wrote the document.
    public var generator: String
    /// Images per row (the seed app's pinch gesture).
    public var columns: Int
    /// The images, in display order.
    public var images: [GalleryImage]
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
        self.unknownFields = [:]
    }
}

/// One image of a gallery: where it comes from, its shape, and whether its bytes travel with the document.
public struct GalleryImage: Sendable, Equatable, Identifiable {
    /// Whether the image could be read.
    public enum Status: String, Sendable, Equatable {
        case ok
        /// Shown as a square error tile (aspect ratio 1).
        case failed
    }

    public var id: UUID
    /// Where the image comes from: a `file:` URL for local images, later `http(s):`.
    public var url: URL
    /// Displayed width divided by displayed height; finite and > 0.
    public var aspectRatio: Double
    /// Displayed size in pixels, after EXIF orientation, when known.
    public var width: Int?
    public var height: Int?
    public var status: Status
    /// Why the image failed, for a person.
    public var error: String?
    /// The image's bytes stored in the document, if cached.
    public var cached: CachedImage?
    /// The name of the image's thumbnail entry, if any.
    public var thumbnail: String?
    public var caption: String?
    public var added: Date
    /// Image fields this version does not know; written back unchanged.
    public var unknownFields: [String: JSONValue]

    /// Creates an image item.
    public init(
        id: UUID = UUID(),
        url: URL,
        aspectRatio: Double,
        width: Int? = nil,
        height: Int? = nil,
        status: Status = .ok,
        error: String? = nil,
        cached: CachedImage? = nil,
        thumbnail: String? = nil,
        caption: String? = nil,
        added: Date = .now
    ) {
        self.id = id
        self.url = url
        self.aspectRatio = aspectRatio
        self.width = width
        self.height = height
        self.status = status
        self.error = error
        self.cached = cached
        self.thumbnail = thumbnail
        self.caption = caption
        self.added = added.wholeSeconds
        self.unknownFields = [:]
    }

    /// Whether the image's bytes are stored in the document.
    public var isCached: Bool { cached != nil }
    /// Whether the image could not be read.
    public var hasFailed: Bool { status == .failed }
}

/// An image's bytes as stored in the document, content-addressed by their SHA-256.
public struct CachedImage: Sendable, Equatable {
    /// The archive entry, `images/<sha256>.<ext>`.
    public var path: String
    /// Lowercase hex SHA-256 of the bytes.
    public var sha256: String
    public var bytes: Int64
    /// For example `image/jpeg`.
    public var mediaType: String
    /// Fields this version does not know; written back unchanged.
    public var unknownFields: [String: JSONValue]

    public init(path: String, sha256: String, bytes: Int64, mediaType: String) {
        self.path = path
        self.sha256 = sha256
        self.bytes = bytes
        self.mediaType = mediaType
        self.unknownFields = [:]
    }
}

extension Gallery {
    /// The manifest's record of each cached entry, by entry name (`images/<sha256>.<ext>`).
    var cachedImagesByPath: [String: CachedImage] {
        var cached: [String: CachedImage] = [:]
        for image in images { if let record = image.cached { cached[record.path] = record } }
        return cached
    }
}

/// The library's version, recorded as the manifest's `generator`.
public enum GalleryKitVersion {
    public static let version = "0.1.0"
    public static let generator = "GalleryKit \(version)"
}

extension Date {
    /// The manifest stores whole seconds; rounding here keeps a value equal to itself after a save.
    var wholeSeconds: Date { Date(timeIntervalSince1970: timeIntervalSince1970.rounded(.down)) }
}
