import Foundation
import Testing
@testable import GalleryKit

/// What a listing takes from a document's path: its name and its folder, from the path's bytes
/// wherever they sit in memory (a slice of longer bytes included).
@Suite struct ListedFileTests {
    static func bytes(_ text: String, after junk: String = "") -> Data {
        Data((junk + text).utf8).dropFirst(junk.utf8.count)
    }

    @Test func namesAreTheLastComponentWithoutTheExtension() {
        #expect(ListedFile(path: Self.bytes("/d/x.gallery")).name == "x")
        #expect(ListedFile(path: Self.bytes("x.gallery")).name == "x")
        #expect(ListedFile(path: Self.bytes("/a/b/Trip 10.gallery", after: "junk/")).name == "Trip 10")
        #expect(ListedFile(path: Self.bytes("/d/ab")).name == "")
        // Not UTF-8: as `ls -b` shows it.
        #expect(ListedFile(path: Data("/d/caf".utf8) + [0xE9] + Data(".gallery".utf8)).name == "caf\\351")
    }

    @Test func foldersAreEverythingBeforeTheLastSlash() {
        #expect(ListingScope.parent(of: Self.bytes("/d/x.gallery")) == Data("/d".utf8))
        #expect(ListingScope.parent(of: Self.bytes("/d/e/x.gallery", after: "junk/")) == Data("/d/e".utf8))
        #expect(ListingScope.parent(of: Self.bytes("/x.gallery")) == Data())
        #expect(ListingScope.parent(of: Self.bytes("x.gallery")) == Data())
    }
}
