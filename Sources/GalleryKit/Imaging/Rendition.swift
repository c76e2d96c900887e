internal import CVipsShim
import Foundation

/// A display-sized JPEG (progressive) of an image: what a grid tile or the viewer shows instead of the
/// original, so that a photo is sharp on every screen without sending its megabytes.
///
/// Renditions are made by libvips with shrink-on-load, EXIF orientation applied, alpha flattened
/// on white, converted to sRGB, and every piece of metadata stripped: a rendition never carries
/// the photo's location. The sizes come from one `ladder` of long edges; a page picks the
/// smallest one at least as large as the device pixels it fills.
public struct Rendition: Sendable, Equatable {
    /// The long edges renditions are made at, in pixels, smallest first.
    ///
    /// Measured in Chromium: a grid tile is 605–795 device pixels wide on a 1280-pixel desktop
    /// and 362–474 on a 390-pixel phone at 2×, so tiles take the 1024 and the 512; the viewer
    /// shows an image up to 1,248 pixels across on that desktop and up to about 1,600 tall on
    /// that phone, so it takes the 2048. Each step doubles the edge, so an image is never sent
    /// at more than twice the size it is shown (four times the pixels). The document's own
    /// 256-pixel thumbnails stay as they are, below the ladder: the filmstrip's cells are 56 CSS
    /// pixels tall (112 device pixels at 2×) and the current one widens to its image's shape,
    /// 100 wide for a 16:9 photo (200 device pixels), so 256 covers them, and a stored thumbnail
    /// stays about 15 KB.
    public static let ladder = [512, 1024, 2048]

    /// The JPEG quality of a rendition (progressive JPEGs): the thumbnails' quality. Twelve
    /// camera photos (23.5 MB at Q92) came to 23.6 % of their bytes in three sizes and their
    /// thumbnails at 80, where 82 made 26 %.
    public static let quality = 80

    /// Its width in pixels, as shown (after EXIF orientation).
    public var width: Int
    /// Its height in pixels, as shown.
    public var height: Int
    /// The JPEG.
    public var jpeg: Data

    /// Its long edge in pixels.
    public var longEdge: Int { max(width, height) }

    /// Whether renditions are made of an image of this media type: not of a GIF, which is shown
    /// as it is, animation and all (a rendition would be its first frame).
    public static func isMade(forMediaType mediaType: String) -> Bool {
        mediaType != "image/gif"
    }

    /// The ladder's long edges worth making of an image whose long edge is `edge` pixels: those
    /// smaller than it, and, when the ladder goes past it, one at its own size (the image at
    /// full size without its metadata). The whole ladder when the size is not known.
    public static func longEdges(forImageLongEdge edge: Int?) -> [Int] {
        guard let edge, edge > 0 else { return ladder }
        let smaller = ladder.filter { $0 < edge }
        return smaller.count == ladder.count ? smaller : smaller + [edge]
    }

    /// Loads libvips now (tens of milliseconds, once), so that the first rendition made does not
    /// wait for it: what a server calls when it starts.
    public static func loadImageLibrary() {
        _ = LibVips.start
    }

    /// Renditions of the image file at `url`, one per long edge in `longEdges` (each never
    /// larger than the image), in that order. The image is decoded once.
    /// - Throws: `.notAnImage` if libvips cannot read the image.
    public static func make(fromFileAt url: URL, longEdges: [Int]) throws -> [Rendition] {
        try make(
            longEdges, failure: { GalleryError(.notAnImage, url: url, "cannot make a display size: \(LibVips.undecodable)", detail: $0) }
        ) { outputs in
            FileLocation.withPath(of: url) { path in outputs(path, nil, 0) }
        }
    }

    /// Renditions of an image held in memory, one per long edge in `longEdges`, in that order.
    /// - Throws: `.notAnImage` if libvips cannot read the image.
    public static func make(from image: Data, longEdges: [Int]) throws -> [Rendition] {
        try make(longEdges, failure: { GalleryError(.notAnImage, "cannot make a display size: \(LibVips.undecodable)", detail: $0) }) {
            outputs in
            image.withUnsafeBytes { bytes in outputs(nil, bytes.baseAddress, bytes.count) }
        }
    }

    /// Runs the shim's renditions call on the image `withImage` hands over (a path, or bytes and
    /// their count), and takes its buffers.
    private static func make(
        _ longEdges: [Int], failure: (String) -> GalleryError,
        withImage: ((UnsafePointer<CChar>?, UnsafeRawPointer?, Int) -> Int32) -> Int32
    ) throws -> [Rendition] {
        guard !longEdges.isEmpty else { return [] }
        if case .failure(let error) = LibVips.start { throw failure(error.reason) }
        let count = longEdges.count
        let edges = longEdges.map { Int32(clamping: $0) }
        do {
            return try LibVips.run { () -> [Rendition]? in
                var jpegs = [UnsafeMutableRawPointer?](repeating: nil, count: count)
                var lengths = [Int](repeating: 0, count: count)
                var widths = [Int32](repeating: 0, count: count)
                var heights = [Int32](repeating: 0, count: count)
                let status = withImage { path, bytes, length in
                    gallerykit_vips_renditions(
                        path, bytes, length, edges, Int32(count), Int32(quality), &jpegs, &lengths, &widths, &heights)
                }
                guard status == 0 else { return nil }
                return (0..<count).map { index in
                    Rendition(
                        width: Int(widths[index]), height: Int(heights[index]),
                        jpeg: LibVips.takeBuffer(jpegs[index], length: lengths[index]))
                }
            }
        } catch {
            throw failure(error.message)
        }
    }
}
