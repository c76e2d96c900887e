import Foundation

/// What an image file's header says: its displayed size and its type.
public struct ImageInfo: Sendable, Equatable {
    /// Width and height as displayed, after EXIF orientation.
    public var width: Int
    /// Height as displayed, after EXIF orientation.
    public var height: Int
    /// For example `image/jpeg`.
    public var mediaType: String
    /// The extension cached bytes are stored under, e.g. `jpg`.
    public var fileExtension: String

    /// Displayed width over displayed height.
    public var aspectRatio: Double { Double(width) / Double(height) }
}

/// Reads image headers with libvips.
public enum ImageProbe {
    /// The image formats a document may cache, by libvips loader. Other loaders libvips has (CSV
    /// and matrix text, FITS, raw vips) would accept files nobody means as images.
    static let formats: [String: (mediaType: String, fileExtension: String)] = [
        "jpegload": ("image/jpeg", "jpg"),
        "pngload": ("image/png", "png"),
        "webpload": ("image/webp", "webp"),
        "gifload": ("image/gif", "gif"),
        "tiffload": ("image/tiff", "tiff"),
        "heifload": ("image/heif", "heic"),
    ]

    /// Reads the header of the image file at `url`.
    /// - Throws: `.fileNotFound` if there is no file, `.notAnImage` if it is not a supported image.
    /// - Complexity: header only for JPEG, PNG and WebP; GIF and HEIF are read whole by libvips.
    public static func info(forFileAt url: URL) throws -> ImageInfo {
        guard let status = FileLocation.status(of: url) else {
            throw GalleryError(.fileNotFound, url: url, "no such file")
        }
        guard status.st_mode & S_IFMT != S_IFDIR else { throw GalleryError(.notAnImage, url: url, "is a folder, not an image") }
        let image = try LibVips.header(of: url)
        let loader = image.loader.isEmpty ? "unknown" : image.loader
        guard let format = formats[loader.replacingOccurrences(of: "_source", with: "")] else {
            throw GalleryError(.notAnImage, url: url, "is not a JPEG, PNG, WebP, GIF, TIFF or HEIF image (libvips reads it with \(loader))")
        }
        guard image.width > 0, image.height > 0 else {
            throw GalleryError(.notAnImage, url: url, "has no pixels")
        }
        let (width, height) = image.swapsWidthAndHeight ? (image.height, image.width) : (image.width, image.height)
        return ImageInfo(width: width, height: height, mediaType: format.mediaType, fileExtension: format.fileExtension)
    }
}
