import Foundation

/// A format a document can be exported to.
///
/// A format only says what it needs and writes its own files; everything else is one pipeline
/// shared by all formats (`export(_:to:options:)`): checking the document, fetching web images
/// that are not cached, reading cached bytes (CRC-32, exact size and inflation checked),
/// staging under a hidden name, the atomic rename into place, and clean-up on failure.
public protocol DocumentExporter: Sendable {
    /// What the format needs of each image, put in place in the staging folder before `write`.
    var materials: ExportMaterials { get }

    /// Whether `name`, found at the top of an existing output folder, is something this format
    /// writes. `--force` replaces a folder only if everything in it is; never a folder of the
    /// user's own files. By default nothing, for a format whose output is a file.
    func writes(topLevelName name: String) -> Bool

    /// Writes the format's own files into `staging`, where the images and thumbnails asked for
    /// are already (`ExportItem.imagePath`, `.thumbnailPath`), and says what becomes the output.
    func write(_ contents: ExportContents, into staging: URL) throws -> ExportPlacement
}

extension DocumentExporter {
    /// Nothing: the output of a format that writes a file is never a folder to replace.
    public func writes(topLevelName name: String) -> Bool { false }
}

/// What an export needs of each image.
public struct ExportMaterials: OptionSet, Sendable {
    /// The set's bits.
    public let rawValue: Int
    /// The set with the given bits.
    public init(rawValue: Int) { self.rawValue = rawValue }

    /// The image's bytes, at `images/NNN.<ext>`.
    public static let images = ExportMaterials(rawValue: 1)
    /// A thumbnail (JPEG, long edge 256), at `thumbnails/NNN.jpg`: the document's own where it has
    /// one, otherwise made from the image.
    public static let thumbnails = ExportMaterials(rawValue: 2)
    /// Nothing staged, but every entry of the document except its history read and checked
    /// before anything is fetched: for a format that copies the document's entries itself.
    public static let documentEntries = ExportMaterials(rawValue: 4)
    /// Display sizes (`Rendition.ladder`: JPEGs without metadata) at
    /// `renditions/NNN-<long edge>.jpg`, made from the image's bytes, which are then staged only
    /// if `.images` is asked for too (or the image is a GIF, which has no renditions).
    public static let renditions = ExportMaterials(rawValue: 8)
}

/// What becomes of the staging folder once a format has written its files.
public enum ExportPlacement: Sendable, Equatable {
    /// The staging folder becomes the output folder.
    case folder
    /// This file in the staging folder becomes the output file; the rest is discarded.
    case file(String)
    /// The staging folder becomes the folder beside the output file named like it without its
    /// extension (`Trip.json` → `Trip/`), and this file in it becomes the output file.
    case fileBesideFolder(String)
}

/// Everything a format writes from.
public struct ExportContents: Sendable {
    /// The gallery, with the images fetched for the export in it.
    public let gallery: Gallery
    /// One item per image, in gallery order.
    public let items: [ExportItem]
    /// Where the export goes, as the caller gave it.
    public let output: URL
    /// The document with its fetched images as pending entries (for a `.gallery` copy).
    let document: GalleryDocument
}

/// One image as an export sees it.
public struct ExportItem: Sendable {
    /// Its position in the gallery, from 1.
    public var number: Int
    /// The image (after fetching: a web image that could not be fetched has failed).
    public var image: GalleryImage
    /// Who made it and under what terms: its own attribution over the gallery's (spec §5.8).
    public var attribution: Attribution?
    /// Where its bytes are, relative to the staging folder; `nil` if it has none.
    public var imagePath: String?
    /// Where its thumbnail is, relative to the staging folder; `nil` if it has none.
    public var thumbnailPath: String?
    /// Its renditions, smallest first (with `ExportMaterials.renditions`).
    public var renditions: [ExportRendition] = []
    /// Why the image cannot be shown, when it has failed (the square error tile's text).
    public var failure: String?

    /// Displayed width and height in pixels: the manifest's, or read from the image's header.
    public var pixelSize: (width: Int, height: Int)? {
        guard let width = image.width, let height = image.height, width > 0, height > 0 else { return nil }
        return (width, height)
    }

    /// The largest picture of it the export holds: the original, else its largest rendition,
    /// else its thumbnail; `nil` if it has none.
    public var largestPath: String? { imagePath ?? renditions.last?.path ?? thumbnailPath }

    /// Whether the image is a GIF, which is shown as it is (a rendition would be its first frame).
    public var isAnimation: Bool { image.cached.map { !Rendition.isMade(forMediaType: $0.mediaType) } ?? false }

    /// Where the image comes from, as a person would write it: a path, or the URL.
    public var source: String {
        image.url.isFileURL ? FileLocation.displayPath(of: image.url) : image.url.absoluteString
    }

    /// The size of its thumbnail, from its pixel size (or its aspect ratio, when not known).
    public var thumbnailSize: (width: Int, height: Int)? {
        guard thumbnailPath != nil else { return nil }
        let size = pixelSize ?? (Thumbnailer.longEdge, max(1, Int((Double(Thumbnailer.longEdge) / image.aspectRatio).rounded())))
        return Thumbnailer.size(ofImageWidth: size.width, height: size.height)
    }
}

/// One display size of an image in an export.
public struct ExportRendition: Sendable, Equatable {
    /// Where it is, relative to the staging folder (`renditions/007-1024.jpg`).
    public var path: String
    /// Its width in pixels.
    public var width: Int
    /// Its height in pixels.
    public var height: Int

    /// Its long edge in pixels.
    public var longEdge: Int { max(width, height) }
}

/// How an export runs.
public struct ExportOptions: Sendable {
    /// Replace an existing output (a file, or a folder holding only what this format writes).
    public var replacingExisting = false
    /// Downloads web images that are not cached; needed only if there are any.
    public var fetcher: ImageFetcher?
    /// Called after each download.
    public var progress: (@Sendable (ImageFetcher.Progress) -> Void)?

    /// Options for an export; by default an existing output is refused and web images are not fetched.
    public init(replacingExisting: Bool = false, fetcher: ImageFetcher? = nil, progress: (@Sendable (ImageFetcher.Progress) -> Void)? = nil)
    {
        self.replacingExisting = replacingExisting
        self.fetcher = fetcher
        self.progress = progress
    }
}

/// What an export did.
public struct ExportReport: Sendable {
    /// Images written to the output.
    public var exported: Int
    /// Images that failed (before or during the export), shown as error tiles or left out.
    public var failed: Int
    /// Every image that is not in the export (or only as an error tile), in gallery order:
    /// web images that could not be fetched now, and images that had failed before.
    public var failures: [PreparedImages.Failure]
}
