/// How a gallery is laid out on a page: the one place that decides the gaps, the row height, how
/// a document's columns setting becomes a layout, and the viewer's filmstrip cell.
///
/// `GalleryLayout` does the arithmetic; this decides what to ask it. Every page asks here —
/// `gallery serve`'s gallery page, the HTML export, the contact sheet and the document preview —
/// so one document lays out alike in all of them: at the same width, the app and the exported
/// site show the same rows.
public struct PageStyle: Sendable, Equatable {
    /// How images are arranged on the page.
    public enum Arrangement: String, Sendable, Codable, CaseIterable {
        /// Rows filled edge to edge, images keeping their shapes (Photos, Flickr): the default.
        case justified
        /// The original app's columns, each image as wide as a column.
        case grid
    }

    /// Justified rows or the grid.
    public var arrangement: Arrangement
    /// The width laid out, in points (CSS pixels on a screen, pixels on a sheet).
    public var width: Double
    /// The grid's columns.
    public var columns: Int
    /// The height justified rows aim at.
    public var rowHeight: Double
    /// The gap between images and between rows.
    public var spacing: Double

    /// The frames of items with these aspect ratios (failed ones as 1, the square error tile).
    /// - Complexity: O(n), where n is the number of items.
    public func layout(aspectRatios: [Double]) -> GalleryLayout {
        switch arrangement {
        case .grid: GalleryLayout.grid(aspectRatios: aspectRatios, columns: columns, width: width, spacing: spacing)
        case .justified: GalleryLayout.justified(aspectRatios: aspectRatios, width: width, rowHeight: rowHeight, spacing: spacing)
        }
    }
}

extension PageStyle {
    /// A screen page `width` CSS pixels wide showing about `columns` images a row: the gallery
    /// page of `gallery serve` at the window's width, and the HTML export at its two widths.
    ///
    /// The gap is 4 px on a phone (under `phoneWidth`) and 6 px otherwise. The columns setting gives
    /// the grid its columns and justified rows their height — as tall as a grid column is wide —
    /// so the one control (the original app's pinch) changes the images per row in both.
    public static func screen(width: Double, columns: Int, arrangement: Arrangement = .justified) -> PageStyle {
        let columns = max(columns, 1)
        let spacing = width < phoneWidth ? 4.0 : 6.0
        let rowHeight = (width - Double(columns - 1) * spacing) / Double(columns)
        return PageStyle(arrangement: arrangement, width: width, columns: columns, rowHeight: rowHeight, spacing: spacing)
    }

    /// The phone breakpoint, in CSS pixels: a page this wide or narrower (the style sheets'
    /// `max-width` media queries, filled in by `PageAssets.styleSheet(_:)`) is a phone's, and so is
    /// a layout narrower than it (its smaller gap). The one place the number is written.
    public static let phoneWidth = 600.0

    /// The widths the HTML export lays its page out at (then scaled to the window): a desktop
    /// window's content and a phone held upright, as `gallery serve` would at those widths.
    public static let exportedWidths = (desktop: 1200.0, phone: 390.0)

    /// The viewer's filmstrip: square cells of this side, in CSS pixels…
    public static let filmstripCell = 56.0
    /// …this far apart.
    public static let filmstripSpacing = 4.0
}

extension PageStyle {
    /// The contact sheet's layout on a sheet `width` pixels wide (256…16,384): justified rows
    /// inside a white margin of twice the gap.
    ///
    /// The gap is a 256th of the width, within 2…8 (8 at the default 2048). The row height is a
    /// 16th of the width, within 96…128: thumbnails are 256 pixels on their long edge (a 3:2
    /// landscape one is 171 high) and justified rows end up between this and about 1.3 times it,
    /// so nearly every cell is a thumbnail shrunk, which libvips does in a fraction of the time of
    /// enlarging (the sheet took 1.29 s for 300 photos at 180, 0.90 s at 128); a 2048-pixel
    /// sheet holds about ten a row. The sheet is not a screen: its rows follow its width and the
    /// thumbnails' size, not the document's columns.
    static func contactSheet(width: Int) -> PageStyle {
        let spacing = min(max(width / 256, 2), 8)
        let margin = 2 * spacing
        return PageStyle(
            arrangement: .justified, width: Double(width - 2 * margin), columns: 1,
            rowHeight: Double(min(max(width / 16, 96), 128)), spacing: Double(spacing)
        )
    }

    /// The white border around a contact sheet `width` pixels wide: twice its gap.
    static func contactSheetMargin(forWidth width: Int) -> Int { 2 * Int(contactSheet(width: width).spacing) }

    /// The document preview (`preview.jpg`, spec §3.4): a grid of 2 square cells of 128 pixels a
    /// row, no gaps, each thumbnail shrunk to fit its cell and centred.
    static let preview = PageStyle(arrangement: .grid, width: 256, columns: 2, rowHeight: 128, spacing: 0)

    /// How many thumbnails the preview shows: two rows of its columns.
    public static var previewCount: Int { 2 * preview.columns }
}
