import Foundation
import Testing
@testable import GalleryKit

/// Spec §5.3: the rules an image's members meet, as `ImageRules` applies them.
@Suite struct ImageRulesTests {
    /// The SHA-256 rule reads the same on a string's own bytes and on bytes from elsewhere.
    @Test func readsSHA256DigitsInPlaceOrNot() {
        let valid = String(repeating: "0123456789abcdef", count: 4)
        for text in [valid, valid.uppercased(), String(valid.dropLast()), valid + "0", String(valid.dropLast()) + "g"] {
            let expected = text == valid
            #expect(ImageRules.isSHA256(utf8: text.utf8) == expected, "\(text)")
            #expect(ImageRules.isSHA256(utf8: Array(text.utf8).lazy.map { $0 }) == expected, "\(text)")
        }
    }
}
