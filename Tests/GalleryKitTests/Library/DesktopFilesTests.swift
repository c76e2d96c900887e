import Foundation
import GalleryTestSupport
import Testing
@testable import GalleryKit
#if canImport(FoundationXML)
    import FoundationXML
#endif

/// The shared-mime-info definition and the file(1) magic: the texts GalleryKit installs are the
/// files in `Specs/mime`, and the XML is a well-formed shared-mime-info package. (That the magic
/// recognises documents is checked with the real `file` and `gio` in `DesktopFilesCLITests`.)
@Suite struct DesktopFilesTests {
    let specs = Repository.root.appendingPathComponent("Specs/mime")

    @Test func theEmbeddedTextsAreTheSpecsFiles() throws {
        #expect(DesktopFiles.sharedMimeInfo == (try String(contentsOf: specs.appendingPathComponent("gallery.xml"), encoding: .utf8)))
        #expect(DesktopFiles.magic == (try String(contentsOf: specs.appendingPathComponent("gallery.magic"), encoding: .utf8)))
    }

    @Test func theDefinitionIsWellFormedSharedMimeInfo() throws {
        let document = try XMLDocument(contentsOf: specs.appendingPathComponent("gallery.xml"))
        let root = try #require(document.rootElement())
        #expect(root.name == "mime-info")
        #expect(root.uri == "http://www.freedesktop.org/standards/shared-mime-info")
        let type = try #require(root.elements(forName: "mime-type").first)
        #expect(type.value(of: "type") == DesktopFiles.mimeType)
        #expect(type.elements(forName: "glob").compactMap { $0.value(of: "pattern") } == ["*.gallery"])
        #expect(type.elements(forName: "sub-class-of").compactMap { $0.value(of: "type") } == ["application/zip"])
        let magic = try #require(type.elements(forName: "magic").first)
        // Three nested matches: the local header, the entry name, the text in a range of offsets
        // that holds 38 (no extra field), 62 (GalleryKit) and 70 (bsdtar).
        var matches: [(value: String, offset: String)] = []
        var current: XMLElement? = magic.elements(forName: "match").first
        while let match = current {
            matches.append((match.value(of: "value") ?? "", match.value(of: "offset") ?? ""))
            current = match.elements(forName: "match").first
        }
        #expect(matches.map(\.value) == [#"PK\003\004"#, "mimetype", "application/vnd.gallery+zip"])
        let range = matches.last.map { $0.offset.split(separator: ":").compactMap { Int($0) } } ?? []
        #expect(range.count == 2 && [38, 62, 70].allSatisfy { (range[0]...range[1]).contains($0) }, "\(range)")
    }

    @Test func xmllintAcceptsItWhenInstalled() throws {
        guard let xmllint = Command.which("xmllint") else { return }  // optional: XMLDocument parsed it above
        let result = try Command.run(xmllint, ["--noout", specs.appendingPathComponent("gallery.xml").path], in: specs)
        #expect(result.status == 0, "\(result)")
    }
}

#if canImport(FoundationXML)
    private extension XMLElement {
        /// An attribute's value. (FoundationXML's `attribute(forName:)` finds none on an element in
        /// a default namespace; the list of attributes has them.)
        func value(of name: String) -> String? {
            attributes?.first { $0.name == name }?.stringValue
        }
    }
#endif
