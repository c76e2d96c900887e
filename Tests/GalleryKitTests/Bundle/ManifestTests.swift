import Foundation
import GalleryTestSupport
import PropertyBased
import Testing
@testable import GalleryKit

@Suite struct ManifestTests {
    @Test func roundTripsEveryField() throws {
        var original = gallery("ab")
        original.title = "Trip"
        original.columns = 4
        original.images[0].caption = "Harbour"
        original.images[1].status = .failed
        original.images[1].error = "404 Not Found"
        original.images[0].cached = CachedImage(
            path: "images/\(String(repeating: "a", count: 64)).jpg", sha256: String(repeating: "a", count: 64), bytes: 12,
            mediaType: "image/jpeg")
        let decoded = try Manifest.decode(try Manifest.encode(original))
        #expect(decoded == original)
    }

    @Test func keepsFieldsItDoesNotKnow() throws {
        var object = TestManifest.object(images: [
            TestManifest.image(cached: [
                "path": "images/\(String(repeating: "b", count: 64)).png", "sha256": String(repeating: "b", count: 64),
                "bytes": 3, "mediaType": "image/png", "colorProfile": "sRGB",
            ])
        ])
        object["formatVersion"] = "1.7"
        object["albumArt"] = ["style": "polaroid", "tilt": 2.5]
        var images = object["images"] as! [[String: Any]]
        images[0]["rating"] = 5
        object["images"] = images
        let decoded = try Manifest.decode(TestManifest.data(object))
        let again = try JSONSerialization.jsonObject(with: try Manifest.encode(decoded)) as! [String: Any]
        #expect((again["albumArt"] as? [String: Any])?["style"] as? String == "polaroid")
        let image = (again["images"] as! [[String: Any]])[0]
        #expect(image["rating"] as? Int == 5)
        #expect((image["cached"] as? [String: Any])?["colorProfile"] as? String == "sRGB")
    }

    /// `Manifest.decode` reads each image member by member; a revision's state goes through a
    /// JSON tree (`Manifest.gallery(from:)`). Both must give the same gallery or the same error.
    @Test(arguments: [
        // Escaped names are the same names; the first of two members wins; unknown members stay.
        #"{"format":"gallery","formatVersion":"1.0","id":"6f1c2d3e-4a5b-4c6d-8e7f-001122334455","title":"T","created":"2026-11-23T10:52:46Z","modified":"2026-11-23T10:52:46Z","generator":"g","images":[{"i\u0064":"00000000-0000-4000-8000-000000000001","url":"https://e.org/a.jpg","url":"no scheme","aspectRatio":1.5,"width":3,"height":2,"status":"ok","added":"2026-11-23T10:52:46Z","rating":5,"rating":6}],"images":7,"x":{"y":[1,2.5,"z"]}}"#,
        // An image that is not an object, after one that is.
        #"{"format":"gallery","formatVersion":"1.0","id":"6f1c2d3e-4a5b-4c6d-8e7f-001122334455","title":"T","created":"2026-11-23T10:52:46Z","modified":"2026-11-23T10:52:46Z","generator":"g","images":[{"id":"00000000-0000-4000-8000-000000000001","url":"https://e.org/a.jpg","aspectRatio":1,"status":"ok","added":"2026-11-23T10:52:46Z"},[]]}"#,
        // `images` first not an array, then an array; a top level that is not an object.
        #"{"images":{},"images":[],"format":"gallery"}"#,
        #"[{"format":"gallery"}]"#,
        // A semantic error before a syntax error: the syntax error is reported.
        #"{"format":"album","images":[{"id":1}],"#,
        // A later major version wins over a bad field before it.
        #"{"format":"album","images":[{"id":1}],"formatVersion":"2.0"}"#,
    ])
    func decodingAgreesWithTheTreePath(json: String) {
        expectBothPathsAgree(on: Data(json.utf8))
    }

    @Test func decodingAgreesWithTheTreePathOnEveryExample() throws {
        let examples = Repository.root.appendingPathComponent("Specs/Examples")
        let manifests = try FileManager.default.subpathsOfDirectory(atPath: examples.path)
            .filter { $0.hasSuffix(".gallery") }
            .compactMap {
                try? BundleReader.readEntries(named: ["manifest.json"], of: examples.appendingPathComponent($0), maximumBytes: 16 << 20)[
                    "manifest.json"]
            }
        #expect(manifests.count > 20)
        manifests.forEach(expectBothPathsAgree)
    }

    /// Images in writers' form are made straight from their bytes; any other form of a member
    /// is left to the member-by-member reading. Random images mixing both must decode as the
    /// tree path decodes them, and the plain ones must really take the direct way.
    @Test func imagesReadDirectlyAgreeWithTheTreePath() async {
        let forms: [(name: String, values: [String])] = [
            (
                "id",
                [
                    #""00000000-0000-4000-8000-00000000000a""#, #""00000000-0000-4000-8000-00000000000A""#,
                    #""0000000-0000-4000-8000-00000000000a""#, #""00000000-0000-4000-8000-00000000000\u0061""#, "null", "7",
                ]
            ),
            (
                "url",
                [#""https://e.org/a.jpg""#, #""https:\/\/e.org\/a b.jpg""#, #""relative/a.jpg""#, #""https://e.org/é.jpg""#, "null", "[]"]
            ),
            ("aspectRatio", ["1.5", "2", "-1", "0", "1e2", "0.0", "1.0E-3", "null", #""1.5""#, "true"]),
            ("width", ["300", "null", "300.0", "0", "-3", "1e3", "12345678901234567890", #""300""#]),
            ("height", ["200", "null", "2.5", "false"]),
            ("status", [#""ok""#, #""failed""#, #""o\u006b""#, #""OK""#, "null"]),
            ("error", ["null", #""404""#, #""tab\there""#, "3"]),
            ("cached", ["null", "{}", "1"] + Self.cachedRecordForms),
            ("thumbnail", ["null", #""thumbnails/a.jpg""#, "{}"]),
            ("caption", ["null", #""Harbour""#, #""Caf\u00e9 \"x\"""#, #""日本""#, "[1]"]),
            (
                "added",
                [#""2026-11-23T10:52:46Z""#, #""2026-02-30T10:52:46Z""#, #""2026-11-23T10:52:46.5+01:00""#, #""2026-11-23""#, "null"]
            ),
        ]
        await propertyCheck(count: 1000, input: Gen.int(in: 0...Int.max)) { seed in
            var generator = SplitMix(seed: UInt64(seed))
            func pick(_ count: Int) -> Int { Int(generator.next() % UInt64(count)) }
            // Writers' form (`cached` null or a record in writers' form), with none, one or two
            // members changed to another form or left out.
            var values = forms.map { $0.values[0] } as [String?]
            if pick(2) == 0, let cached = forms.firstIndex(where: { $0.name == "cached" }) { values[cached] = Self.cachedRecordForms[0] }
            let changes = pick(3)
            for _ in 0..<changes {
                let member = pick(forms.count)
                values[member] = pick(6) == 0 ? nil : forms[member].values[1 + pick(forms[member].values.count - 1)]
            }
            let isPlain = changes == 0
            var members = zip(forms, values).compactMap { form, value in value.map { "\"\(form.name)\":" + $0 } }
            // A member this version does not know, or one given twice.
            if changes > 0, pick(4) == 0 { members.append(pick(2) == 0 || members.isEmpty ? #""rating":5"# : members[pick(members.count)]) }
            members.shuffle(using: &generator)
            let data = Data(ManifestPiecesTests.manifest(["{" + members.joined(separator: ",") + "}"]).utf8)
            expectBothPathsAgree(on: data)
            if isPlain {
                // With a maker that makes nothing, only the direct way can have made the image.
                let read = try? ManifestParser.parseMembers(data, limits: BundleLimits.standard.parsing) { _ in nil }
                guard case .checked? = read?.images?.first?.first else {
                    Issue.record("an image in writers' form was not read directly: \(members)")
                    return
                }
            }
        }
    }

    /// An image's `cached` record: first in writers' form, then each member in turn changed to
    /// another form, left out or given twice, and a member this version does not know.
    private static let cachedRecordForms: [String] = {
        let members: [(name: String, values: [String])] = [
            (
                "path",
                [
                    #""images/\#(String(repeating: "ab", count: 32)).jpg""#, #""thumbnails/a.jpg""#, #""images/../a.jpg""#,
                    #""images\/a.jpg""#, #""images/é.jpg""#, "null", "3",
                ]
            ),
            (
                "sha256",
                [
                    #""\#(String(repeating: "ab", count: 32))""#, #""\#(String(repeating: "AB", count: 32))""#, #""abc""#,
                    #""\#(String(repeating: "ab", count: 31))a\u0062""#, "null",
                ]
            ),
            ("bytes", ["20000", "0", "-1", "20000.0", "2e4", "1.5", #""20000""#, "null", "12345678901234567890"]),
            ("mediaType", [#""image/jpeg""#, #""image\/png""#, #""""#, "null", "5"]),
        ]
        func record(_ values: [String?]) -> String {
            "{" + zip(members, values).compactMap { member, value in value.map { "\"\(member.name)\":" + $0 } }.joined(separator: ",") + "}"
        }
        let plain = members.map { $0.values[0] } as [String?]
        var forms = [record(plain)]
        for (position, member) in members.enumerated() {
            for value in member.values.dropFirst().map(Optional.some) + [nil] {
                var values = plain
                values[position] = value
                forms.append(record(values))
            }
            forms.append(String(record(plain).dropLast()) + ",\"\(member.name)\":" + member.values[0] + "}")
        }
        forms.append(String(record(plain).dropLast()) + #","etag":"x"}"#)
        return forms
    }()

    private func expectBothPathsAgree(on data: Data) {
        let direct = Result { try Manifest.decode(data) }
        let viaTree = Result { try Manifest.gallery(from: ManifestParser.parse(data, limits: BundleLimits.standard.parsing)) }
        switch (direct, viaTree) {
        case (.success(let gallery), .success(let same)): #expect(gallery == same)
        case (.failure(let error), .failure(let same)): #expect("\(error)" == "\(same)")
        default: Issue.record("Manifest.decode gave \(direct), the tree path \(viaTree)")
        }
    }

    /// The member names are spelled out (reflection on the cases would cost every start-up):
    /// each must be its case's name.
    @Test func memberNamesAreTheirCasesNames() {
        #expect(TopLevelMember.spellings.names == TopLevelMember.allCases.map { "\($0)" })
        #expect(ImageMember.spellings.names == ImageMember.allCases.map { "\($0)" })
        #expect(CachedImageMember.spellings.names == CachedImageMember.allCases.map { "\($0)" })
    }

    @Test func rejectsALaterMajorVersionSayingWhichItReads() throws {
        var object = TestManifest.object()
        object["formatVersion"] = "2.0"
        let error = #expect(throws: GalleryError.self) { try Manifest.decode(TestManifest.data(object)) }
        #expect(error?.code == .unsupportedVersion)
        #expect(error?.reason.contains("2.0") == true)
        #expect(error?.reason.contains("1.x") == true)
    }

    @Test(arguments: ["01.0", "+1.0", "1.-1", "1.01", "1", "1.0.0", "one"])
    func rejectsVersionsThatAreNotPlainMajorMinor(version: String) throws {
        var object = TestManifest.object()
        object["formatVersion"] = version
        let error = #expect(throws: GalleryError.self) { try Manifest.decode(TestManifest.data(object)) }
        #expect(error?.code == .damagedDocument)
        #expect(error?.reason.contains("formatVersion") == true)
    }

    @Test func reportsALaterMajorVersionBeforeAnyLimit() throws {
        var limits = BundleLimits.standard
        limits.maximumImages = 1
        var object = TestManifest.object(images: (0..<2).map { TestManifest.image(index: $0) })
        object["formatVersion"] = "2.3"
        let error = #expect(throws: GalleryError.self) { try Manifest.decode(TestManifest.data(object), limits: limits) }
        #expect(error?.code == .unsupportedVersion)
    }

    @Test func usesThreeColumnsWhenTheFieldIsLeftOut() throws {
        var object = TestManifest.object()
        object["columns"] = nil
        #expect(try Manifest.decode(TestManifest.data(object)).columns == 3)
        object["columns"] = NSNull()
        #expect(throws: GalleryError.self) { try Manifest.decode(TestManifest.data(object)) }
    }

    @Test(arguments: [
        ("columns", "\"three\""),
        ("images", "{}"),
        ("title", "7"),
        ("id", "\"not-a-uuid\""),
        ("created", "\"yesterday\""),
        ("format", "\"album\""),
    ])
    func rejectsWronglyTypedTopLevelFields(key: String, json: String) throws {
        var object = TestManifest.object()
        object[key] = try JSONSerialization.jsonObject(with: Data(json.utf8), options: .fragmentsAllowed)
        let error = #expect(throws: GalleryError.self) { try Manifest.decode(TestManifest.data(object)) }
        #expect(error?.code == .damagedDocument)
        #expect(error?.reason.contains(key) == true)
    }

    @Test(arguments: [("aspectRatio", "0.0"), ("aspectRatio", "-1.5"), ("status", "\"fine\""), ("url", "\"no scheme\""), ("width", "0")])
    func rejectsBadImageFields(key: String, json: String) throws {
        var image = TestManifest.image()
        image[key] = try JSONSerialization.jsonObject(with: Data(json.utf8), options: .fragmentsAllowed)
        let error = #expect(throws: GalleryError.self) { try Manifest.decode(TestManifest.data(TestManifest.object(images: [image]))) }
        #expect(error?.code == .damagedDocument)
        #expect(error?.reason.contains("images[0].\(key)") == true)
    }

    /// A big gallery's images are checked a chunk per core: they still come out in order, and
    /// the error reported is the first bad image's, wherever the chunks split.
    @Test func checksManyImagesInOrderAndReportsTheFirstBadOne() throws {
        var images = (0..<5000).map { TestManifest.image(index: $0) }
        let decoded = try Manifest.decode(TestManifest.data(TestManifest.object(images: images)))
        #expect(decoded.images.map(\.url.lastPathComponent) == (0..<5000).map { "\($0).jpg" })
        images[4900]["status"] = "fine"
        images[3000]["aspectRatio"] = 0
        var error = #expect(throws: GalleryError.self) { try Manifest.decode(TestManifest.data(TestManifest.object(images: images))) }
        #expect(error?.reason == "manifest.json: images[3000].aspectRatio must be a finite number > 0")
        images[3] = ["id": 7]
        error = #expect(throws: GalleryError.self) { try Manifest.decode(TestManifest.data(TestManifest.object(images: images))) }
        #expect(error?.reason == "manifest.json: images[3].url is missing")
    }

    @Test func namesTheCachedRecordsFieldInItsErrors() throws {
        let image = TestManifest.image(cached: ["path": "images/x.jpg", "sha256": "ABC", "bytes": 3, "mediaType": "image/jpeg"])
        let error = #expect(throws: GalleryError.self) { try Manifest.decode(TestManifest.data(TestManifest.object(images: [image]))) }
        #expect(error?.reason == "manifest.json: images[0].cached.sha256 must be 64 lowercase hex digits")
    }

    @Test func rejectsRepeatedImageIDs() throws {
        let object = TestManifest.object(images: [TestManifest.image(index: 1), TestManifest.image(index: 1)])
        let error = #expect(throws: GalleryError.self) { try Manifest.decode(TestManifest.data(object)) }
        #expect(error?.code == .damagedDocument)
    }

    @Test func rejectsMoreThanTheImageLimit() throws {
        var limits = BundleLimits.standard
        limits.maximumImages = 10
        let object = TestManifest.object(images: (0..<11).map { TestManifest.image(index: $0) })
        let error = #expect(throws: GalleryError.self) { try Manifest.decode(TestManifest.data(object), limits: limits) }
        #expect(error?.code == .limitExceeded)
        // At the limit exactly is fine.
        let atLimit = TestManifest.object(images: (0..<10).map { TestManifest.image(index: $0) })
        #expect(try Manifest.decode(TestManifest.data(atLimit), limits: limits).images.count == 10)
    }

    @Test func readsFractionalSecondsAndOffsets() throws {
        var object = TestManifest.object()
        object["created"] = "2026-01-02T05:04:05.678+02:00"
        let decoded = try Manifest.decode(TestManifest.data(object))
        #expect(RFC3339.string(from: decoded.created) == "2026-01-02T03:04:05Z")
    }
}
