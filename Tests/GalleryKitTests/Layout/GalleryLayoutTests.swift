import GalleryKit
import PropertyBased
import Testing

/// An expansion or expanding rate: its ends, NaN, beyond `0...1` on either side, or inside.
private let expansion = zip(Gen.int(in: 0...5), Gen.double(in: 0...1)).map { kind, value -> Double in
    switch kind {
    case 0: 0
    case 1: 1
    case 2: .nan
    case 3: value * 3 - 1
    default: value
    }
}

/// Aspect ratios as documents hold them: ordinary photos, and the values a hostile or broken
/// document can carry (0, negative, NaN, infinite, huge, tiny, beyond the clamp).
private let documentRatio = zip(Gen.int(in: 0...15), Gen.double(in: 0.2...5)).map { kind, value -> Double in
    switch kind {
    case 0: 0
    case 1: -value
    case 2: .nan
    case 3: .infinity
    case 4: -.infinity
    case 5: 1e300
    case 6: 1e-300
    case 7: value * 10
    case 8: value / 40
    default: value
    }
}

/// Spacings, mostly ordinary, sometimes negative, NaN or far larger than the width.
private let documentSpacing = zip(Gen.int(in: 0...9), Gen.double(in: 0...30)).map { kind, value -> Double in
    switch kind {
    case 0: 0
    case 1: -value
    case 2: .nan
    case 3: value * 1000
    default: value
    }
}

/// The documented rule for aspect ratios: 1 for non-finite or non-positive ones, else clamped to 1/16...16.
private func usable(_ ratio: Double) -> Double {
    guard ratio.isFinite, ratio > 0 else { return 1 }
    return min(max(ratio, 1.0 / 16), 16)
}

/// The documented rule for spacings before each layout's own upper bound.
private func usableSpacing(_ spacing: Double) -> Double {
    spacing.isFinite && spacing > 0 ? spacing : 0
}

private let overlapTolerance = 1e-6

/// Whether two frames share an area more than `overlapTolerance` across on both axes.
private func overlap(_ a: LayoutFrame, _ b: LayoutFrame) -> Bool {
    min(a.maxX, b.maxX) - max(a.x, b.x) > overlapTolerance && min(a.maxY, b.maxY) - max(a.y, b.y) > overlapTolerance
}

/// Expectations every grid and justified layout meets: one frame per item, none overlapping, all
/// within `0...width` (exactly), in reading order row by row, `contentHeight` the lowest edge.
private func expectRowLayoutBasics(_ layout: GalleryLayout, count: Int, width: Double, sourceLocation: SourceLocation = #_sourceLocation) {
    let frames = layout.frames
    #expect(frames.count == count, sourceLocation: sourceLocation)
    for (index, frame) in frames.enumerated() {
        #expect(
            frame.x >= 0 && frame.maxX <= width && frame.y >= 0, "frame \(index) \(frame) outside 0...\(width)",
            sourceLocation: sourceLocation)
        #expect(
            frame.width > 0 && frame.height > 0 && frame.maxY.isFinite, "frame \(index) \(frame) is empty", sourceLocation: sourceLocation)
        for other in frames[..<index] where overlap(frame, other) {
            Issue.record("frame \(index) \(frame) overlaps \(other)", sourceLocation: sourceLocation)
        }
        if index > 0 {
            let previous = frames[index - 1]
            let readsOn =
                frame.y == previous.y
                ? frame.x >= previous.maxX - overlapTolerance
                : frame.y >= previous.maxY - overlapTolerance
            #expect(readsOn, "frame \(index) \(frame) does not follow \(previous)", sourceLocation: sourceLocation)
        }
    }
    #expect(layout.contentHeight == (frames.map(\.maxY).max() ?? 0), sourceLocation: sourceLocation)
}

/// The frames grouped into rows (runs of frames with the same top).
private func rows(_ frames: [LayoutFrame]) -> [ArraySlice<LayoutFrame>] {
    var rows: [ArraySlice<LayoutFrame>] = []
    var start = 0
    for index in frames.indices where index > 0 && frames[index].y != frames[index - 1].y {
        rows.append(frames[start..<index])
        start = index
    }
    if !frames.isEmpty { rows.append(frames[start...]) }
    return rows
}

/// A layout worked out by hand: the frames and content height it must give.
struct WorkedLayout: Sendable, CustomTestStringConvertible {
    var testDescription: String
    var layout: GalleryLayout
    var frames: [LayoutFrame]
    var contentHeight: Double

    /// A case whose frames are given as (x, y, width, height).
    init(_ description: String, _ layout: GalleryLayout, frames: [(Double, Double, Double, Double)], contentHeight: Double) {
        testDescription = description
        self.layout = layout
        self.frames = frames.map { LayoutFrame(x: $0, y: $1, width: $2, height: $3) }
        self.contentHeight = contentHeight
    }

    static let all = [
        WorkedLayout(
            "a grid of three columns at 300 has cells 100 wide", .grid(aspectRatios: [1, 1, 1, 2], columns: 3, width: 300),
            frames: [(0, 0, 100, 100), (100, 0, 100, 100), (200, 0, 100, 100), (0, 100, 100, 50)], contentHeight: 150),
        WorkedLayout(
            "a grid row is as tall as its tallest cell, and rows are spaced apart",
            .grid(aspectRatios: [1, 0.5, 2, 1], columns: 3, width: 320, spacing: 10),
            frames: [(0, 0, 100, 100), (110, 0, 100, 200), (220, 0, 100, 50), (0, 210, 100, 100)], contentHeight: 310),
        WorkedLayout(
            "justified fills rows and leaves the last at the row height",
            .justified(aspectRatios: [1, 1, 1, 1, 1], width: 300, rowHeight: 100),
            frames: [(0, 0, 100, 100), (100, 0, 100, 100), (200, 0, 100, 100), (0, 100, 100, 100), (100, 100, 100, 100)],
            contentHeight: 200),
        WorkedLayout(
            "justified spaces items and rows", .justified(aspectRatios: [1, 1, 1, 1], width: 310, rowHeight: 100, spacing: 5),
            frames: [(0, 0, 100, 100), (105, 0, 100, 100), (210, 0, 100, 100), (0, 105, 100, 100)], contentHeight: 205),
        // At width 300 and row height 100, a ratio above 6 would be under 50 tall alone.
        WorkedLayout(
            "justified gives a panorama a row of its own", .justified(aspectRatios: [1, 8, 1], width: 300, rowHeight: 100),
            frames: [(0, 0, 100, 100), (0, 100, 300, 37.5), (0, 137.5, 100, 100)], contentHeight: 237.5),
        WorkedLayout(
            "a filmstrip centres the settled current item",
            .filmstrip(aspectRatios: [1, 2, 0.5, 4], current: 1, expansion: 1, width: 400, height: 100, spacing: 10),
            frames: [(-10, 0, 100, 100), (100, 0, 200, 100), (310, 0, 100, 100), (420, 0, 100, 100)], contentHeight: 100),
    ]
}

@Suite struct GalleryLayoutTests {
    @Test(arguments: WorkedLayout.all)
    func givesTheFramesWorkedOutByHand(_ worked: WorkedLayout) {
        #expect(worked.layout.frames == worked.frames)
        #expect(worked.layout.contentHeight == worked.contentHeight)
    }

    // MARK: Grid

    @Test func gridTreatsBadRatiosAsSquaresAndClampsExtremeOnes() {
        let layout = GalleryLayout.grid(aspectRatios: [.nan, 0, -2, .infinity, 1e9, 1e-9], columns: 1, width: 160)
        #expect(layout.frames.map(\.height) == [160, 160, 160, 160, 10, 2560])
        #expect(layout.frames.map(\.width) == Array(repeating: 160, count: 6))
    }

    @Test(arguments: [0, -1, Int.min])
    func gridTreatsColumnsBelowOneAsOne(columns: Int) {
        #expect(
            GalleryLayout.grid(aspectRatios: [1, 2], columns: columns, width: 100)
                == GalleryLayout.grid(aspectRatios: [1, 2], columns: 1, width: 100))
    }

    @Test func gridWithMoreColumnsThanItemsLeavesTheRestEmpty() {
        let layout = GalleryLayout.grid(aspectRatios: [1, 1], columns: Int.max, width: 100)
        #expect(layout.frames.count == 2)
        #expect(layout.frames.allSatisfy { $0.width > 0 && $0.maxX <= 100 && $0.y == 0 })
    }

    @Test func gridKeepsGapsToHalfTheWidth() {
        // spacing 1000 at width 300 with 3 columns is 75: gaps of 150, cells of 50.
        let layout = GalleryLayout.grid(aspectRatios: [1, 1, 1, 1], columns: 3, width: 300, spacing: 1000)
        #expect(layout.frames.map(\.x) == [0, 125, 250, 0])
        #expect(layout.frames[3].y == 125)
    }

    @Test func gridProperties() async {
        await propertyCheck(
            count: 300,
            input: documentRatio.array(of: 0...60), Gen.int(in: -2...14), Gen.double(in: 1...3000), documentSpacing
        ) { ratios, columns, width, spacing in
            let layout = GalleryLayout.grid(aspectRatios: ratios, columns: columns, width: width, spacing: spacing)
            expectRowLayoutBasics(layout, count: ratios.count, width: width)
            #expect(GalleryLayout.grid(aspectRatios: ratios, columns: columns, width: width, spacing: spacing) == layout)

            let columns = max(columns, 1)
            let spacing = min(usableSpacing(spacing), width / (2 * Double(max(columns - 1, 1))))
            let cellWidth = (width - Double(columns - 1) * spacing) / Double(columns)
            var rowTop = 0.0
            for row in stride(from: 0, to: ratios.count, by: columns) {
                let cells = row..<min(row + columns, ratios.count)
                var rowHeight = 0.0
                for index in cells {
                    let frame = layout.frames[index]
                    #expect(frame.width == cellWidth)
                    #expect(frame.height == cellWidth / usable(ratios[index]))
                    #expect(abs(frame.y - rowTop) <= 1e-9 * (rowTop + 1))
                    #expect(abs(frame.x - Double(index - row) * (cellWidth + spacing)) <= 1e-9 * width)
                    rowHeight = max(rowHeight, frame.height)
                }
                rowTop += rowHeight + spacing
            }
        }
    }

    // MARK: Justified

    @Test func justifiedTakesTheItemThatLeavesTheRowNearerRowHeight() {
        // 300 / 2.5 = 120 is 20 above 100; with the third, 300 / 3.5 ≈ 85.7 is only 14.3 below.
        let layout = GalleryLayout.justified(aspectRatios: [1, 1.5, 1], width: 300, rowHeight: 100)
        let height = 300 / 3.5
        #expect(layout.frames.allSatisfy { $0.y == 0 && $0.height == height })
        #expect(zip(layout.frames.map(\.x), [0, height, height * 2.5]).allSatisfy { abs($0 - $1) < 1e-9 })
        #expect(abs(layout.frames[2].maxX - 300) < 1e-9)
    }

    @Test func justifiedLeavesTheItemThatWouldTakeTheRowFurtherFromRowHeight() {
        // 300 / 2.8 ≈ 107.1 is 7.1 above 100; with the third, 300 / 3.8 ≈ 78.9 would be 21.1 below.
        let layout = GalleryLayout.justified(aspectRatios: [1.4, 1.4, 1], width: 300, rowHeight: 100)
        #expect(layout.frames.count == 3)
        #expect(layout.frames[0].height == 300 / 2.8)
        #expect(abs(layout.frames[1].maxX - 300) < 1e-9)
        #expect(layout.frames[2] == LayoutFrame(x: 0, y: 300 / 2.8, width: 100, height: 100))
    }

    @Test func justifiedDoesNotTreatRatio6AsAPanorama() {
        // At width 300 and row height 100, ratio 6 is exactly half the row height alone: it joins no
        // other item, but is not a panorama either.
        #expect(GalleryLayout.justified(aspectRatios: [6, 1], width: 300, rowHeight: 100).frames[0].width == 300)
    }

    @Test func justifiedProperties() async {
        await propertyCheck(
            count: 300,
            input: documentRatio.array(of: 0...80), Gen.double(in: 1...3000), Gen.double(in: 5...600), documentSpacing
        ) { ratios, width, rowHeight, spacing in
            let layout = GalleryLayout.justified(aspectRatios: ratios, width: width, rowHeight: rowHeight, spacing: spacing)
            expectRowLayoutBasics(layout, count: ratios.count, width: width)
            #expect(GalleryLayout.justified(aspectRatios: ratios, width: width, rowHeight: rowHeight, spacing: spacing) == layout)

            let spacing = min(usableSpacing(spacing), width)
            let tolerance = 1e-9 * width
            // Every item keeps its clamped aspect ratio; panoramas are alone at full width.
            for (frame, ratio) in zip(layout.frames, ratios.map(usable)) {
                #expect(abs(frame.width - frame.height * ratio) <= tolerance, "\(frame) ratio \(ratio)")
                if ratio > 2 * width / rowHeight {
                    #expect(frame.x == 0 && frame.width == width, "panorama \(frame) not alone")
                }
            }
            let rows = rows(layout.frames)
            for (number, row) in rows.enumerated() {
                let height = row.first!.height
                #expect(row.allSatisfy { $0.height == height })
                // Edge to edge, or not stretched beyond rowHeight; no row more than twice rowHeight.
                #expect(abs(row.last!.maxX - width) <= tolerance || height <= rowHeight, "row \(number) \(row)")
                #expect(height <= 2 * rowHeight)
                // Items of a row are `spacing` apart.
                for (left, right) in zip(row, row.dropFirst()) {
                    #expect(abs(right.x - left.maxX - spacing) <= tolerance)
                }
                // Rows are `spacing` apart.
                if number > 0 {
                    #expect(abs(row.first!.y - rows[number - 1].first!.maxY - spacing) <= tolerance)
                }
            }
            if let last = rows.last {
                #expect(last.first!.height <= rowHeight)
            }
        }
    }

    // MARK: Filmstrip

    @Test func filmstripWidensHalfwayAtHalfExpansion() {
        let layout = GalleryLayout.filmstrip(
            aspectRatios: [1, 2, 0.5, 4], current: 1, expansion: 0.5, width: 400, height: 100, spacing: 10)
        #expect(layout.frames.map(\.x) == [15, 125, 285, 395])
        #expect(layout.frames[1].width == 150)
    }

    @Test(arguments: [(4.0, 300.0), (0.1, 50.0), (Double.nan, 100.0), (-3.0, 100.0)])
    func filmstripClampsTheCurrentRatioTo0_5Through3(ratio: Double, width: Double) {
        let layout = GalleryLayout.filmstrip(aspectRatios: [1, ratio], current: 1, expansion: 1, width: 400, height: 100)
        #expect(layout.frames[1].width == width)
    }

    @Test(arguments: [(-5, 0), (7, 2), (Int.min, 0), (Int.max, 2)])
    func filmstripClampsTheCurrentIndex(current: Int, clamped: Int) {
        #expect(
            GalleryLayout.filmstrip(aspectRatios: [2, 2, 2], current: current, expansion: 1, width: 400, height: 100)
                == GalleryLayout.filmstrip(aspectRatios: [2, 2, 2], current: clamped, expansion: 1, width: 400, height: 100))
    }

    @Test(arguments: [(-1.0, 0.0), (Double.nan, 0.0), (2.0, 1.0), (Double.infinity, 1.0)])
    func filmstripClampsExpansion(expansion: Double, clamped: Double) {
        #expect(
            GalleryLayout.filmstrip(aspectRatios: [1, 2], current: 1, expansion: expansion, width: 400, height: 100)
                == GalleryLayout.filmstrip(aspectRatios: [1, 2], current: 1, expansion: clamped, width: 400, height: 100))
    }

    @Test func filmstripProperties() async {
        await propertyCheck(
            count: 300,
            input: documentRatio.array(of: 0...50), Gen.int(in: -5...60), zip(expansion, expansion),
            zip(Gen.double(in: 1...2000), Gen.double(in: 1...300)), documentSpacing
        ) { ratios, current, expansions, size, spacing in
            let (width, height) = size
            let layout = GalleryLayout.filmstrip(
                aspectRatios: ratios, current: current, expansion: expansions.0, width: width, height: height, spacing: spacing
            )
            #expect(layout.frames.count == ratios.count)
            #expect(
                GalleryLayout.filmstrip(
                    aspectRatios: ratios, current: current, expansion: expansions.0, width: width, height: height, spacing: spacing
                ) == layout)
            guard !ratios.isEmpty else {
                #expect(layout.contentHeight == 0)
                return
            }
            #expect(layout.contentHeight == height)
            let current = min(max(current, 0), ratios.count - 1)
            let spacing = usableSpacing(spacing)
            let tolerance = 1e-9 * (width + Double(ratios.count) * (height + spacing))
            for (index, frame) in layout.frames.enumerated() {
                #expect(frame.y == 0 && frame.height == height)
                if index != current {
                    #expect(frame.width == height)
                }
                if index > 0 {
                    let previous = layout.frames[index - 1]
                    #expect(abs(frame.x - previous.maxX - spacing) <= tolerance, "frame \(index) \(frame) after \(previous)")
                    #expect(!overlap(frame, previous))
                }
            }
            let currentFrame = layout.frames[current]
            #expect(abs(currentFrame.x + currentFrame.width / 2 - width / 2) <= tolerance)

            // Square at 0, height × the ratio clamped to 0.5...3 at 1, monotonic in between.
            let settled = min(max(usable(ratios[current]), 0.5), 3)
            func currentWidth(_ expansion: Double) -> Double {
                GalleryLayout.filmstrip(
                    aspectRatios: ratios, current: current, expansion: expansion, width: width, height: height, spacing: spacing
                )
                .frames[current].width
            }
            #expect(currentWidth(0) == height)
            #expect(abs(currentWidth(1) - height * settled) <= 1e-12 * height * settled)
            let low = min(expansions.0.isNaN ? 0 : expansions.0, expansions.1.isNaN ? 0 : expansions.1)
            let high = max(expansions.0.isNaN ? 0 : expansions.0, expansions.1.isNaN ? 0 : expansions.1)
            if settled >= 1 {
                #expect(currentWidth(low) <= currentWidth(high))
            } else {
                #expect(currentWidth(low) >= currentWidth(high))
            }
        }
    }

    @Test func aStripBetweenTwoItemsWidensBothInProportion() {
        // Ratios 2 and 3 at 100: settled widths 200 and 300; 40 % of the way from item 1 to item 2.
        let layout = GalleryLayout.filmstrip(
            aspectRatios: [1, 2, 3, 1], position: 1.4, expandingRate: 1, width: 400, height: 100, spacing: 10)
        let widths = layout.frames.map(\.width)
        #expect(abs(widths[1] - (100 + 100 * 0.6)) < 1e-9 && abs(widths[2] - (100 + 200 * 0.4)) < 1e-9)
        #expect(widths[0] == 100 && widths[3] == 100)
        // The view's centre is 40 % of a step past item 1's square centre, pushed by item 2's half.
        let centre1 = layout.frames[1].x + layout.frames[1].width / 2
        #expect(abs(centre1 - (200 - 0.4 * 110 - 80 / 2)) < 1e-9)
    }

    @Test func movingStripProperties() async {
        await propertyCheck(
            count: 300,
            input: documentRatio.array(of: 1...40), Gen.double(in: -3...45), expansion,
            zip(Gen.double(in: 1...2000), Gen.double(in: 1...300)), documentSpacing
        ) { ratios, position, rate, size, spacing in
            let (width, height) = size
            let layout = GalleryLayout.filmstrip(
                aspectRatios: ratios, position: position, expandingRate: rate, width: width, height: height, spacing: spacing)
            #expect(layout.frames.count == ratios.count && layout.contentHeight == height)
            let spacing = usableSpacing(spacing)
            let step = height + spacing
            let clamped = min(max(position, 0), Double(ratios.count - 1))
            let tolerance = 1e-9 * (width + Double(ratios.count) * step) * 4
            for (index, frame) in layout.frames.enumerated() {
                #expect(frame.y == 0 && frame.height == height)
                // Only the items within a step of the centre are wider (or narrower) than square.
                if abs(Double(index) - clamped) >= 1 || rate.isNaN || rate <= 0 {
                    #expect(frame.width == height, "item \(index) at \(clamped)")
                }
                if index > 0 {
                    #expect(abs(frame.x - layout.frames[index - 1].maxX - spacing) <= tolerance)
                }
            }
            // At a whole position, the strip at rest there.
            let whole = clamped.rounded()
            let moving = GalleryLayout.filmstrip(
                aspectRatios: ratios, position: whole, expandingRate: rate, width: width, height: height, spacing: spacing)
            #expect(
                moving
                    == GalleryLayout.filmstrip(
                        aspectRatios: ratios, current: Int(whole), expansion: rate, width: width, height: height, spacing: spacing))
            let current = moving.frames[Int(whole)]
            #expect(abs(current.x + current.width / 2 - width / 2) <= tolerance)
            // With every item square (rate 0), the view's centre is `position` of the way along.
            let squares = GalleryLayout.filmstrip(
                aspectRatios: ratios, position: position, expandingRate: 0, width: width, height: height, spacing: spacing)
            #expect(abs(squares.frames[0].x + height / 2 + clamped * step - width / 2) <= tolerance)
            // Continuous: a small scroll moves every frame a little.
            let nudge = min(clamped + 0.001, Double(ratios.count - 1))
            let nudged = GalleryLayout.filmstrip(
                aspectRatios: ratios, position: nudge, expandingRate: rate, width: width, height: height, spacing: spacing)
            for (frame, next) in zip(layout.frames, nudged.frames) {
                #expect(
                    abs(next.x - frame.x) <= 0.001 * step * 4 + tolerance && abs(next.width - frame.width) <= 0.001 * height * 6 + tolerance
                )
            }
        }
    }

    @Test(arguments: [(-2.0, 30.0), (-1.0, 30.0), (-0.5, 15.0), (0.0, 0.0), (0.5, -15.0), (1.0, -30.0), (3.0, -30.0), (.nan, 0.0)])
    func parallaxLagsByAThirdOfThePagesDistance(distance: Double, offset: Double) {
        #expect(GalleryLayout.parallaxOffset(pageDistance: distance, pageWidth: 100) == offset)
        #expect(GalleryLayout.parallaxOffset(pageDistance: distance, pageWidth: .nan) == 0)
    }

    // MARK: All layouts

    /// Each layout with the given ratios, width and height (row height or strip height).
    private static func allLayouts(_ ratios: [Double], width: Double, height: Double) -> [GalleryLayout] {
        [
            .grid(aspectRatios: ratios, columns: 3, width: width, spacing: 4),
            .justified(aspectRatios: ratios, width: width, rowHeight: height, spacing: 4),
            .filmstrip(aspectRatios: ratios, current: 1, expansion: 1, width: width, height: height, spacing: 4),
        ]
    }

    @Test func noItemsGiveNoFrames() {
        for layout in Self.allLayouts([], width: 300, height: 100) {
            #expect(layout.frames.isEmpty)
            #expect(layout.contentHeight == 0)
        }
    }

    @Test(arguments: [0, -1, Double.nan, Double.infinity, -Double.infinity])
    func unusableWidthsGiveZeroSizeFrames(width: Double) {
        let zero = LayoutFrame(x: 0, y: 0, width: 0, height: 0)
        for layout in Self.allLayouts([1, 2, 0.5], width: width, height: 100) {
            #expect(layout.frames == [zero, zero, zero])
            #expect(layout.contentHeight == 0)
        }
    }

    @Test(arguments: [0, -5, Double.nan, Double.infinity, -Double.infinity])
    func unusableHeightsGiveZeroSizeFrames(height: Double) {
        let zero = LayoutFrame(x: 0, y: 0, width: 0, height: 0)
        for layout in Self.allLayouts([1, 2, 0.5], width: 300, height: height).dropFirst() {
            #expect(layout.frames == [zero, zero, zero])
            #expect(layout.contentHeight == 0)
        }
    }

    @Test func hugeSizesAndRatiosStayFinite() {
        let ratios: [Double] = [1e-300, 1e300, .greatestFiniteMagnitude, 1, .leastNonzeroMagnitude]
        for layout in Self.allLayouts(ratios, width: .greatestFiniteMagnitude, height: .greatestFiniteMagnitude) {
            #expect(layout.frames.allSatisfy { [$0.x, $0.y, $0.width, $0.height].allSatisfy(\.isFinite) })
            #expect(layout.contentHeight.isFinite && layout.contentHeight > 0)
        }
    }

    @Test func aHundredThousandItemsLayOutInOrder() {
        var state: UInt64 = 42
        let ratios = (0..<100_000).map { _ -> Double in
            state = state &* 6364136223846793005 &+ 1442695040888963407
            return 0.5 + Double(state >> 11) / Double(1 << 53) * 1.5
        }
        let justified = GalleryLayout.justified(aspectRatios: ratios, width: 1200, rowHeight: 180, spacing: 4)
        #expect(justified.frames.count == ratios.count)
        #expect(justified.frames.allSatisfy { $0.maxX <= 1200 })
        let grid = GalleryLayout.grid(aspectRatios: ratios, columns: 5, width: 1200, spacing: 4)
        #expect(grid.frames.last!.y > grid.frames[ratios.count - 6].y)
    }
}
