internal import CVipsShim
import Foundation

/// Small JPEG versions of images, so a browser can show a document without decoding its
/// originals: one per cached image (`thumbnails/<sha256>.jpg`) and a contact sheet of the first
/// ones (`preview.jpg`), spec §3.4–3.6.
public enum Thumbnailer {
    /// The long edge of a thumbnail, in pixels.
    public static let longEdge = 256

    /// A thumbnail of the image file at `url`: shrink-on-load, EXIF orientation applied.
    /// - Throws: `.notAnImage` if libvips cannot make one.
    public static func jpeg(forFileAt url: URL) throws -> Data {
        try encode(failure: { GalleryError(.notAnImage, url: url, "cannot make a thumbnail: \(LibVips.undecodable)", detail: $0) }) {
            buffer, length in
            FileLocation.withPath(of: url) { path in
                gallerykit_vips_thumbnail(path, nil, 0, Int32(longEdge), buffer, length)
            }
        }
    }

    /// A thumbnail of an image held in memory (bytes cached in a document).
    /// - Throws: `.notAnImage` if libvips cannot make one.
    public static func jpeg(for image: Data) throws -> Data {
        try encode(failure: { GalleryError(.notAnImage, "cannot make a thumbnail: \(LibVips.undecodable)", detail: $0) }) {
            buffer, length in
            image.withUnsafeBytes { bytes in
                gallerykit_vips_thumbnail(nil, bytes.baseAddress, bytes.count, Int32(longEdge), buffer, length)
            }
        }
    }

    /// The size of the thumbnail made of an image of this displayed size: shrunk so its long
    /// edge is `longEdge`, never enlarged.
    static func size(ofImageWidth width: Int, height: Int) -> (width: Int, height: Int) {
        let scale = min(1, Double(longEdge) / Double(max(width, height, 1)))
        return (max(1, Int((Double(width) * scale).rounded())), max(1, Int((Double(height) * scale).rounded())))
    }

    /// The document preview of `thumbnails` (JPEGs, spec §3.4): cells laid out by
    /// `PageStyle.preview`, each thumbnail shrunk to fit its cell (never enlarged) and centred on
    /// white, drawn by the contact sheet's code; a JPEG of quality 80.
    /// - Throws: `.notAnImage` if libvips cannot read a thumbnail or make the sheet.
    public static func previewJPEG(of thumbnails: [Data]) throws -> Data {
        do {
            let sizes = try thumbnails.map { try LibVips.header(of: $0) }.map { (width: $0.width, height: $0.height) }
            let plan = previewPlan(thumbnailSizes: sizes)
            let cells = zip(thumbnails, plan.cells).map { ContactSheet.Cell(thumbnail: .bytes($0), rect: $1) }
            return try ContactSheet.render(
                width: plan.width, height: plan.height, cells: cells, title: nil, encoding: .jpeg(quality: 80), unreadableFails: true
            )
        } catch let error as GalleryError {
            throw GalleryError(.notAnImage, "cannot make the document preview (\(error.reason))", detail: error.detail)
        }
    }

    /// Where the preview draws thumbnails of these pixel sizes: the cells of `PageStyle.preview`
    /// (a grid of squares), each thumbnail fitted and centred in its own.
    static func previewPlan(thumbnailSizes sizes: [(width: Int, height: Int)]) -> (width: Int, height: Int, cells: [ContactSheet.Rect]) {
        let style = PageStyle.preview
        let layout = style.layout(aspectRatios: Array(repeating: 1, count: sizes.count))
        let cells = zip(layout.frames, sizes).map { cell, size in
            ContactSheet.Rect(roundingEdgesOf: cell.fitting(width: Double(size.width), height: Double(size.height)))
        }
        return (Int(style.width), Int(layout.contentHeight.rounded()), cells)
    }

    /// Runs a shim call that makes a JPEG in a libvips buffer, and takes the buffer.
    /// - Parameter failure: the error to throw, given libvips' message.
    private static func encode(
        failure: (String) -> GalleryError,
        _ call: (UnsafeMutablePointer<UnsafeMutableRawPointer?>, UnsafeMutablePointer<Int>) -> Int32
    ) throws -> Data {
        if case .failure(let error) = LibVips.start { throw failure(error.reason) }
        do {
            return try LibVips.buffer(call)
        } catch {
            throw failure(error.message)
        }
    }
}
