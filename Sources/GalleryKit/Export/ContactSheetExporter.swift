import Foundation

/// The whole gallery as one JPEG or PNG: its thumbnails in justified rows (`PageStyle`), on
/// white, the title on top.
///
/// Made only from thumbnails (the document's own, or ones made for the export), never from the
/// originals. A failed image, or one libvips could make no thumbnail of, is a grey square error
/// tile with a cross.
public struct ContactSheetExporter: DocumentExporter {
    /// The sheet's width in pixels, 256 to 16,384.
    public let width: Int
    /// Whether the gallery's title is written above the images (a gallery without one gets none).
    public let showsTitle: Bool
    private let encoding: ContactSheet.Encoding

    /// An exporter to the image file `output`, encoded by its extension.
    /// - Parameters:
    ///   - output: The file the sheet will be exported to; its extension picks JPEG or PNG.
    ///   - width: The sheet's width in pixels; clamped to 256...16384.
    ///   - showsTitle: Whether to write the gallery's title above the images.
    /// - Throws: `.invalidArgument` unless `output` ends in `.jpg`, `.jpeg` or `.png` (in any case).
    public init(for output: URL, width: Int = 2048, showsTitle: Bool = true) throws {
        switch output.pathExtension.lowercased() {
        case "jpg", "jpeg": encoding = .jpeg(quality: 85)
        case "png": encoding = .png
        default:
            throw GalleryError(.invalidArgument, url: output, "a contact sheet must be a .jpg, .jpeg or .png file")
        }
        self.width = min(max(width, Self.widthRange.lowerBound), Self.widthRange.upperBound)
        self.showsTitle = showsTitle
    }

    /// Thumbnails only: the sheet never decodes an original.
    public var materials: ExportMaterials { .thumbnails }

    /// Draws the sheet as a file in `staging`, which becomes the output.
    public func write(_ contents: ExportContents, into staging: URL) throws -> ExportPlacement {
        // A failed item, and one libvips could make no thumbnail of, is the square error tile.
        let isTile = contents.items.map { $0.failure != nil || $0.thumbnailPath == nil }
        let title = showsTitle ? Self.titleLine(contents.gallery.title) : nil
        let plan = try GalleryError.attributing(to: contents.output) {
            try Self.plan(
                aspectRatios: zip(contents.items, isTile).map { $1 ? 1 : $0.image.aspectRatio }, width: width, hasTitle: title != nil)
        }
        let cells = contents.items.indices.map { index in
            ContactSheet.Cell(
                thumbnail: isTile[index] ? nil : contents.items[index].thumbnailPath.map { .file(staging.appendingPathComponent($0)) },
                rect: plan.cells[index]
            )
        }
        let data = try GalleryError.attributing(to: contents.output) {
            try ContactSheet.render(
                width: plan.width, height: plan.height, cells: cells,
                title: title.map { ($0, plan.title) }, encoding: encoding
            )
        }
        let name = encoding == .png ? "contact-sheet.png" : "contact-sheet.jpg"
        try GalleryError.attributing(to: contents.output) {
            try ExportStaging.createFile(at: staging.appendingPathComponent(name), contents: data, syncing: true)
        }
        return .file(name)
    }
}

extension ContactSheetExporter {
    /// The widths the sheet may have.
    static let widthRange = 256...16384

    /// The largest sheet drawn: JPEG's limit is 65,535 pixels a side; 2²⁷ pixels is a 384 MB canvas.
    static let maximumHeight = 65_000
    static let maximumPixels = 1 << 27

    /// The height of the title line: a 32nd of the width, within 16...96.
    static func titleHeight(forWidth width: Int) -> Int { min(max(width / 32, 16), 96) }

    /// Where everything goes on a sheet.
    struct Plan: Equatable {
        var width: Int
        var height: Int
        /// One per item, in gallery order; no two overlap.
        var cells: [ContactSheet.Rect]
        /// The title line's rectangle (zero-sized when there is no title).
        var title: ContactSheet.Rect
        /// The row height the layout aimed at (lower than `PageStyle.contactSheet`'s only for a
        /// gallery too large to fit otherwise).
        var rowHeight: Double
    }

    /// Lays out items of these aspect ratios (failed ones as 1) on a sheet `width` pixels wide.
    ///
    /// Frames come from `PageStyle.contactSheet` inside the margin, below the title line if
    /// there is one; their edges are rounded to whole pixels, so cells `spacing` apart never
    /// overlap. A gallery too large for `maximumHeight` and `maximumPixels` gets lower rows, down
    /// to 16 pixels.
    /// - Throws: `.limitExceeded` if even that is too large.
    /// - Complexity: O(n) for n items.
    static func plan(aspectRatios: [Double], width: Int, hasTitle: Bool) throws -> Plan {
        var style = PageStyle.contactSheet(width: width)
        let margin = PageStyle.contactSheetMargin(forWidth: width)
        let titleHeight = hasTitle ? titleHeight(forWidth: width) : 0
        let top = margin + (hasTitle ? titleHeight + margin : 0)
        while true {
            let layout = style.layout(aspectRatios: aspectRatios)
            let cells = layout.frames.map { ContactSheet.Rect(roundingEdgesOf: $0, offsetBy: margin, top) }
            let contentBottom = cells.map { $0.y + $0.height }.max() ?? top - margin
            let height = contentBottom + margin
            if height <= maximumHeight, height * width <= maximumPixels {
                let title = ContactSheet.Rect(x: margin, y: margin, width: hasTitle ? width - 2 * margin : 0, height: titleHeight)
                return Plan(width: width, height: height, cells: cells, title: title, rowHeight: style.rowHeight)
            }
            guard style.rowHeight > 16 else {
                throw GalleryError(
                    .limitExceeded,
                    "a contact sheet of \(aspectRatios.count) images would be \(width)×\(height) pixels, more than can be drawn; use a smaller --width"
                )
            }
            // The height grows about as the square of the row height (rows get fewer items too).
            let excess = max(Double(height) / Double(maximumHeight), Double(height * width) / Double(maximumPixels))
            style.rowHeight = max(16, (style.rowHeight / excess.squareRoot() * 0.95).rounded(.down))
        }
    }

    /// The title as one line of plain text: control characters as spaces, at most 200 characters;
    /// `nil` if nothing is left.
    static func titleLine(_ title: String) -> String? {
        let line = String(String.UnicodeScalarView(title.unicodeScalars.map { $0.properties.generalCategory == .control ? " " : $0 }))
            .trimmingCharacters(in: .whitespacesAndNewlines)
        guard !line.isEmpty else { return nil }
        return line.count > 200 ? String(line.prefix(199)) + "…" : line
    }
}
