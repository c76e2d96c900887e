import Foundation
import PropertyBased
import Testing
@testable import GalleryKit

@Suite struct SearchableTextTests {
    /// Pieces of names, titles, captions and URLs: ASCII in both cases, accented Latin (composed
    /// and with a combining accent), Greek, fullwidth Latin, Japanese, symbols and nothing.
    static let pieces = [
        "Trip", "HARBOUR", "walk", "7", "https://images.example.org/a/B.jpg", " ", "-", "\\", "Café", "ÉLAN", "e\u{301}",
        "Αθήνα", "ＡＢＣ", "日出の旅", "ｶﾀｶﾅ", "★", "", "Ünïcödé", "\t", "ZOO", "@[`{",
    ]

    /// Each field is folded as `DocumentSearch` folds a whole text, however the folding gets
    /// there: for prefix matches field by field (the captions and the URLs one a line), and all
    /// of it, a field a line, for substring matches.
    @Test func foldsEachFieldAsTheSearchFoldsText() async {
        await propertyCheck(count: 400, input: Gen.int(in: 0...Int.max)) { seed in
            var generator = SplitMix(seed: UInt64(seed))
            func text() -> String {
                (0..<Int.random(in: 0...4, using: &generator)).map { _ in Self.pieces.randomElement(using: &generator)! }.joined()
            }
            func lines() -> [String] { (0..<Int.random(in: 0...3, using: &generator)).map { _ in text() } }
            let name = text(), title = text(), captions = lines(), urls = lines()
            let folded = SearchableText(name: name, title: title, captions: captions, urls: urls)

            let fields = [name, title, captions.joined(separator: "\n"), urls.joined(separator: "\n")]
            let expected = fields.map(DocumentSearch.foldedForPrefixes)
            #expect([folded.name, folded.title, folded.captions, folded.urls] == expected, "\(fields)")
            #expect(folded.substringText == fields.map(DocumentSearch.foldedForSubstrings).joined(separator: "\n"), "\(fields)")
        }
    }

    /// ASCII text is lowercased, nothing else: punctuation (`@`, `[` and `` ` `` beside the
    /// letters), digits and line breaks stay.
    @Test func lowercasesASCII() {
        let folded = SearchableText(name: "Trip 10", title: "@AZ[`az{\\", captions: ["One", "TWO"], urls: [])
        #expect(folded.name == "trip 10")
        #expect(folded.title == "@az[`az{\\")
        #expect(folded.captions == "one\ntwo")
        #expect(folded.urls == "")
        #expect(folded.substringText == "trip 10\n@az[`az{\\\none\ntwo\n")
    }
}
