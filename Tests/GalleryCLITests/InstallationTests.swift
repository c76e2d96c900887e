import Foundation
import GalleryTestSupport
import Testing

/// `gallery` as people install it: one program, copied alone wherever it goes.
@Suite struct InstallationTests {
    let folder = TemporaryFolder()

    /// The program copied alone into an empty folder (nothing beside it, no build folder named
    /// inside it) creates, exports html, serves its pages and scripts and installs the desktop
    /// files (`Tests/Packaging/check_alone.py`).
    @Test func aCopyOfTheProgramAloneExportsServesAndInstalls() throws {
        let checker = Repository.root.appendingPathComponent("Tests/Packaging/check_alone.py")
        let python = try #require(Command.which("python3"))
        let images = Array(Repository.sampleImageFiles().prefix(3)).map(\.path)
        let result = try Command.run(python, [checker.path, Command.gallery.path] + images, in: folder.url)
        #expect(result.status == 0, "\(result)")
    }
}
