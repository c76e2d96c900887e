import Foundation
import GalleryTestSupport
import Testing
@testable import GalleryKit

/// Display sizes: shrunk on load to the ladder's long edges, upright, sRGB JPEGs without any
/// metadata (never a photo's location), never enlarged.
@Suite struct RenditionTests {
    let folder = TemporaryFolder()

    /// A 3000×2000 JPEG turned upright by EXIF orientation 6 (shown 2000×3000), carrying a GPS
    /// location, as a phone's camera writes one.
    func cameraPhoto() throws -> URL {
        let cell = ContactSheet.Cell(
            thumbnail: .file(Repository.sampleImage("01-dawn")), rect: ContactSheet.Rect(x: 0, y: 0, width: 3000, height: 2000))
        let jpeg = try ContactSheet.render(width: 3000, height: 2000, cells: [cell], title: nil, encoding: .jpeg(quality: 90))
        return try folder.write(EXIF.adding(orientation: 6, latitude: [48, 51, 24], to: jpeg), to: "camera.jpg")
    }

    func info(of jpeg: Data) throws -> ImageInfo {
        try ImageProbe.info(forFileAt: try folder.write(jpeg, to: "probe-\(UUID().uuidString).jpg"))
    }

    @Test func theLadderIsMadeUprightAndWithoutTheLocation() throws {
        let photo = try cameraPhoto()
        #expect(EXIF.hasMetadataSegment(try Data(contentsOf: photo)), "the test photo carries its location")
        #expect(try ImageProbe.info(forFileAt: photo).width == 2000, "shown upright")
        let fromFile = try Rendition.make(fromFileAt: photo, longEdges: Rendition.ladder)
        let fromBytes = try Rendition.make(from: try Data(contentsOf: photo), longEdges: Rendition.ladder)
        for renditions in [fromFile, fromBytes] {
            #expect(renditions.map(\.longEdge) == [512, 1024, 2048])
            for rendition in renditions {
                let shown = try info(of: rendition.jpeg)
                #expect(shown.mediaType == "image/jpeg")
                #expect(shown.width == rendition.width && shown.height == rendition.height)
                #expect(rendition.height == rendition.longEdge, "upright: taller than wide")
                #expect(abs(Double(rendition.width) / Double(rendition.height) - 2.0 / 3.0) < 0.01)
                #expect(!EXIF.hasMetadataSegment(rendition.jpeg), "no EXIF, so no location")
            }
        }
    }

    /// The ladder's steps below an image's own size, and one at its size when the ladder goes
    /// past it; never an enlargement.
    @Test(
        arguments: [
            (nil, [512, 1024, 2048]), (300, [300]), (512, [512]), (800, [512, 800]), (2048, [512, 1024, 2048]),
            (2049, [512, 1024, 2048]), (6000, [512, 1024, 2048]),
        ] as [(Int?, [Int])])
    func theLongEdgesWorthMakingStopAtTheImagesOwnSize(edge: Int?, expected: [Int]) {
        #expect(Rendition.longEdges(forImageLongEdge: edge) == expected)
    }

    @Test func aSmallImageIsNeverEnlarged() throws {
        let renditions = try Rendition.make(fromFileAt: Repository.sampleImage("01-dawn"), longEdges: [512, 640, 1024])
        #expect(renditions.map(\.longEdge) == [512, 640, 640])
        #expect(renditions.map(\.width) == [512, 640, 640])
    }

    /// Every format the app takes in becomes a JPEG a browser shows (a TIFF or a greyscale scan too).
    @Test(arguments: Repository.sampleImageFiles())
    func everySampleBecomesAJPEG(file: URL) throws {
        let rendition = try #require(try Rendition.make(fromFileAt: file, longEdges: [512]).first)
        #expect(try info(of: rendition.jpeg).mediaType == "image/jpeg", "\(file.lastPathComponent)")
    }

    @Test func whatIsNotAnImageIsRefusedByName() throws {
        let text = try folder.write(Data("not an image".utf8), to: "notes.jpg")
        let error = try #require(throws: GalleryError.self) { try Rendition.make(fromFileAt: text, longEdges: [512]) }
        #expect(error.code == .notAnImage)
        #expect(error.path?.hasSuffix("notes.jpg") == true)
        #expect(throws: GalleryError.self) { try Rendition.make(from: Data("no".utf8), longEdges: [512]) }
    }
}
