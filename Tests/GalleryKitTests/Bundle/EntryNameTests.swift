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
    @Test(arguments: ["...", ".a", ".hidden", "x.", "images/.b", "images/.../x.jpg", "images/..x.jpg", "images/"])
    func acceptsOtherDots(name: String) throws {
        try BundleLayout.checkName(name)
    }

}
