/// A rectangle in points, origin top-left.
public struct LayoutFrame: Sendable, Equatable, Hashable {
    /// The left edge.
    public var x: Double
    /// The top edge (y grows downwards).
    public var y: Double
    /// The width; never negative.
    public var width: Double
    /// The height; never negative.
    public var height: Double

    /// Creates a frame from its top-left corner and its size.
    public init(x: Double, y: Double, width: Double, height: Double) {
        self.x = x
        self.y = y
        self.width = width
        self.height = height
    }

    /// The right edge, `x + width`.
    public var maxX: Double { x + width }

    /// The bottom edge, `y + height`.
    public var maxY: Double { y + height }

    /// Something `width`×`height` shrunk to fit inside this frame (never enlarged), keeping its
    /// shape, centred in it. A non-positive or non-finite size is the whole frame.
    public func fitting(width: Double, height: Double) -> LayoutFrame {
        guard width.isFinite, height.isFinite, width > 0, height > 0 else { return self }
        let scale = min(1, self.width / width, self.height / height)
        let (fittedWidth, fittedHeight) = (width * scale, height * scale)
        return LayoutFrame(
            x: x + (self.width - fittedWidth) / 2, y: y + (self.height - fittedHeight) / 2, width: fittedWidth, height: fittedHeight)
    }
}

/// Frames for a gallery's items: the app's column grid, justified rows, or the viewer's filmstrip.
///
/// Layout is pure arithmetic on the items' aspect ratios (width ÷ height), so the HTML export,
/// the contact sheet and the web app all ask it instead of re-implementing it. Frames are
/// fractional; callers round.
///
/// The inputs come from untrusted documents, so every layout accepts any numbers:
/// - An aspect ratio that is NaN, infinite, zero or negative is 1 (the square error tile); the
///   others are clamped to `1/16...16`, so no frame is 0 wide or infinitely tall.
/// - A width, row height or strip height that is NaN, infinite, zero or negative gives every item
///   a zero-size frame at the origin and a `contentHeight` of 0; larger than 10¹² points, it is
///   10¹² (so no sum overflows).
/// - A spacing that is NaN, infinite or negative is 0; each layout documents its upper bound.
/// - No items give no frames and a `contentHeight` of 0.
public struct GalleryLayout: Sendable, Equatable {
    /// One frame per item, in gallery order.
    public var frames: [LayoutFrame]

    /// The height of the laid-out content (for filmstrip: the strip's height).
    public var contentHeight: Double

    init(frames: [LayoutFrame], contentHeight: Double) {
        self.frames = frames
        self.contentHeight = contentHeight
    }
}
