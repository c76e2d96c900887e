import Foundation
import GalleryTestSupport
import Testing

/// libvips (and its ~120 libraries) is loaded only by commands that decode an image.
@Suite struct LazyLoadingTests {
    let folder = TemporaryFolder()

    /// Runs `gallery` with the dynamic loader reporting every library it opens, and tells
    /// whether libvips was among them.
    func loadsLibVips(_ arguments: [String]) throws -> Bool {
        let result = try Command.gallery(arguments, in: folder.url, environment: ["LD_DEBUG": "files"])
        try #require(result.status == 0, "\(result)")
        try #require(result.errorOutput.contains("libarchive"), "LD_DEBUG reported nothing")
        return result.errorOutput.contains("libvips")
    }

    @Test func onlyCommandsThatDecodeImagesLoadLibVips() throws {
        let image = Repository.sampleImage(".jpg").path
        #expect(try loadsLibVips(["create", "Trip.gallery", "--cache", image]))
        #expect(try !loadsLibVips(["--version"]))
        for command in [
            ["open", "Trip.gallery", "--json"], ["browse"], ["verify", "Trip.gallery"],
            ["edit", "Trip.gallery", "title", "Other"], ["edit", "Trip.gallery", "undo"],
        ] {
            #expect(try !loadsLibVips(command), "\(command)")
        }
    }
}
