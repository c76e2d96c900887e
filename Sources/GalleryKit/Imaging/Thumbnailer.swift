internal import CVipsShim
import Foundation

/// Small JPEG versions of images, so a browser can show a document without decoding its
/// originals: one per cached image (`thumbnails/<sha256>.jpg`) and a contact sheet of the first
/// ones (`preview.jpg`), spec §3.4–3.6.
public enum Thumbnailer {
    /// The long edge of a thumbnail, in pixels.
    public static let longEdge = 256
    /// The preview is a 2×2 sheet of this many pixels a cell: 256×256 in all.
    static let previewAcross = 2
    static let previewCell = 128
    static var previewCount: Int { previewAcross * previewAcross }

    /// A thumbnail of the image file at `url`: shrink-on-load, EXIF orientation applied.
    /// - Throws: `.notAnImage` if libvips cannot make one.
    public static func jpeg(forFileAt url: URL) throws -> Data {
        try encode(failure: { GalleryError(.notAnImage, url: url, "cannot make a thumbnail (\($0))") }) { buffer, length in
            FileLocation.withPath(of: url) { path in
                gallerykit_vips_thumbnail(path, nil, 0, Int32(longEdge), buffer, length)
            }
        }
    }

    /// A thumbnail of an image held in memory (bytes cached in a document).
    /// - Throws: `.notAnImage` if libvips cannot make one.
    public static func jpeg(for image: Data) throws -> Data {
        try encode(failure: { GalleryError(.notAnImage, "cannot make a thumbnail (\($0))") }) { buffer, length in
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

    /// A contact sheet of `thumbnails` (JPEGs), `previewAcross` to a row.
    static func previewJPEG(of thumbnails: [Data]) throws -> Data {
        try encode(failure: { GalleryError(.notAnImage, "cannot make the document preview (\($0))") }) { buffer, length in
            withBuffers(thumbnails) { pointers, lengths in
                gallerykit_vips_contact_sheet(pointers, lengths, Int32(thumbnails.count), Int32(previewAcross), Int32(previewCell), buffer, length)
            }
        }
    }

    /// Runs a shim call that makes a JPEG in a libvips buffer, and takes the buffer.
    /// - Parameter failure: the error to throw, given libvips' message.
    private static func encode(
        failure: (String) -> GalleryError,
        _ call: (UnsafeMutablePointer<UnsafeMutableRawPointer?>, UnsafeMutablePointer<Int>) -> Int32
    ) throws -> Data {
        if case .failure(let error) = LibVips.start { throw failure(error.reason) }
        var buffer: UnsafeMutableRawPointer?
        var length = 0
        guard call(&buffer, &length) == 0 else { throw failure(LibVips.takeError()) }
        return LibVips.takeBuffer(buffer, length: length)
    }

    /// Calls `body` with C arrays of pointers to and lengths of `buffers`, valid during the call.
    private static func withBuffers<T>(_ buffers: [Data], _ body: (UnsafePointer<UnsafeRawPointer?>, UnsafePointer<Int>) -> T) -> T {
        let copies = buffers.map { data -> UnsafeMutableRawBufferPointer in
            let copy = UnsafeMutableRawBufferPointer.allocate(byteCount: max(data.count, 1), alignment: 16)
            _ = data.copyBytes(to: copy.bindMemory(to: UInt8.self))
            return copy
        }
        defer { copies.forEach { $0.deallocate() } }
        let pointers = copies.map { UnsafeRawPointer($0.baseAddress) }
        return body(pointers, buffers.map(\.count))
    }
}
