import Foundation
import PropertyBased
import Testing
@testable import GalleryKit

@Suite struct NaturalSortKeyTests {
    /// Pieces of names: runs of digits (leading zeros, zeros alone, Arabic-Indic and fullwidth
    /// digits), ASCII in both cases, accented Latin (composed and with a combining accent),
    /// punctuation, symbols, spaces and nothing.
    static let pieces = [
        "Trip", " ", "2", "10", "007", "0", "000", "٣", "１２", "IMG", "a", "Z", "-", "_", ".", "Élan", "e\u{301}", "★", "$", "日出", "\t", "",
    ]

    /// A key is what the first version made, with a list of digits for each number: the count
    /// of its digits, leading zeros left out, then the digits.
    @Test func weighsNamesAsTheFirstVersionDid() async {
        await propertyCheck(count: 400, input: Gen.int(in: 0...Int.max)) { seed in
            var generator = SplitMix(seed: UInt64(seed))
            let name = (0..<Int.random(in: 0...6, using: &generator)).map { _ in Self.pieces.randomElement(using: &generator)! }.joined()
            #expect(NaturalSortKey(name).weights == Self.weightsAsFirstMade(name), "\(name.debugDescription)")
        }
    }

    @Test func weighsNumbersByTheirCountOfDigitsThenTheirDigits() {
        let number = NaturalSortKey.numberClass
        let a = NaturalSortKey.weight(of: "a")
        #expect(NaturalSortKey("a007").weights == [a, number | 1, number | 7])
        #expect(NaturalSortKey("a000").weights == [a, number | 0])
        #expect(NaturalSortKey("10a").weights == [number | 2, number | 1, number | 0, a])
        #expect(NaturalSortKey("").weights.isEmpty)
    }

    private static func weightsAsFirstMade(_ name: String) -> [UInt32] {
        let folded =
            name.utf8.allSatisfy { $0 < 0x80 }
            ? name : name.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
        var weights: [UInt32] = []
        var digits: [UInt32] = []
        var isInNumber = false
        func appendNumber() {
            weights.append(NaturalSortKey.numberClass | UInt32(digits.count))
            weights.append(contentsOf: digits.map { NaturalSortKey.numberClass | $0 })
        }
        for scalar in folded.unicodeScalars {
            if let digit = NaturalSortKey.digitValue(scalar) {
                if digit != 0 || !digits.isEmpty { digits.append(digit) }
                isInNumber = true
                continue
            }
            if isInNumber {
                appendNumber()
                digits.removeAll()
                isInNumber = false
            }
            weights.append(NaturalSortKey.weight(of: scalar))
        }
        if isInNumber { appendNumber() }
        return weights
    }
}
