import Foundation
import GalleryTestSupport
import Testing
import GalleryKit

/// The README's Swift example, kept compiling and working, with the sample images it names.
@Suite struct ReadmeExampleTests {
    @Test func theLibraryExampleWorks() throws {
        let folder = TemporaryFolder()
        let dawn = folder.path("01-dawn.jpg"), leaf = folder.path("05-leaf.webp")
        try FileManager.default.copyItem(at: Repository.sampleImage("dawn"), to: dawn)
        try FileManager.default.copyItem(at: Repository.sampleImage("leaf"), to: leaf)
        let url = folder.path("Trip.gallery")

        var document = GalleryDocument(creating: url, gallery: Gallery(title: "Summer trip"))
        try document.insertImages(fromFiles: [dawn, leaf], cache: true)
        try document.save()

        try GalleryDocument.modify(at: url) { document in
            try document.edit { gallery in
                try gallery.move(fromOffsets: [1], toOffset: 0)
                try gallery.setCaption("Leaf on the path", at: 0)
            }
        }

        let summaries = try DocumentBrowser().documents(in: folder.url)
        #expect(summaries.map { "\($0.name) \($0.title ?? $0.error?.description ?? "")" } == ["Trip Summer trip"])
        let saved = try GalleryDocument(contentsOf: url).gallery
        #expect(saved.images.map(\.url.lastPathComponent) == ["05-leaf.webp", "01-dawn.jpg"])
        #expect(saved.images.first?.caption == "Leaf on the path")
    }
}
