import Foundation
import GalleryKit
import GalleryTestSupport
import Testing

/// The page's copy of the viewer's geometry (`viewer-layout.js`, which a page needs at 60 frames a
/// second) answers as `GalleryLayout` does, on many random inputs, hostile ones included: one
/// algorithm, checked, never two drifting versions.
@Suite struct ViewerLayoutScriptTests {
    let folder = TemporaryFolder()

    /// A number as a document or a page may give it: ordinary, or one of the values the layout
    /// rules exist for.
    static func number(in range: ClosedRange<Double>, using random: inout SplitMix) -> Double {
        switch Int.random(in: 0..<12, using: &random) {
        case 0: .nan
        case 1: .infinity
        case 2: -.infinity
        case 3: 0
        case 4: -Double.random(in: range, using: &random)
        case 5: 1e13
        default: Double.random(in: range, using: &random)
        }
    }

    @Test func theScriptLaysTheStripOutAsTheLibraryDoes() throws {
        var random = SplitMix(seed: 2026_11_25)  // the same cases on every run
        var strips: [[String: Any]] = []
        for _ in 0..<600 {
            let ratios = (0..<Int.random(in: 0...30, using: &random)).map { _ in Self.number(in: 0.2...5, using: &random) }
            let position =
                Int.random(in: 0..<4, using: &random) == 0
                ? Double(Int.random(in: -2...32, using: &random))
                : Self.number(in: 0...32, using: &random)
            let rate = Self.number(in: 0...1, using: &random)
            let width = Self.number(in: 1...2000, using: &random)
            let height =
                Int.random(in: 0..<6, using: &random) == 0
                ? Self.number(in: 1...300, using: &random)
                : Double.random(in: 20...120, using: &random)
            let spacing = Self.number(in: 0...12, using: &random)
            let layout = GalleryLayout.filmstrip(
                aspectRatios: ratios, position: position, expandingRate: rate, width: width, height: height, spacing: spacing)
            strips.append([
                "ratios": ratios.map(\.description), "position": position.description, "rate": rate.description,
                "width": width.description, "height": height.description, "spacing": spacing.description,
                "frames": layout.frames.map { [$0.x.description, $0.width.description] },
            ])
        }
        var parallax: [[String: String]] = []
        for _ in 0..<200 {
            let distance = Self.number(in: 0...1.5, using: &random)
            let pageWidth = Self.number(in: 100...2000, using: &random)
            parallax.append([
                "distance": distance.description, "pageWidth": pageWidth.description,
                "offset": GalleryLayout.parallaxOffset(pageDistance: distance, pageWidth: pageWidth).description,
            ])
        }
        let cases = folder.path("cases.json")
        try JSONSerialization.data(withJSONObject: ["filmstrip": strips, "parallax": parallax]).write(to: cases)

        let checker = Repository.root.appendingPathComponent("Tests/Browser/check_viewer_layout.py")
        let script = Repository.root.appendingPathComponent("Sources/GalleryKit/Export/Templates/html/viewer-layout.js")
        let python = try #require(Command.which("python3"))
        let result = try Command.run(python, [checker.path, cases.path, script.path], in: folder.url)
        #expect(result.status == 0, "\(result)")
    }
}
