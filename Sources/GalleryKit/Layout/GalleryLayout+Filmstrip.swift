extension GalleryLayout {
    /// The range the current item's aspect ratio is clamped to when it widens in the filmstrip,
    /// so a panorama cannot swallow the strip nor a sliver vanish from it.
    static let filmstripAspectRatioRange: ClosedRange<Double> = 0.5...3

    /// The Photos app's viewer strip: square thumbnails of side `height`, `spacing` apart, the one at `current` widened towards its own aspect ratio by `expansion`.
    ///
    /// The current item is `height × (1 + expansion × (r − 1))` wide, where `r` is its aspect
    /// ratio clamped to `0.5...3` (after the rules on `GalleryLayout`): square at expansion 0
    /// (while scrolling), `height × r` at 1 (settled), and in between moving monotonically from
    /// one to the other. Every other item is a `height`-sided square. Items are `spacing` apart
    /// in gallery order, and the strip is positioned so that the current item's centre is at
    /// `width / 2`: frames may lie outside `0...width`. All frames have y = 0 and the given height.
    ///
    /// `current` out of range is clamped to the first or last item; `expansion` is clamped to
    /// `0...1` (NaN is 0); `spacing` is at most 10¹² points.
    ///
    /// - Parameters:
    ///   - aspectRatios: Each item's width ÷ height, in gallery order.
    ///   - current: The index of the item being viewed.
    ///   - expansion: How far the current item has widened, from 0 (square) to 1 (settled).
    ///   - width: The width of the view the strip is centred in, in points.
    ///   - height: The strip's height and the thumbnails' side, in points.
    ///   - spacing: The gap between items, in points.
    /// - Returns: One frame per item; `contentHeight` is the strip's height.
    /// - Complexity: O(n), where n is the number of items.
    public static func filmstrip(
        aspectRatios: [Double], current: Int, expansion: Double, width: Double, height: Double, spacing: Double = 0
    ) -> GalleryLayout {
        let count = aspectRatios.count
        guard count > 0 else { return .empty }
        guard let width = LayoutInput.length(width), let height = LayoutInput.length(height) else {
            return .zeroSized(count: count)
        }
        let spacing = LayoutInput.spacing(spacing, atMost: LayoutInput.maximumLength)
        let current = min(max(current, 0), count - 1)
        let expansion = expansion.isNaN ? 0 : min(max(expansion, 0), 1)
        let settledRatio = min(
            max(LayoutInput.aspectRatio(aspectRatios[current]), filmstripAspectRatioRange.lowerBound),
            filmstripAspectRatioRange.upperBound
        )
        let currentWidth = height * (1 + expansion * (settledRatio - 1))
        let currentX = width / 2 - currentWidth / 2
        let step = height + spacing

        // Each position is computed from the current item's, not accumulated, so rounding errors
        // do not grow along a strip of thousands.
        var frames: [LayoutFrame] = []
        frames.reserveCapacity(count)
        for index in 0..<current {
            frames.append(LayoutFrame(x: currentX - Double(current - index) * step, y: 0, width: height, height: height))
        }
        frames.append(LayoutFrame(x: currentX, y: 0, width: currentWidth, height: height))
        let afterCurrent = currentX + currentWidth + spacing
        for index in (current + 1)..<count {
            frames.append(LayoutFrame(x: afterCurrent + Double(index - current - 1) * step, y: 0, width: height, height: height))
        }
        return GalleryLayout(frames: frames, contentHeight: height)
    }
}
