internal import CVipsShim
import Foundation

/// One image of many small ones, drawn with libvips: thumbnails shrunk into given rectangles of a
/// white canvas, error tiles, an optional title line, encoded as JPEG or PNG.
///
/// Only thumbnails are decoded here, never originals. Where things go is the caller's business
/// (the contact-sheet export asks `GalleryLayout`); this type only draws.
enum ContactSheet {
    /// A rectangle of whole pixels on the sheet, origin top-left.
    struct Rect: Sendable, Equatable {
        var x: Int
        var y: Int
        var width: Int
        var height: Int
    }

    /// One cell: the thumbnail file drawn into `rect`, or the error tile when there is none.
    struct Cell: Sendable {
        var thumbnail: URL?
        var rect: Rect
    }

    /// How the sheet is encoded.
    enum Encoding: Sendable {
        case jpeg
        case png
    }

    /// Draws a `width`×`height` sheet and encodes it.
    ///
    /// Cells must not overlap. Each thumbnail is decoded and resampled to its cell's size, on all
    /// cores, straight into the canvas (one shrunk on load first if it is not thumbnail-sized); a
    /// thumbnail libvips cannot read is drawn as the error tile, like a cell without one. `title` is plain text (never read as markup), fitted into its rectangle.
    /// - Throws: `.ioFailure` with libvips' message if the canvas cannot be had, the title cannot
    ///   be drawn or the sheet cannot be encoded; the error names no file (the caller's does).
    /// - Complexity: O(width × height) memory and time, plus one thumbnail decode per cell.
    static func render(width: Int, height: Int, cells: [Cell], title: (text: String, rect: Rect)?, encoding: Encoding) throws -> Data {
        try LibVips.start.get()
        func failure(_ what: String) -> GalleryError {
            GalleryError(.ioFailure, "cannot \(what) the contact sheet (\(LibVips.takeError()))")
        }
        guard let sheet = gallerykit_vips_sheet_new(Int32(clamping: width), Int32(clamping: height)) else {
            throw failure("allocate")
        }
        // The canvas never leaves this function; every path frees it here, once.
        defer { gallerykit_vips_sheet_free(sheet) }

        let shared = SharedCanvas(handle: sheet)
        DispatchQueue.concurrentPerform(iterations: cells.count) { index in
            let sheet = shared.handle
            let cell = cells[index]
            let (x, y, width, height) = (Int32(clamping: cell.rect.x), Int32(clamping: cell.rect.y), Int32(clamping: cell.rect.width), Int32(clamping: cell.rect.height))
            if let thumbnail = cell.thumbnail {
                let status = FileLocation.withPath(of: thumbnail) { path in
                    gallerykit_vips_sheet_draw_image(sheet, path, x, y, width, height)
                }
                guard status != 0 else { return }
                // An unreadable thumbnail (a damaged entry of the document) is an error tile, not
                // a failed export; its message is dropped so it cannot prefix a later one.
                _ = LibVips.takeError()
            }
            gallerykit_vips_sheet_draw_error_tile(sheet, x, y, width, height)
        }

        if let title {
            let rect = title.rect
            let status = title.text.withCString { text in
                gallerykit_vips_sheet_draw_text(sheet, text, Int32(clamping: rect.x), Int32(clamping: rect.y), Int32(clamping: rect.width), Int32(clamping: rect.height))
            }
            guard status == 0 else { throw failure("write the title on") }
        }

        var buffer: UnsafeMutableRawPointer?
        var length = 0
        guard gallerykit_vips_sheet_encode(sheet, encoding == .png ? 1 : 0, &buffer, &length) == 0 else {
            throw failure("encode")
        }
        return LibVips.takeBuffer(buffer, length: length)
    }

    /// The canvas, handed to the drawing threads. Safe because cells do not overlap: each
    /// thread writes only its own cell's pixels (the shim's contract), and the canvas is freed
    /// only after `concurrentPerform` has returned.
    private struct SharedCanvas: @unchecked Sendable {
        let handle: OpaquePointer
    }
}
