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
        // The strip at rest on an item: one algorithm with the strip in motion.
        let current = min(max(current, 0), max(aspectRatios.count - 1, 0))
        return filmstrip(
            aspectRatios: aspectRatios, position: Double(current), expandingRate: expansion, width: width, height: height, spacing: spacing)
    }
}

extension GalleryLayout {
    /// The filmstrip while it scrolls, at a fractional `position` (2.4 is 40 % of the way from
    /// item 2 to item 3), the way the Photos layout write-up describes it.
    ///
    /// The point `position` of the strip is at `width / 2`: item `i`'s square (side `height`) is
    /// centred at `width / 2 + (i − position) × (height + spacing)`. An item less than one step
    /// from there widens towards its aspect ratio: its extra width is
    /// `(height × r − height) × expanding × expandingRate`, where `r` is its ratio clamped to
    /// `0.5...3` and `expanding = 1 − |i − position|`, so during a scroll the widening passes
    /// smoothly from one item to the next; it pushes the items before it left and those after it
    /// right by half its extra width each, so items stay `spacing` apart. `expandingRate` is 0
    /// while the user drags the strip itself (all squares) and 1 once it has settled.
    ///
    /// At a whole `position` this is `filmstrip(aspectRatios:current:expansion:…)` with
    /// `expansion` = `expandingRate`. `position` is clamped to the items (NaN is 0), so the first
    /// and last can reach the centre; `expandingRate` to `0...1` (NaN is 0).
    /// - Complexity: O(n), where n is the number of items.
    public static func filmstrip(
        aspectRatios: [Double], position: Double, expandingRate: Double, width: Double, height: Double, spacing: Double = 0
    ) -> GalleryLayout {
        let count = aspectRatios.count
        guard count > 0 else { return .empty }
        guard let width = LayoutInput.length(width), let height = LayoutInput.length(height) else {
            return .zeroSized(count: count)
        }
        let spacing = LayoutInput.spacing(spacing, atMost: LayoutInput.maximumLength)
        let position = position.isNaN ? 0 : min(max(position, 0), Double(count - 1))
        let rate = expandingRate.isNaN ? 0 : min(max(expandingRate, 0), 1)
        let step = height + spacing

        // Only the one or two items within a step of the centre widen.
        let lower = Int(position.rounded(.down))
        let upper = min(lower + 1, count - 1)
        func extraWidth(of index: Int) -> Double {
            let ratio = min(
                max(LayoutInput.aspectRatio(aspectRatios[index]), filmstripAspectRatioRange.lowerBound),
                filmstripAspectRatioRange.upperBound)
            let expanding = max(0, 1 - abs(Double(index) - position))
            return (height * ratio - height) * expanding * rate
        }
        let widened = upper == lower ? [(lower, extraWidth(of: lower))] : [(lower, extraWidth(of: lower)), (upper, extraWidth(of: upper))]

        var frames: [LayoutFrame] = []
        frames.reserveCapacity(count)
        for index in 0..<count {
            var itemWidth = height
            var shift = 0.0
            for (widenedIndex, extra) in widened {
                if index == widenedIndex {
                    itemWidth += extra
                } else {
                    shift += index < widenedIndex ? -extra / 2 : extra / 2
                }
            }
            // From the centre, not accumulated: rounding errors do not grow along thousands of items.
            let centre = width / 2 + (Double(index) - position) * step + shift
            frames.append(LayoutFrame(x: centre - itemWidth / 2, y: 0, width: itemWidth, height: height))
        }
        return GalleryLayout(frames: frames, contentHeight: height)
    }

    /// How far a pager's image is moved inside its page while the page moves, so that the image
    /// slides slower than its frame: `−0.3 × pageWidth × distance`, where `distance` is how far
    /// the page's centre is from the view's centre in page widths (positive to the right),
    /// clamped to `−1...1` (NaN is 0). 0 for the page at rest in the centre.
    public static func parallaxOffset(pageDistance distance: Double, pageWidth: Double) -> Double {
        guard let pageWidth = LayoutInput.length(pageWidth) else { return 0 }
        let distance = distance.isNaN ? 0 : min(max(distance, -1), 1)
        return -parallaxFactor * pageWidth * distance
    }

    /// How much of a page's movement its image lags behind (the write-up's 0.3).
    public static let parallaxFactor = 0.3
}
