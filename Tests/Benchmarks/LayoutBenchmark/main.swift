// Lays out N items (the first argument, default 100,000) with seeded pseudo-random aspect ratios
// in each of GalleryLayout's layouts, 20 times each, and prints the median milliseconds per
// layout as one JSON object. Run by Tests/Benchmarks/layout_vs_python.py on a release build.
import GalleryKit

let count = CommandLine.arguments.count > 1 ? Int(CommandLine.arguments[1]) ?? 100_000 : 100_000
let repetitions = 20

/// Photo-like aspect ratios from a fixed seed (a 64-bit LCG), the same in every run; the Python
/// script draws the same sequence.
func seededRatios(count: Int, seed: UInt64 = 42) -> [Double] {
    var state = seed
    var ratios: [Double] = []
    ratios.reserveCapacity(count)
    for _ in 0..<count {
        state = state &* 6_364_136_223_846_793_005 &+ 1_442_695_040_888_963_407
        ratios.append(0.5 + Double(state >> 11) / 9_007_199_254_740_992 * 1.5)
    }
    return ratios
}

/// The median of `repetitions` timings of `body`, in milliseconds, after one unmeasured run.
func medianMilliseconds(_ body: () -> GalleryLayout) -> Double {
    var checksum = body().contentHeight
    var times: [Double] = []
    let clock = ContinuousClock()
    for _ in 0..<repetitions {
        var layout: GalleryLayout?
        let elapsed = clock.measure { layout = body() }
        checksum += layout?.contentHeight ?? 0
        times.append(Double(elapsed.components.seconds) * 1e3 + Double(elapsed.components.attoseconds) / 1e15)
    }
    // Keeps the optimizer from discarding the layouts.
    if checksum.isNaN { print("unexpected NaN") }
    times.sort()
    return times[times.count / 2]
}

let ratios = seededRatios(count: count)
let justified = medianMilliseconds { .justified(aspectRatios: ratios, width: 1200, rowHeight: 180, spacing: 4) }
let grid = medianMilliseconds { .grid(aspectRatios: ratios, columns: 5, width: 1200, spacing: 4) }
let filmstrip = medianMilliseconds {
    .filmstrip(aspectRatios: ratios, current: count / 2, expansion: 1, width: 1200, height: 80, spacing: 2)
}
let rows = Set(GalleryLayout.justified(aspectRatios: ratios, width: 1200, rowHeight: 180, spacing: 4).frames.map(\.y)).count
print(
    """
    {"items":\(count),"repetitions":\(repetitions),"justifiedRows":\(rows),\
    "justifiedMilliseconds":\(justified),"gridMilliseconds":\(grid),"filmstripMilliseconds":\(filmstrip)}
    """)
