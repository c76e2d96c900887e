import Foundation
import Testing
@testable import GalleryKit

/// Spec §names: the rules `BundleLayout.checkName` applies to every entry name.
@Suite struct EntryNameTests {
    @Test(arguments: [
        (".", "has a '.' segment"), ("..", "has a '..' segment"), ("images/./x.jpg", "has a '.' segment"),
        ("images/../x.jpg", "has a '..' segment"), ("images/..", "has a '..' segment"), ("images//x.jpg", "has an empty segment"),
    ])
    func rejectsDotAndEmptySegments(name: String, problem: String) {
        #expect(throws: GalleryError(.unsafeArchive, "entry name \(name.debugDescription) \(problem)")) {
            try BundleLayout.checkName(name)
        }
    }

    /// Dots are only a problem as a whole segment of one or two.
    @Test(arguments: ["...", ".hidden", "x.", "images/.../x.jpg", "images/..x.jpg", "images/"])
    func acceptsOtherDots(name: String) throws {
        try BundleLayout.checkName(name)
    }

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
