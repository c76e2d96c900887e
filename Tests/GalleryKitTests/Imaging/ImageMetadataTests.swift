import Foundation
import GalleryTestSupport
import Testing
@testable import GalleryKit

/// An image's own credit and description, read from XMP, IPTC and EXIF, XMP first.
@Suite struct ImageMetadataTests {
    /// A photo written by exiftool (Debian libimage-exiftool-perl), as people's photos are:
    /// each field where exiftool puts it, the values found without libvips' decoration.
    @Test func readsWhatExiftoolWrote() throws {
        let exiftool = try #require(Command.which("exiftool"), "exiftool is installed by .ci/install")
        let folder = TemporaryFolder()
        let photo = folder.path("photo.jpg")
        try FileManager.default.copyItem(at: Repository.sampleImage("01-dawn"), to: photo)
        let written = try Command.run(
            exiftool,
            [
                "-q", "-overwrite_original", "-Artist=Ana Lima (EXIF)", "-Copyright=© 2026 Ana Lima",
                "-XMP-photoshop:Credit=Photo: Ana Lima / CC BY 4.0",
                "-XMP-xmpRights:WebStatement=http://creativecommons.org/licenses/by/4.0/",
                "-XMP-dc:Creator=Ana Lima", "-IPTC:By-line=Ana Lima (IPTC)", "-IPTC:Caption-Abstract=Dawn over the bay",
                "-IPTC:CodedCharacterSet=UTF8", "-Make=FUJIFILM", "-Model=X-T5", "-DateTimeOriginal=2026:07:14 18:03:11",
                "-ExposureTime=1/250", "-FNumber=8", "-ISO=200", "-FocalLength=35", photo.path,
            ], in: folder.url)
        try #require(written.status == 0, "\(written)")
        let metadata = try ImageMetadata.read(fromFileAt: photo)
        #expect(metadata.attribution.creator == "Ana Lima")  // XMP before IPTC before EXIF
        #expect(metadata.attribution.copyright == "© 2026 Ana Lima")  // EXIF Copyright, the only one written
        #expect(metadata.attribution.credit == "Photo: Ana Lima / CC BY 4.0")
        #expect(metadata.attribution.license == "http://creativecommons.org/licenses/by/4.0/")
        #expect(metadata.description == "Dawn over the bay")
        #expect(metadata.caption == "Dawn over the bay")
        #expect(metadata.taken == "2026:07:14 18:03:11")
        #expect(metadata.camera == "FUJIFILM X-T5")
        #expect(metadata.exposure == "1/250 sec. · f/8.0 · ISO 200 · 35.0 mm", "\(metadata)")
        #expect(try ImageMetadata.read(from: Data(contentsOf: photo)) == metadata)
    }

    /// A sample image carries nothing: an empty attribution, no caption.
    @Test func anImageWithoutMetadataHasNone() throws {
        let metadata = try ImageMetadata.read(fromFileAt: Repository.sampleImage("02-forest"))
        #expect(metadata.attribution.isEmpty && metadata.caption == nil && metadata.camera == nil)
    }

    @Test func xmpPropertiesAsAttributesAndAsElements() {
        let packet = XMPPacket(
            """
            <x:xmpmeta xmlns:x="adobe:ns:meta/"><rdf:RDF><rdf:Description rdf:about=""
              photoshop:Credit="Museum &amp; Archive" xmpRights:WebStatement='http://rightsstatements.org/vocab/InC/1.0/'>
              <dc:creator><rdf:Seq><rdf:li>First Maker</rdf:li><rdf:li>Second</rdf:li></rdf:Seq></dc:creator>
              <dc:rights><rdf:Alt><rdf:li xml:lang="fr">© Musée</rdf:li><rdf:li xml:lang="x-default">&#169; Museum</rdf:li></rdf:Alt></dc:rights>
              <dc:description><rdf:Alt><rdf:li xml:lang="x-default">  A &lt;small&gt; study  </rdf:li></rdf:Alt></dc:description>
              <dc:title/>
            </rdf:Description></rdf:RDF></x:xmpmeta>
            """)
        #expect(packet.first("photoshop:Credit") == "Museum & Archive")
        #expect(packet.first("xmpRights:WebStatement") == "http://rightsstatements.org/vocab/InC/1.0/")
        #expect(packet.first("dc:creator") == "First Maker")
        #expect(packet.first("dc:rights") == "© Museum")
        #expect(packet.first("dc:description") == "A <small> study")
        #expect(packet.first("dc:title") == nil)
        #expect(packet.first("xmp:Credit") == nil)
    }

    /// IPTC datasets inside Photoshop's APP13 resources, or bare; UTF-8 when the record says so,
    /// else Latin-1 for bytes that are not UTF-8; a cut record reads what came before the cut.
    @Test func iptcDatasets() {
        func dataset(_ record: UInt8, _ number: UInt8, _ value: [UInt8]) -> [UInt8] {
            [0x1C, record, number, UInt8(value.count >> 8), UInt8(value.count & 0xFF)] + value
        }
        let iim =
            dataset(1, 90, [0x1B, 0x25, 0x47]) + dataset(2, 80, Array("Zoë Maker".utf8)) + dataset(2, 110, Array("Credit line".utf8))
        var app13 = Array("Photoshop 3.0\0".utf8) + Array("8BIM".utf8) + [0x03, 0xED, 0, 0, 0, 0, 0, 2, 0, 0]
        app13 += Array("8BIM".utf8) + [0x04, 0x04, 0, 0] + [0, 0, UInt8(iim.count >> 8), UInt8(iim.count & 0xFF)] + iim
        if iim.count % 2 == 1 { app13.append(0) }
        let record = IPTCRecord(Data(app13))
        #expect(record[.byline] == "Zoë Maker")
        #expect(record[.credit] == "Credit line")
        #expect(record[.caption] == nil)

        let latin1 = IPTCRecord(Data(dataset(2, 116, [0xA9, 0x20, 0x4D, 0xFC, 0x6C, 0x6C, 0x65, 0x72])))
        #expect(latin1[.copyrightNotice] == "© Müller")
        let cut = IPTCRecord(Data(dataset(2, 80, Array("Whole".utf8)) + [0x1C, 2, 120, 0, 50] + Array("short".utf8)))
        #expect(cut[.byline] == "Whole" && cut[.caption] == nil)
    }

    @Test(arguments: [
        ("Ana Lima (Ana Lima, ASCII, 9 components, 9 bytes)", "Ana Lima"),
        ("Studio (Berlin) (Studio (Berlin), ASCII, 16 components, 16 bytes)", "Studio (Berlin)"),
        ("1/250 (1/250 sec., Rational, 1 components, 8 bytes)", "1/250"),
        ("© Ana (© Ana (Photographer) - [None] (Editor), ASCII, 6 components, 6 bytes)", "© Ana"),
        ("plain", "plain"),
        ("   (   , ASCII, 4 components, 4 bytes)", nil),
    ])
    func exifTextWithoutItsDecoration(_ text: String, _ value: String?) {
        #expect(EXIFText.value(of: text) == value)
    }

    @Test func aCamerasFillerIsNoCaption() {
        var metadata = ImageMetadata()
        for filler in ["OLYMPUS DIGITAL CAMERA", "SONY DSC", "DIGITAL CAMERA"] {
            metadata.description = filler
            #expect(metadata.caption == nil, "\(filler)")
        }
        metadata.description = "Harbour, SONY DSC test"
        #expect(metadata.caption == "Harbour, SONY DSC test")
    }
}
