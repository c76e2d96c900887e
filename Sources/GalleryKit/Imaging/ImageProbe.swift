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
            throw GalleryError(.notAnImage, url: url, "is not a JPEG, PNG, WebP, GIF, TIFF or HEIF image")
        }
        guard image.width > 0, image.height > 0 else {
            throw GalleryError(.notAnImage, url: url, "has no pixels")
        }
        let (width, height) = image.swapsWidthAndHeight ? (image.height, image.width) : (image.width, image.height)
        return ImageInfo(width: width, height: height, mediaType: format.mediaType, fileExtension: format.fileExtension)
    }

    /// How many bytes of a file `whyNotAnImage` looks at.
    static let sniffedBytes = 1024

    /// Why a file libvips could not read is not an image, in a person's words: an SVG, a web
    /// page or text said as such, anything else "not an image this program can read". libvips'
    /// own message ("VipsForeignLoad: … is not in a known format", "svgload_source: operation is
    /// blocked") is for its developers, not for the person who chose the file.
    static func whyNotAnImage(fileAt url: URL) -> String {
        // Not blocking on a pipe with no writer; only a regular file's bytes are looked at.
        let descriptor = FileLocation.open(url, O_RDONLY | O_CLOEXEC | O_NONBLOCK)
        guard descriptor >= 0 else { return whyNotAnImage(Data()) }
        defer { close(descriptor) }
        var status = stat()
        guard fstat(descriptor, &status) == 0, status.st_mode & S_IFMT == S_IFREG else {
            return "is not a file holding an image (a pipe or a device)"
        }
        var start = [UInt8](repeating: 0, count: sniffedBytes)
        let count = start.withUnsafeMutableBytes { read(descriptor, $0.baseAddress, $0.count) }
        return whyNotAnImage(Data(start.prefix(max(0, count))))
    }

    /// `whyNotAnImage(fileAt:)` for a file's first bytes.
    static func whyNotAnImage(_ start: Data) -> String {
        let text = String(decoding: start, as: UTF8.self).lowercased()
        if text.contains("<svg") { return "is an SVG image, which this program does not read (JPEG, PNG, WebP, GIF, TIFF and HEIF only)" }
        if text.contains("<!doctype html") || text.contains("<html") { return "is a web page, not an image" }
        if start.isEmpty { return "is empty, not an image" }
        return "is not an image this program can read (JPEG, PNG, WebP, GIF, TIFF and HEIF only)"
    }
}
