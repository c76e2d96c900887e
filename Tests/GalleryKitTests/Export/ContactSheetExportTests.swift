import Foundation
import GalleryTestSupport
import Testing
@testable import GalleryKit

/// The contact-sheet export: the sheet's size from the layout, error tiles, the title, and what
/// it refuses.
@Suite struct ContactSheetExportTests {
    let folder = TemporaryFolder()

    /// A document of the three sample JPEGs (landscape, portrait, and a portrait by EXIF), cached.
    func document(title: String = "Trip", thumbnails: Bool = true, failedAt failedOffset: Int? = nil) throws -> GalleryDocument {
        let samples = ["01-dawn.jpg", "02-forest.jpg", "03-portrait-exif6.jpg"].map(Repository.sampleImage)
        var document = GalleryDocument(creating: folder.path("Trip.gallery"), gallery: Gallery(title: title))
        if thumbnails {
            try document.insertImages(fromFiles: samples, cache: true)
        } else {
            try document.insertImages(fromFiles: samples, cache: false)
            try document.cacheImages(atOffsets: Array(samples.indices), thumbnails: false)
        }
        if let failedOffset {
            let failed = GalleryImage(
                url: URL(string: "https://example.org/gone.jpg")!, aspectRatio: 1.5, status: .failed, error: "HTTP 404")
            try document.edit { try $0.insert(contentsOf: [failed], at: failedOffset) }
        }
        try document.save()
        return document
    }

    /// The aspect ratios the sheet lays out: failed items are square.
    func aspectRatios(of document: GalleryDocument) -> [Double] {
        document.gallery.images.map { $0.hasFailed ? 1 : $0.aspectRatio }
    }

    @Test(arguments: [("Sheet.jpg", true), ("Sheet.JPEG", false), ("Sheet.png", true), ("Sheet.PNG", false)])
    func sheetHasTheLayoutsSize(name: String, showsTitle: Bool) async throws {
        let source = try document()
        let output = folder.path(name)
        let report = try await ContactSheetExporter(for: output, width: 1024, showsTitle: showsTitle).export(source, to: output)
        #expect(report.exported == 3 && report.failed == 0)

        // The expected height, from the layout engine and the sheet's documented policy at 1024
        // pixels (PageStyle.contactSheet): gaps of 1024/256 = 4, a margin of 8, rows of 96.
        let margin = 8
        #expect(PageStyle.contactSheetMargin(forWidth: 1024) == margin)
        let layout = GalleryLayout.justified(
            aspectRatios: aspectRatios(of: source), width: Double(1024 - 2 * margin), rowHeight: 96, spacing: 4)
        let titleBand = showsTitle ? ContactSheetExporter.titleHeight(forWidth: 1024) + margin : 0
        let header = try LibVips.header(of: output)
        #expect(header.width == 1024)
        #expect(header.height == margin + titleBand + Int(layout.contentHeight.rounded()) + margin)
        #expect(header.loader.hasPrefix(name.lowercased().hasSuffix("png") ? "pngload" : "jpegload"), "\(header.loader)")
        #expect(folder.listing() == [name, "Trip.gallery"], "only the output, no staging left")
    }

    @Test func failedItemIsAGreySquareTile() async throws {
        let source = try document(failedAt: 1)
        let output = folder.path("Sheet.png")
        let report = try await ContactSheetExporter(for: output, width: 512).export(source, to: output)
        #expect(report.exported == 3 && report.failed == 1)

        let plan = try ContactSheetExporter.plan(aspectRatios: aspectRatios(of: source), width: 512, hasTitle: true)
        let tile = plan.cells[1], photo = plan.cells[0]
        #expect(abs(tile.width - tile.height) <= 1, "square: \(tile)")
        let pixels = try PNGPixels(output)
        #expect(pixels.width == 512 && pixels.height == plan.height)
        let centre = pixels[tile.x + tile.width / 2, tile.y + tile.height / 2]
        let fill = pixels[tile.x + tile.width / 2, tile.y + tile.height / 4]  // between the diagonals
        for colour in [centre, fill] {
            #expect(colour.r == colour.g && colour.g == colour.b && (100...230).contains(colour.r), "grey: \(colour)")
        }
        #expect(centre.r < fill.r, "a darker cross through the centre")
        let photoCentre = pixels[photo.x + photo.width / 2, photo.y + photo.height / 2]
        #expect(photoCentre != PNGPixels.RGB(r: 255, g: 255, b: 255), "the thumbnail is drawn: \(photoCentre)")
        #expect(!(photoCentre.r == photoCentre.g && photoCentre.g == photoCentre.b), "in colour, not a tile: \(photoCentre)")
        #expect(pixels[1, 1] == PNGPixels.RGB(r: 255, g: 255, b: 255), "white background")
    }

    @Test func documentWithoutThumbnailsIsDrawnFromNewOnes() async throws {
        let source = try document(thumbnails: false)
        try #require(source.gallery.images.allSatisfy { $0.isCached && $0.thumbnail == nil })
        let output = folder.path("Sheet.png")
        let report = try await ContactSheetExporter(for: output, width: 512).export(source, to: output)
        #expect(report.exported == 3 && report.failed == 0)
        let plan = try ContactSheetExporter.plan(aspectRatios: aspectRatios(of: source), width: 512, hasTitle: true)
        let pixels = try PNGPixels(output)
        #expect(pixels.height == plan.height)
        for cell in plan.cells {
            let colour = pixels[cell.x + cell.width / 2, cell.y + cell.height / 2]
            #expect(!(colour.r == colour.g && colour.g == colour.b), "a photo, not a tile or background: \(colour)")
        }
    }

    /// A title that would be markup (and invalid markup: a bare `&`) is drawn as text.
    @Test(arguments: ["Tom & Jerry <3", "<span foreground='white' size='1'>hidden</span>", "Line\none\u{0}\u{7}"])
    func titleIsPlainText(title: String) async throws {
        let source = try document(title: title)
        let output = folder.path("Sheet.png")
        try await ContactSheetExporter(for: output, width: 512).export(source, to: output)
        let plan = try ContactSheetExporter.plan(aspectRatios: aspectRatios(of: source), width: 512, hasTitle: true)
        let pixels = try PNGPixels(output)
        let band = plan.title
        let darkest = (band.y..<band.y + band.height).flatMap { y in (band.x..<band.x + band.width).map { pixels[$0, y].r } }.min()
        #expect(try #require(darkest) < 100, "dark text in the title band")
    }

    @Test func noTitleWhenTheGalleryHasNone() throws {
        #expect(ContactSheetExporter.titleLine(" \n\t ") == nil)
        #expect(ContactSheetExporter.titleLine("a\u{0}b\nc") == "a b c")
        #expect(ContactSheetExporter.titleLine(String(repeating: "x", count: 500))?.count == 200)
    }

    @Test(arguments: ["Sheet.gif", "Sheet.jpg.txt", "Sheet", "Sheet.webp"])
    func refusesOtherExtensions(name: String) throws {
        let before = folder.listing()
        let error = #expect(throws: GalleryError.self) { try ContactSheetExporter(for: folder.path(name)) }
        #expect(error?.code == .invalidArgument)
        #expect(
            error?.description.contains(name) == true && error?.description.contains(".jpg, .jpeg or .png") == true,
            "\(String(describing: error))")
        #expect(!(error?.description.contains("\n") ?? true))
        #expect(folder.listing() == before)
    }

    @Test func widthIsClamped() throws {
        #expect(try ContactSheetExporter(for: folder.path("a.jpg"), width: 10).width == 256)
        #expect(try ContactSheetExporter(for: folder.path("a.jpg"), width: 100_000).width == 16384)
    }

    /// An unreadable thumbnail (a damaged entry) and a missing one are both error tiles; the sheet
    /// is still made.
    @Test func unreadableThumbnailIsAnErrorTile() throws {
        let notAnImage = folder.path("001.jpg")
        try Data("not a jpeg".utf8).write(to: notAnImage)
        let cells = [
            ContactSheet.Cell(thumbnail: .file(notAnImage), rect: .init(x: 10, y: 10, width: 60, height: 60)),
            ContactSheet.Cell(thumbnail: nil, rect: .init(x: 80, y: 10, width: 60, height: 60)),
        ]
        let data = try ContactSheet.render(width: 150, height: 80, cells: cells, title: nil, encoding: .png)
        try data.write(to: folder.path("sheet.png"))
        let pixels = try PNGPixels(folder.path("sheet.png"))
        for cell in cells {
            #expect(pixels[cell.rect.x + 30, cell.rect.y + 15] == PNGPixels.RGB(r: 200, g: 200, b: 200))
        }
        #expect(pixels[75, 40] == PNGPixels.RGB(r: 255, g: 255, b: 255))
        // The document preview asks for a failure instead (spec §3.4: no preview then).
        #expect(throws: GalleryError.self) {
            try ContactSheet.render(width: 150, height: 80, cells: cells, title: nil, encoding: .png, unreadableFails: true)
        }
    }

    /// A "thumbnail" too large to decode whole (a document's entry can be any image) is shrunk on
    /// load, and drawn.
    @Test func largeThumbnailIsShrunkOnLoad() throws {
        let large = folder.path("large.jpg")
        let photo = ContactSheet.Cell(
            thumbnail: .file(Repository.sampleImage("01-dawn.jpg")), rect: .init(x: 0, y: 0, width: 1500, height: 1000))
        try ContactSheet.render(width: 1500, height: 1000, cells: [photo], title: nil, encoding: .jpeg(quality: 85)).write(to: large)
        let cell = ContactSheet.Cell(thumbnail: .file(large), rect: .init(x: 5, y: 5, width: 90, height: 60))
        try ContactSheet.render(width: 100, height: 70, cells: [cell], title: nil, encoding: .png).write(to: folder.path("sheet.png"))
        let centre = try PNGPixels(folder.path("sheet.png"))[50, 35]
        #expect(!(centre.r == centre.g && centre.g == centre.b), "the photo, not a tile: \(centre)")
    }

    /// Cells never overlap and stay inside the margins, for any mix of shapes.
    @Test(arguments: [256, 1000, 2048, 16384])
    func planCellsDoNotOverlap(width: Int) throws {
        var generator = SystemRandomNumberGenerator()
        let ratios = (0..<300).map { _ in
            [0.25, 0.5, 0.75, 1, 1.5, 16, 40].randomElement(using: &generator)! * Double.random(in: 0.9...1.1, using: &generator)
        }
        let plan = try ContactSheetExporter.plan(aspectRatios: ratios, width: width, hasTitle: true)
        let margin = PageStyle.contactSheetMargin(forWidth: width)
        #expect(plan.cells.count == 300)
        for cell in plan.cells {
            #expect(cell.width >= 1 && cell.height >= 1)
            #expect(cell.x >= margin && cell.x + cell.width <= width - margin, "\(cell)")
            #expect(cell.y >= plan.title.y + plan.title.height + margin && cell.y + cell.height <= plan.height - margin, "\(cell)")
        }
        for (a, b) in zip(plan.cells, plan.cells.dropFirst()) {
            // In reading order: the next cell is to the right on the same row, or on a lower row.
            #expect((b.y == a.y && b.x >= a.x + a.width + 1) || b.y >= a.y + a.height + 1, "\(a) \(b)")
        }
    }

    @Test func hugeGalleryGetsLowerRowsInsteadOfAnEndlessSheet() throws {
        let plan = try ContactSheetExporter.plan(aspectRatios: Array(repeating: 1.5, count: 20_000), width: 2048, hasTitle: true)
        #expect(plan.height <= ContactSheetExporter.maximumHeight && plan.width * plan.height <= ContactSheetExporter.maximumPixels)
        #expect(plan.rowHeight < PageStyle.contactSheet(width: 2048).rowHeight)
        // Panoramas a row each: lower rows cannot help.
        let error = #expect(throws: GalleryError.self) {
            try ContactSheetExporter.plan(aspectRatios: Array(repeating: 16, count: 10_000), width: 256, hasTitle: true)
        }
        #expect(error?.code == .limitExceeded)
    }
}

/// The pixels of an 8-bit RGB PNG (what the sheet writes), decoded by Python's zlib so the test
/// does not decode with the library it checks.
struct PNGPixels {
    struct RGB: Equatable, CustomStringConvertible {
        var r: Int, g: Int, b: Int
        var description: String { "rgb(\(r), \(g), \(b))" }
    }

    let width: Int
    let height: Int
    private let bytes: [UInt8]

    init(_ url: URL) throws {
        let script = """
            import struct, sys, zlib
            data = open(sys.argv[1], 'rb').read()
            assert data[:8] == b'\\x89PNG\\r\\n\\x1a\\n'
            pos, idat = 8, b''
            while pos < len(data):
                length, kind = struct.unpack('>I4s', data[pos:pos + 8])
                body = data[pos + 8:pos + 8 + length]
                pos += 12 + length
                if kind == b'IHDR':
                    width, height, depth, colour, _, _, interlace = struct.unpack('>IIBBBBB', body)
                elif kind == b'IDAT':
                    idat += body
            assert (depth, colour, interlace) == (8, 2, 0), (depth, colour, interlace)
            raw, stride, out, prev, i = zlib.decompress(idat), width * 3, bytearray(), bytearray(width * 3), 0
            for y in range(height):
                kind, line = raw[i], bytearray(raw[i + 1:i + 1 + stride])
                i += 1 + stride
                for x in range(stride):
                    a = line[x - 3] if x >= 3 else 0
                    b = prev[x]
                    c = prev[x - 3] if x >= 3 else 0
                    if kind == 1: line[x] = (line[x] + a) & 255
                    elif kind == 2: line[x] = (line[x] + b) & 255
                    elif kind == 3: line[x] = (line[x] + (a + b) // 2) & 255
                    elif kind == 4:
                        p = a + b - c
                        pa, pb, pc = abs(p - a), abs(p - b), abs(p - c)
                        line[x] = (line[x] + (a if pa <= pb and pa <= pc else b if pb <= pc else c)) & 255
                out += line
                prev = line
            sys.stdout.buffer.write(struct.pack('>II', width, height) + bytes(out))
            """
        let python = try #require(Command.which("python3"), "python3 is needed")
        let process = Process()
        process.executableURL = python
        process.arguments = ["-c", script, url.path]
        let pipe = Pipe()
        process.standardOutput = pipe
        try process.run()
        let data = pipe.fileHandleForReading.readDataToEndOfFile()
        process.waitUntilExit()
        try #require(process.terminationStatus == 0 && data.count >= 8, "python could not decode \(url.lastPathComponent)")
        let header = [UInt8](data.prefix(8))
        width = header[0..<4].reduce(0) { $0 << 8 | Int($1) }
        height = header[4..<8].reduce(0) { $0 << 8 | Int($1) }
        bytes = [UInt8](data.dropFirst(8))
        try #require(bytes.count == width * height * 3)
    }

    subscript(x: Int, y: Int) -> RGB {
        let offset = (y * width + x) * 3
        return RGB(r: Int(bytes[offset]), g: Int(bytes[offset + 1]), b: Int(bytes[offset + 2]))
    }
}
