import Foundation
import GalleryTestSupport
import Testing

/// `gallery export --format contact-sheet`, run as a user runs it.
@Suite struct ContactSheetCLITests: GalleryCommandSuite {
    let folder = TemporaryFolder()

    func makeDocument() throws {
        let files = try folder.distinctImages(3, from: Repository.sampleImage(".jpg")).map(\.lastPathComponent)
        let result = try Command.gallery(["create", "Trip.gallery", "--title", "Trip", "--cache"] + files, in: folder.url)
        try #require(result.status == 0, "\(result)")
    }

    /// The width and height in a PNG's IHDR chunk.
    func pngSize(_ name: String) throws -> (width: Int, height: Int) {
        let bytes = [UInt8](try Data(contentsOf: folder.path(name)))
        try #require(
            bytes.count > 24 && bytes[0..<8] == [0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A]
                && bytes[12..<16] == Array("IHDR".utf8)[...])
        let number = { (range: Range<Int>) in bytes[range].reduce(0) { $0 << 8 | Int($1) } }
        return (number(16..<20), number(20..<24))
    }

    @Test func exportsAPNGOfTheGivenWidth() throws {
        try makeDocument()
        let result = try gallery("export", "Trip.gallery", "--format", "contact-sheet", "--output", "Trip.png", "--width", "1024")
        #expect(result.status == 0, "\(result)")
        #expect(result.output.contains("Exported 3 images"), "\(result)")
        #expect(result.errorOutput.isEmpty, "\(result)")
        let size = try pngSize("Trip.png")
        #expect(size.width == 1024 && size.height > 100, "\(size)")
        #expect(folder.listing().filter { $0.hasPrefix(".") }.isEmpty, "no staging left behind")

        // Again without the title: the same width, a shorter sheet.
        let untitled = try gallery(
            "export", "Trip.gallery", "--format", "contact-sheet", "--output", "Untitled.png", "--width", "1024", "--no-title")
        #expect(untitled.status == 0, "\(untitled)")
        let shorter = try pngSize("Untitled.png")
        #expect(shorter.width == 1024 && shorter.height < size.height, "\(shorter) vs \(size)")
    }

    @Test func refusesAnOutputThatIsNotAJPEGOrPNGAndWritesNothing() throws {
        try makeDocument()
        let before = folder.listing()
        let result = try gallery("export", "Trip.gallery", "--format", "contact-sheet", "--output", "Trip.gif")
        #expect(result.status == 64, "\(result)")
        #expect(result.errorOutput.split(separator: "\n").count == 1 && result.errorOutput.contains("Trip.gif"), "\(result)")
        #expect(folder.listing() == before)
    }
}
