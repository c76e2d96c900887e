extension GalleryLayout {
    /// Rows filled edge to edge at about `rowHeight` (Photos/Flickr look); the last row not stretched beyond rowHeight; a very wide item on a row of its own.
    ///
    /// Rows are filled greedily, in gallery order. A row's *fill height* is the height at which
    /// its items, keeping their aspect ratios, and the gaps between them fill `width` exactly:
    /// `(width − (k − 1) × spacing) / (sum of the k aspect ratios)`.
    /// - An item joins the row while the fill height stays at least `rowHeight`. The item that
    ///   would take it below `rowHeight` joins too if that leaves the fill height nearer
    ///   `rowHeight` than without it; either way the row is then full.
    /// - An item does not join if the row's gaps would then take more than half the width.
    /// - A *panorama* — an item that alone at full width would be less than half `rowHeight`
    ///   tall (`aspectRatio > 2 × width / rowHeight`) — gets a row of its own, at full width.
    /// - A full row is laid out at its fill height: its last frame ends at `width` (within
    ///   floating-point error, and never past it). A row that ends before it is full — the last
    ///   one, one cut short by a panorama, or one whose gaps leave no room — is laid out at
    ///   `min(fill height, rowHeight)`, left-aligned, so it is never stretched beyond `rowHeight`.
    ///
    /// All frames of a row share its top and height; every frame keeps its (clamped) aspect
    /// ratio, `width = height × aspectRatio` within floating-point error. Rows are `spacing`
    /// apart, and so are the items of a row; `spacing` is at most `width`. Aspect ratios and other
    /// numbers follow the rules on `GalleryLayout`.
    ///
    /// - Parameters:
    ///   - aspectRatios: Each item's width ÷ height, in gallery order.
    ///   - width: The width to fill, in points.
    ///   - rowHeight: The height rows should be near, in points.
    ///   - spacing: The gap between items and between rows, in points.
    /// - Returns: One frame per item; `contentHeight` is the bottom of the last row.
    /// - Complexity: O(n), where n is the number of items.
    public static func justified(aspectRatios: [Double], width: Double, rowHeight: Double, spacing: Double = 0) -> GalleryLayout {
        let count = aspectRatios.count
        guard count > 0 else { return .empty }
        guard let width = LayoutInput.length(width), let target = LayoutInput.length(rowHeight) else {
            return .zeroSized(count: count)
        }
        let spacing = LayoutInput.spacing(spacing, atMost: width)
        let panoramaRatio = 2 * width / target

        return .stackingRows(count: count, spacing: spacing) { rowStart, rowTop, frames in
            let first = LayoutInput.aspectRatio(aspectRatios[rowStart])
            var rowEnd = rowStart + 1
            var ratioSum = first
            var fillHeight = width / first
            // A row is full when its next item (if any) could not join because of its height;
            // one that ends for another reason is not stretched.
            var isFull = first > panoramaRatio
            if !isFull {
                while rowEnd < count {
                    if fillHeight <= target {
                        isFull = true
                        break
                    }
                    let next = LayoutInput.aspectRatio(aspectRatios[rowEnd])
                    let gaps = Double(rowEnd - rowStart) * spacing
                    guard next <= panoramaRatio, gaps <= width / 2 else { break }
                    let candidate = (width - gaps) / (ratioSum + next)
                    guard candidate >= target || target - candidate < fillHeight - target else {
                        isFull = true
                        break
                    }
                    ratioSum += next
                    rowEnd += 1
                    fillHeight = candidate
                }
                if rowEnd == count, fillHeight <= target {
                    isFull = true
                }
            }

            let height = isFull ? fillHeight : min(fillHeight, target)
            var x = 0.0
            for index in rowStart..<rowEnd {
                var itemWidth = height * LayoutInput.aspectRatio(aspectRatios[index])
                if index == rowEnd - 1 {
                    // A full row ends at the width exactly; rounding may not push any row past it.
                    x = min(x, width)
                    itemWidth = LayoutInput.width(isFull ? width - x : itemWidth, from: x, notPassing: width)
                }
                frames.append(LayoutFrame(x: x, y: rowTop, width: itemWidth, height: height))
                x = x + itemWidth + spacing
            }
            return (rowEnd, height)
        }
    }
}
