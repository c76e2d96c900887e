import Foundation
import GalleryTestSupport
import Testing
@testable import GalleryKit

/// Every vector in `Specs/Examples/valid` and `Specs/Examples/invalid`, against the JSON beside it.
@Suite struct ConformanceTests {
    struct Expectation: Decodable {
        var description: String
        var title: String?
        var images: Int?
        var cached: Int?
        var code: String?
        var detectedBy: String?
        /// For a valid vector that breaks a writer rule: verification must report it.
        var verify: WriterRule?
        /// Each image's attribution, resolved over the document's (format 1.1, spec §5.8); `{}`
        /// for an image with none.
        var attributions: [[String: String]]?
    }

    /// The error verification must report for a document readers accept: its code and the
    /// spec section of the writer rule it breaks (which the message names).
    struct WriterRule: Decodable {
        var code: String
        var section: String
    }

    static func vectors(_ kind: String) -> [String] {
        let folder = Repository.examples.appendingPathComponent(kind)
        let names = (try? FileManager.default.contentsOfDirectory(atPath: folder.path)) ?? []
        return names.filter { $0.hasSuffix(".gallery") }.sorted()
    }

    static func load(_ kind: String, _ name: String) throws -> (URL, Expectation) {
        let url = Repository.examples.appendingPathComponent(kind).appendingPathComponent(name)
        let json = url.deletingPathExtension().appendingPathExtension("json")
        return (url, try JSONDecoder().decode(Expectation.self, from: Data(contentsOf: json)))
    }

    @Test func thereAreVectors() {
        #expect(Self.vectors("valid").count >= 5)
        #expect(Self.vectors("invalid").count >= 15)
    }

    @Test(arguments: vectors("valid"))
    func validVectorOpensAndVerifies(name: String) throws {
        let (url, expected) = try Self.load("valid", name)
        let document = try GalleryDocument(contentsOf: url)
        if let title = expected.title { #expect(document.gallery.title == title) }
        if let images = expected.images { #expect(document.gallery.images.count == images) }
        if let cached = expected.cached { #expect(document.gallery.images.count { $0.isCached } == cached) }
        #expect(try BundleReader.summary(of: url) == document.gallery)
        if let attributions = expected.attributions {
            let resolved = document.gallery.images.indices.map { offset in
                document.gallery.attribution(ofImageAt: offset).map(Self.members) ?? [:]
            }
            #expect(resolved == attributions)
        }
        if let rule = expected.verify {
            let error = #expect(throws: GalleryError.self) { try BundleVerifier.verify(url) }
            #expect(error?.code.description == rule.code)
            #expect(error?.reason.contains("spec §\(rule.section) requires") == true, "\(error?.description ?? "no error")")
        } else {
            _ = try BundleVerifier.verify(url)
        }
    }

    /// An attribution's members with a value, by name, as the vectors' JSON gives them.
    static func members(_ attribution: Attribution) -> [String: String] {
        let members: [(String, String?)] = [
            ("creator", attribution.creator), ("copyright", attribution.copyright), ("credit", attribution.credit),
            ("license", attribution.license), ("source", attribution.source),
        ]
        return Dictionary(uniqueKeysWithValues: members.compactMap { name, value in value.map { (name, $0) } })
    }

    /// The writer-rule vectors exist, so the branch above is exercised.
    @Test func someValidVectorsBreakAWriterRule() throws {
        let sections = try Self.vectors("valid").compactMap { try Self.load("valid", $0).1.verify?.section }
        #expect(Set(sections) == ["3.2", "3.3"])
    }

    @Test(arguments: vectors("valid"))
    func validVectorSurvivesAnEditWithEverythingItHad(name: String) throws {
        let (source, _) = try Self.load("valid", name)
        let folder = TemporaryFolder()
        let url = folder.path(name)
        try FileManager.default.copyItem(at: source, to: url)
        let before = try BundleReader.open(url)
        try GalleryDocument.modify(at: url) { try $0.edit { $0.title += " (edited)" } }
        let after = try BundleReader.open(url)
        var expected = before.gallery
        expected.title += " (edited)"
        expected.modified = after.gallery.modified
        expected.generator = after.gallery.generator
        #expect(after.gallery == expected)
        #expect(Set(before.contents.names).isSubset(of: Set(after.contents.names)))
        // Also for the vectors that break a writer rule: GalleryKit's save writes by the rules.
        _ = try BundleVerifier.verify(url)
    }

    @Test(arguments: vectors("invalid"))
    func invalidVectorIsRejected(name: String) throws {
        let (url, expected) = try Self.load("invalid", name)
        let code = try #require(expected.code)
        let error = #expect(throws: GalleryError.self) {
            if expected.detectedBy == "verify" {
                _ = try BundleVerifier.verify(url)
            } else {
                _ = try GalleryDocument(contentsOf: url)
            }
        }
        #expect(error?.code.description == code, "\(name): \(error?.description ?? "no error")")
    }
}
