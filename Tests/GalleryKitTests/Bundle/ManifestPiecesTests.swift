import Foundation
import PropertyBased
import Testing
@testable import GalleryKit

/// A big `images` array is read in pieces on several threads, each after the first starting at a
/// guessed element boundary: whatever the bytes, the same gallery or the same error as reading it
/// in one go, and valid arrays really are read in pieces.
@Suite struct ManifestPiecesTests {
    /// Decodes `text` in one go and in `pieces` pieces, expects the same outcome, and returns it
    /// with the number of pieces kept.
    @discardableResult
    func expectSameOutcome(
        _ text: String, limits: BundleLimits = .standard, maximumValues: Int? = nil, pieces: Int = 4,
        sourceLocation: SourceLocation = #_sourceLocation
    ) -> (Result<Gallery, any Error>, kept: Int) {
        var whole = limits.parsing
        whole.maximumValues = maximumValues ?? whole.maximumValues
        whole.bytesWorthSplitting = .max
        var split = whole
        split.bytesWorthSplitting = 0
        split.pieces = pieces
        let data = Data(text.utf8)
        let inOneGo = Result { try Manifest.decode(data, limits: limits, parsing: whole) }
        let inPieces = Result { try Manifest.decode(data, limits: limits, parsing: split) }
        switch (inOneGo, inPieces) {
        case (.success(let one), .success(let other)): #expect(one == other, sourceLocation: sourceLocation)
        case (.failure(let one), .failure(let other)): #expect("\(one)" == "\(other)", sourceLocation: sourceLocation)
        default: Issue.record("in one go: \(inOneGo); in pieces: \(inPieces)", sourceLocation: sourceLocation)
        }
        let kept = (try? ManifestParser.parseMembers(data, limits: split))??.images?.count ?? 0
        return (inOneGo, kept)
    }

    static func manifest(_ images: [String], separator: String = ",", after: String = "") -> String {
        #"{"format":"gallery","formatVersion":"1.0","id":"8a7c4e0e-0d3b-4d51-9a7e-3c1e2b9f0a11","title":"T","#
            + #""created":"2026-01-02T03:04:05Z","modified":"2026-01-02T03:04:05Z","generator":"tests","columns":3,"#
            + #""images":["# + images.joined(separator: separator) + "]" + after + "}"
    }

    static func image(_ index: Int, caption: String? = nil, extra: String = "") -> String {
        let caption = caption.map { String(decoding: JSONValue.string($0).serialized(), as: UTF8.self) } ?? "null"
        let id = String(index, radix: 16)
        return #"{"id":"00000000-0000-4000-8000-"# + String(repeating: "0", count: 12 - id.count) + id
            + #"","url":"https://example.com/\#(index).jpg","aspectRatio":1.5,"width":300,"height":200,"status":"ok","#
            + #""error":null,"cached":null,"thumbnail":null,"caption":\#(caption),"added":"2026-01-02T03:04:05Z"\#(extra)}"#
    }

    @Test(arguments: [2, 3, 4, 7, 16, 64])
    func readsAValidArrayInPieces(pieces: Int) throws {
        let text = Self.manifest((0..<50).map { Self.image($0) }, separator: pieces % 2 == 0 ? "," : " ,\n  ")
        let (outcome, kept) = expectSameOutcome(text, pieces: pieces)
        #expect(try outcome.get().images.count == 50)
        #expect(kept == min(pieces, 50))  // never more pieces than elements
    }

    @Test func anEmptyOrOneImageArrayIsReadInOneGo() throws {
        #expect(try expectSameOutcome(Self.manifest([])).0.get().images.isEmpty)
        #expect(try expectSameOutcome(Self.manifest([Self.image(0)])).0.get().images.count == 1)
    }

    /// Captions and unknown members with `},{` in them make wrong guesses: they must never be kept.
    @Test(arguments: [#"},{"#, #"} , {"#, "}\n,\n{", #""},{"id":"x"}"#, #"}]},{"#])
    func boundariesInsideStringsAreNotTaken(lookalike: String) throws {
        let images = (0..<40).map { Self.image($0, caption: String(repeating: lookalike, count: $0 % 5)) }
        #expect(try expectSameOutcome(Self.manifest(images)).0.get().images.count == 40)
        let nested = (0..<40).map { Self.image($0, extra: #","x-list":[{"a":1},{"b":[{},{}]},{}]"#) }
        #expect(try expectSameOutcome(Self.manifest(nested)).0.get().images.count == 40)
    }

    @Test func elementsThatAreNotObjectsGiveTheSameError() {
        let images = (0..<30).map { $0 == 23 ? "[{},{}]" : Self.image($0) }
        #expect(throws: GalleryError.self) { try expectSameOutcome(Self.manifest(images)).0.get() }
    }

    /// Images are checked a piece per worker: an error still names the image's place in the gallery.
    @Test(arguments: [3, 29])
    func checkingErrorsNameTheImagesPlace(bad: Int) {
        let images = (0..<30).map { index in
            index == bad ? Self.image(index).replacingOccurrences(of: #""aspectRatio":1.5"#, with: #""aspectRatio":-1"#) : Self.image(index)
        }
        let (outcome, kept) = expectSameOutcome(Self.manifest(images))
        #expect(kept == 4)
        let error = #expect(throws: GalleryError.self) { try outcome.get() }
        #expect(error?.reason.contains("images[\(bad)].aspectRatio") == true, "\(String(describing: error))")
    }

    /// A syntax error anywhere (cut short, a stray byte) is reported as in one go, also when a
    /// checking error comes before it.
    @Test func syntaxErrorsInAnyPieceGiveTheSameError() {
        let images = (0..<30).map { Self.image($0, caption: $0 == 3 ? "line\nbreak" : nil) }
        var text = Self.manifest(images)
        text = text.replacingOccurrences(
            of:
                #""aspectRatio":1.5,"width":300,"height":200,"status":"ok","error":null,"cached":null,"thumbnail":null,"caption":"line\nbreak""#,
            with:
                #""aspectRatio":-1,"width":300,"height":200,"status":"ok","error":null,"cached":null,"thumbnail":null,"caption":"line\nbreak""#
        )
        let bytes = Array(text.utf8)
        let imagesStart = text.utf8.count - images.joined(separator: ",").utf8.count - 2
        for cut in stride(from: imagesStart, to: bytes.count, by: 97) {
            let (shortened, _) = expectSameOutcome(String(decoding: bytes[..<cut], as: UTF8.self))
            #expect(throws: GalleryError.self) { try shortened.get() }
            var stray = bytes
            stray[cut] = UInt8(ascii: "#")
            let (damaged, _) = expectSameOutcome(String(decoding: stray, as: UTF8.self))
            #expect(throws: GalleryError.self) { try damaged.get() }
        }
    }

    @Test func theLimitsHoldAsInOneGo() throws {
        let images = (0..<50).map { Self.image($0) }
        var limits = BundleLimits.standard
        limits.maximumImages = 49
        let (tooMany, _) = expectSameOutcome(Self.manifest(images), limits: limits)
        #expect(throws: GalleryError.self) { try tooMany.get() }
        limits.maximumImages = 50
        #expect(try expectSameOutcome(Self.manifest(images), limits: limits).0.get().images.count == 50)
        // 50 images of 12 values, the array, the top level and its 8 other members: 610 values.
        let (values, _) = expectSameOutcome(Self.manifest(images), maximumValues: 609)
        #expect(throws: GalleryError.self) { try values.get() }
        #expect(try expectSameOutcome(Self.manifest(images), maximumValues: 610).0.get().images.count == 50)
        // Spec §6.2: a newer version after the array still wins over the image count.
        limits.maximumImages = 10
        let (newer, _) = expectSameOutcome(Self.manifest(images, after: #","formatVersion":"2.0""#), limits: limits)
        let version = #expect(throws: GalleryError.self) { try newer.get() }
        #expect(version?.code == .unsupportedVersion)
    }

    /// Random arrays whose captions are made of JSON's structural characters, laid out with
    /// random whitespace, cut in a random number of pieces.
    @Test func randomArraysGiveTheSameOutcome() async {
        await propertyCheck(count: 200, input: Gen.int(in: 0...Int.max)) { seed in
            var generator = SplitMix(seed: UInt64(seed))
            let parts = ["}", "{", ",", "]", "[", "\"", "\\", " ", "\n", "},{", "é", "a"]
            let images = (0..<Int(generator.next() % 40)).map { index in
                let caption = (0..<Int(generator.next() % 4)).map { _ in parts[Int(generator.next() % UInt64(parts.count))] }.joined()
                return Self.image(index, caption: caption.isEmpty ? nil : caption)
            }
            let separators = [",", " , ", ",\n    ", "\t,"]
            let text = Self.manifest(images, separator: separators[Int(generator.next() % UInt64(separators.count))])
            let (outcome, _) = expectSameOutcome(text, pieces: 2 + Int(generator.next() % 8))
            #expect((try? outcome.get())?.images.count == images.count)
        }
    }
}
