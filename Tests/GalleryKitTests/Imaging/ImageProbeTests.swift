import Foundation
import GalleryTestSupport
import Testing
@testable import GalleryKit

@Suite struct ImageProbeTests {
    @Test func readsEverySampleImage() throws {
        let files = Repository.sampleImageFiles()
        try #require(files.count >= 5)
        for file in files {
            let info = try ImageProbe.info(forFileAt: file)
            #expect(info.width > 0 && info.height > 0, "\(file.lastPathComponent)")
        }
    }

    @Test func appliesEXIFOrientation() throws {
        // Stored 300×200, EXIF orientation 6: shown rotated, so portrait.
        let info = try ImageProbe.info(forFileAt: Repository.sampleImage("exif6"))
        #expect(info.width < info.height)
        #expect(info.aspectRatio < 1)
    }

    @Test(arguments: [
        ("png", "image/png"), ("webp", "image/webp"), ("jpg", "image/jpeg"),
    ])
    func namesTheMediaType(fileExtension: String, mediaType: String) throws {
        let file = try #require(Repository.sampleImageFiles().first { $0.pathExtension == fileExtension })
        let info = try ImageProbe.info(forFileAt: file)
        #expect(info.mediaType == mediaType)
    }

    @Test(arguments: ["text", "csv", "empty", "truncated jpeg", "folder", "fifo", "device", "missing"])
    func rejectsWhatIsNotAnImage(kind: String) throws {
        let folder = TemporaryFolder()
        var url = folder.path("input.jpg")
        switch kind {
        case "text": try Data("hello, not an image".utf8).write(to: url)
        case "csv": url = folder.path("matrix.csv"); try Data("1,2\n3,4\n".utf8).write(to: url)
        case "empty": try Data().write(to: url)
        case "truncated jpeg": try Data(contentsOf: Repository.sampleImage(".jpg")).prefix(10).write(to: url)
        case "folder": url = folder.url
        case "fifo": #expect(mkfifo(url.path, 0o644) == 0)  // must not block waiting for a writer
        case "device": url = URL(fileURLWithPath: "/dev/zero")  // must not be read forever
        default: break
        }
        let error = #expect(throws: GalleryError.self) { try ImageProbe.info(forFileAt: url) }
        #expect(error?.code == (kind == "missing" ? .fileNotFound : .notAnImage))
        #expect(error?.path == url.path)
    }
}
