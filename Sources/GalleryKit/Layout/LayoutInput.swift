/// The rules that turn a document's numbers into ones every layout can use (see `GalleryLayout`).
enum LayoutInput {
    /// The range aspect ratios are clamped to: a 1:16 sliver at one end, a 16:1 panorama at the other.
    static let aspectRatioRange: ClosedRange<Double> = (1.0 / 16)...16

    /// The largest width, row height, strip height or spacing used; larger ones are this.
    ///
    /// 10¹² points keeps every sum of frames finite: even 10⁸ rows of items at 16 × this are far
    /// below `Double.greatestFiniteMagnitude`.
    static let maximumLength = 1e12

    /// A usable aspect ratio: 1 for the error tile's non-finite or non-positive ratios, else clamped.
    @inline(__always)
    static func aspectRatio(_ ratio: Double) -> Double {
        guard ratio.isFinite, ratio > 0 else { return 1 }
        return min(max(ratio, aspectRatioRange.lowerBound), aspectRatioRange.upperBound)
    }

    /// A usable length, or `nil` when the caller gets zero-size frames.
    static func length(_ length: Double) -> Double? {
        guard length.isFinite, length > 0 else { return nil }
        return min(length, maximumLength)
    }

    /// A usable spacing: 0 for non-finite or negative values, at most `limit`.
    static func spacing(_ spacing: Double, atMost limit: Double) -> Double {
        guard spacing.isFinite, spacing > 0 else { return 0 }
        return min(spacing, limit)
    }

    /// `right`, lowered by rounding errors until `left + right` does not pass `limit`.
    ///
    /// Sums of fractional widths and gaps can exceed the width they were computed from by an ulp;
    /// this keeps every frame inside it. `left` must not exceed `limit`.
    @inline(__always)
    static func width(_ width: Double, from left: Double, notPassing limit: Double) -> Double {
        var width = max(min(width, limit - left), 0)
        while width > 0, left + width > limit {
            width = width.nextDown
        }
        return width
    }
}

extension GalleryLayout {
    /// No frames, no height.
    static let empty = GalleryLayout(frames: [], contentHeight: 0)

    /// `count` zero-size frames at the origin: the answer to an unusable width or height.
    static func zeroSized(count: Int) -> GalleryLayout {
        GalleryLayout(frames: Array(repeating: LayoutFrame(x: 0, y: 0, width: 0, height: 0), count: count), contentHeight: 0)
    }

    /// The rows of `count` items stacked top to bottom, `spacing` apart, each placed by `placeRow`:
    /// given the row's first item and its top, it appends the row's frames and returns the item
    /// after the row's last and the row's height. `contentHeight` is the bottom of the last row.
    ///
    /// - Complexity: O(r) plus the work of `placeRow`, where r is the number of rows.
    @inline(__always)
    static func stackingRows(
        count: Int, spacing: Double, placeRow: (_ start: Int, _ top: Double, _ frames: inout [LayoutFrame]) -> (end: Int, height: Double)
    ) -> GalleryLayout {
        var frames: [LayoutFrame] = []
        frames.reserveCapacity(count)
        var rowTop = 0.0
        var contentHeight = 0.0
        var rowStart = 0
        while rowStart < count {
            let row = placeRow(rowStart, rowTop, &frames)
            contentHeight = rowTop + row.height
            rowTop = contentHeight + spacing
            rowStart = row.end
        }
        return GalleryLayout(frames: frames, contentHeight: contentHeight)
    }
}
