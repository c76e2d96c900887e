import Foundation

/// One image of a gallery: where it comes from, its shape, and whether its bytes travel with the document.
public struct GalleryImage: Sendable, Equatable, Identifiable {
    /// Whether the image could be read.
    public enum Status: String, Sendable, Equatable {
        /// The image was read and is shown as itself.
        case ok
        /// Shown as a square error tile (aspect ratio 1).
        case failed
    }

    /// The image's identity within its gallery; stays the same through moves and edits.
    public var id: UUID
    /// Where the image comes from: a `file:` URL for local images, later `http(s):`.
    public var url: URL
    /// Displayed width divided by displayed height; finite and > 0.
    public var aspectRatio: Double
    /// Displayed size in pixels, after EXIF orientation, when known.
    public var width: Int?
    /// Displayed height in pixels, after EXIF orientation, when known.
    public var height: Int?
    /// Whether the image could be read; a failed one is shown as a square error tile.
    public var status: Status
    /// Why the image failed, for a person.
    public var error: String?
    /// The image's bytes stored in the document, if cached.
    public var cached: CachedImage?
    /// The name of the image's thumbnail entry, if any.
    public var thumbnail: String?
    /// The image's caption, if any.
    public var caption: String?
    /// When the image was added to the gallery, to the second.
    public var added: Date
    /// Who made the image and under what terms, where it differs from the document's (format 1.1).
    public var attribution: Attribution?
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
        self.attribution = nil
        self.unknownFields = [:]
    }

    /// Whether the image's bytes are stored in the document.
    public var isCached: Bool { cached != nil }
    /// Whether the image could not be read.
    public var hasFailed: Bool { status == .failed }

    /// Whether the image was uploaded from a browser (spec §5.3): its URL names no file to read.
    public var isUpload: Bool { url.isFileURL && url.fragment == "upload" }

    /// Whether the image's bytes must be fetched (`origin` says from where) to be shown,
    /// exported or stored: the document does not store them, and the image has not failed.
    /// The one rule every caller asks: the CLI's commands, the exporters and the app.
    public var needsFetching: Bool { !isCached && !hasFailed }

    /// Where an image's bytes come from when the document does not store them.
    public enum Origin: Sendable, Equatable {
        /// An `http:` or `https:` URL.
        case web
        /// A local file, read from its `file:` URL.
        case localFile
        /// A browser's upload (spec §5.3): nowhere to fetch from.
        case upload
    }

    /// Where the image's bytes come from when the document does not store them.
    public var origin: Origin { !url.isFileURL ? .web : isUpload ? .upload : .localFile }

    /// The URL an image uploaded from a browser is recorded with (spec §5.3): the name the
    /// browser gave as a `file:` URL's one path segment, marked by the fragment `upload`. A
    /// browser never says where the file was, and the server's copy is gone once the bytes are
    /// stored in the document, so the URL says where the image came from without pointing at a
    /// file that will not be there.
    public static func uploadURL(named name: String) -> URL {
        var components = URLComponents()
        components.scheme = "file"
        components.host = ""
        components.path = "/" + name.replacingOccurrences(of: "/", with: "_")
        components.fragment = "upload"
        return components.url ?? URL(string: "file:///upload#upload")!
    }
}

/// An image's bytes as stored in the document, content-addressed by their SHA-256.
public struct CachedImage: Sendable, Equatable {
    /// The archive entry, `images/<sha256>.<ext>`.
    public var path: String
    /// Lowercase hex SHA-256 of the bytes.
    public var sha256: String
    /// The size of the bytes, exactly as stored.
    public var bytes: Int64
    /// For example `image/jpeg`.
    public var mediaType: String
    /// Fields this version does not know; written back unchanged.
    public var unknownFields: [String: JSONValue]

    /// A cached image stored at `path`, with no unknown fields.
    public init(path: String, sha256: String, bytes: Int64, mediaType: String) {
        self.path = path
        self.sha256 = sha256
        self.bytes = bytes
        self.mediaType = mediaType
        self.unknownFields = [:]
    }
}
