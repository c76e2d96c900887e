extension GalleryLayout {
    /// The original app's flow layout: `columns` cells a row, cell width = (width − (columns − 1) × spacing) / columns, each cell as tall as its image at that width, each row as tall as its tallest cell, rows `spacing` apart.
    ///
    /// Each frame is the image itself: `cellWidth` wide and `cellWidth / aspectRatio` tall, at the
    /// top of its row; cells start at `column × (cellWidth + spacing)`. `columns` below 1 is 1.
    /// `spacing` is the same between columns and between rows, and is at most
    /// `width / (2 × max(columns − 1, 1))`, so gaps take at most half the width and no cell is 0
    /// wide. Aspect ratios and other numbers follow the rules on `GalleryLayout`.
    ///
    /// - Parameters:
    ///   - aspectRatios: Each item's width ÷ height, in gallery order.
    ///   - columns: The number of cells a row.
    ///   - width: The width to fill, in points.
    ///   - spacing: The gap between cells and between rows, in points.
    /// - Returns: One frame per item; `contentHeight` is the bottom of the last row.
    /// - Complexity: O(n), where n is the number of items.
    public static func grid(aspectRatios: [Double], columns: Int, width: Double, spacing: Double = 0) -> GalleryLayout {
        let count = aspectRatios.count
        guard count > 0 else { return .empty }
        guard let width = LayoutInput.length(width) else { return .zeroSized(count: count) }
        let columns = max(columns, 1)
        let gaps = Double(columns - 1)
        let spacing = LayoutInput.spacing(spacing, atMost: width / (2 * max(gaps, 1)))
        let cellWidth = max((width - gaps * spacing) / Double(columns), 0)

        // Only as many columns as there are items are used (columns may be Int.max).
        let usedColumns = min(columns, count)
        var columnX: [Double] = []
        columnX.reserveCapacity(usedColumns)
        for column in 0..<usedColumns {
            let x = Double(column) * (cellWidth + spacing)
            // The rounded sum of cells and gaps can pass the width by an ulp: the last column moves in.
            columnX.append(x + cellWidth > width ? lastColumnX(cellWidth: cellWidth, width: width) : x)
        }

        return .stackingRows(count: count, spacing: spacing) { rowStart, rowTop, frames in
            let rowEnd = rowStart + min(columns, count - rowStart)
            var rowHeight = 0.0
            for index in rowStart..<rowEnd {
                let height = cellWidth / LayoutInput.aspectRatio(aspectRatios[index])
                frames.append(LayoutFrame(x: columnX[index - rowStart], y: rowTop, width: cellWidth, height: height))
                rowHeight = max(rowHeight, height)
            }
            return (rowEnd, rowHeight)
        }
    }

    /// The largest x at which a cell `cellWidth` wide still ends within `width`.
    private static func lastColumnX(cellWidth: Double, width: Double) -> Double {
        var x = max(width - cellWidth, 0)
        while x > 0, x + cellWidth > width {
            x = x.nextDown
        }
        return x
    }
}
