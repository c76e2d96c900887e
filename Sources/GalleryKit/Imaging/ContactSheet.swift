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

    /// A thumbnail to draw: a file, or bytes in memory (a document's entry).
    enum Thumbnail: Sendable {
        case file(URL)
        case bytes(Data)
    }

    /// One cell: the thumbnail drawn into `rect`, or the error tile when there is none.
    struct Cell: Sendable {
        var thumbnail: Thumbnail?
        var rect: Rect
    }

    /// How the sheet is encoded.
    enum Encoding: Sendable, Equatable {
        /// JPEG of this quality (1…100).
        case jpeg(quality: Int)
        case png
    }

    /// Draws a `width`×`height` sheet and encodes it.
    ///
    /// Cells must not overlap. Each thumbnail (drawn as stored: thumbnails are upright) is decoded
    /// and resampled to its cell's size, on all cores, straight into the canvas (one shrunk on
    /// load first if it is not thumbnail-sized); a thumbnail libvips cannot read is drawn as the
    /// error tile, like a cell without one, unless `unreadableFails`. `title` is plain text (never
    /// read as markup), fitted into its rectangle.
    /// - Throws: `.ioFailure` with libvips' message if the canvas cannot be had, the title cannot
    ///   be drawn or the sheet cannot be encoded, or, with `unreadableFails`, a thumbnail cannot
    ///   be read; the error names no file (the caller's does).
    /// - Complexity: O(width × height) memory and time, plus one thumbnail decode per cell.
    static func render(
        width: Int, height: Int, cells: [Cell], title: (text: String, rect: Rect)?, encoding: Encoding, unreadableFails: Bool = false
    ) throws -> Data {
        try LibVips.start.get()
        /// Runs a shim call on the sheet that returns 0 on success.
        func draw(_ what: String, _ call: () -> Int32) throws {
            do {
                try LibVips.run { call() == 0 ? () : nil }
            } catch {
                throw GalleryError(.ioFailure, "cannot \(what) the contact sheet (\(error.message))")
            }
        }
        let sheet: OpaquePointer
        do {
            sheet = try LibVips.run { gallerykit_vips_sheet_new(Int32(clamping: width), Int32(clamping: height)) }
        } catch {
            throw GalleryError(.ioFailure, "cannot allocate the contact sheet (\(error.message))")
        }
        // The canvas never leaves this function; every path frees it here, once.
        defer { gallerykit_vips_sheet_free(sheet) }

        let unreadable = UnsafeMutableBufferPointer<Bool>.allocate(capacity: cells.count)
        unreadable.initialize(repeating: false)
        defer { unreadable.deallocate() }
        let shared = SharedCanvas(handle: sheet, unreadable: unreadable)
        DispatchQueue.concurrentPerform(iterations: cells.count) { index in
            let sheet = shared.handle
            let cell = cells[index]
            let (x, y, width, height) = (
                Int32(clamping: cell.rect.x), Int32(clamping: cell.rect.y), Int32(clamping: cell.rect.width),
                Int32(clamping: cell.rect.height)
            )
            if let thumbnail = cell.thumbnail {
                let drawn: Void? = try? LibVips.run { () -> Void? in
                    let status =
                        switch thumbnail {
                        case .file(let url):
                            FileLocation.withPath(of: url) { path in
                                gallerykit_vips_sheet_draw_image(sheet, path, nil, 0, x, y, width, height)
                            }
                        case .bytes(let data):
                            data.withUnsafeBytes { bytes in
                                gallerykit_vips_sheet_draw_image(sheet, nil, bytes.baseAddress, bytes.count, x, y, width, height)
                            }
                        }
                    return status == 0 ? () : nil
                }
                guard drawn == nil else { return }
                // An unreadable thumbnail (a damaged entry of the document) is an error tile, not
                // a failed export; its message is not needed.
                shared.unreadable[index] = true
            }
            gallerykit_vips_sheet_draw_error_tile(sheet, x, y, width, height)
        }
        if unreadableFails, unreadable.contains(true) {
            throw GalleryError(.ioFailure, "cannot draw the contact sheet (libvips cannot read one of its thumbnails)")
        }

        if let title {
            let rect = title.rect
            try draw("write the title on") {
                title.text.withCString { text in
                    gallerykit_vips_sheet_draw_text(
                        sheet, text, Int32(clamping: rect.x), Int32(clamping: rect.y), Int32(clamping: rect.width),
                        Int32(clamping: rect.height)
                    )
                }
            }
        }

        let (png, quality): (Int32, Int32) =
            switch encoding {
            case .png: (1, 0)
            case .jpeg(let quality): (0, Int32(clamping: min(max(quality, 1), 100)))
            }
        do {
            return try LibVips.buffer { gallerykit_vips_sheet_encode(sheet, png, quality, $0, $1) }
        } catch {
            throw GalleryError(.ioFailure, "cannot encode the contact sheet (\(error.message))")
        }
    }

    /// The canvas and one unreadable mark per cell, handed to the drawing threads. Safe because
    /// cells do not overlap: each thread writes only its own cell's pixels (the shim's contract)
    /// and its own mark, and both are freed only after `concurrentPerform` has returned.
    private struct SharedCanvas: @unchecked Sendable {
        let handle: OpaquePointer
        let unreadable: UnsafeMutableBufferPointer<Bool>
    }
}

extension ContactSheet.Rect {
    /// The whole pixels of `frame` moved by `x`, `y`: each edge rounded, not each size, so frames
    /// a gap apart stay apart (a.maxX < b.x stays so); at least 1 pixel a side.
    init(roundingEdgesOf frame: LayoutFrame, offsetBy x: Int = 0, _ y: Int = 0) {
        let left = Int(frame.x.rounded()), right = Int(frame.maxX.rounded())
        let upper = Int(frame.y.rounded()), lower = Int(frame.maxY.rounded())
        self.init(x: x + left, y: y + upper, width: max(1, right - left), height: max(1, lower - upper))
    }
}
