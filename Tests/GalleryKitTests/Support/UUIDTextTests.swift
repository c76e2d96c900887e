import Foundation
import PropertyBased
import Testing
@testable import GalleryKit

@Suite struct UUIDTextTests {
    /// The manifest's form of a UUID is Foundation's, lowercased, and reads back as the same UUID.
    @Test func writesFoundationsFormLowercased() async {
        await propertyCheck(count: 300, input: Gen.int(in: 0...Int.max)) { seed in
            var generator = SplitMix(seed: UInt64(seed))
            var bytes: uuid_t = (0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0)
            withUnsafeMutableBytes(of: &bytes) { buffer in
                for index in buffer.indices { buffer[index] = UInt8.random(in: 0...255, using: &generator) }
            }
            let uuid = UUID(uuid: bytes)
            #expect(uuid.lowercasedText == uuid.uuidString.lowercased())
            #expect(UUID(text: uuid.lowercasedText) == uuid)
            #expect(UUID(text: uuid.uuidString) == uuid)
        }
    }

    /// Text in the 8-4-4-4-12 shape with any characters in the digits' places parses exactly
    /// when Foundation's `init(uuidString:)` does, to the same UUID. (Foundation also reads some
    /// texts with dashes elsewhere, such as `A816-755-3074-…`; the spec requires the 8-4-4-4-12 form.)
    @Test func readsWhatFoundationReads() async {
        let alphabet = Array("0123456789abcdefABCDEFg")
        let digitPlaces = (0..<36).filter { ![8, 13, 18, 23].contains($0) }
        await propertyCheck(count: 500, input: Gen.int(in: 0...Int.max)) { seed in
            var generator = SplitMix(seed: UInt64(seed))
            var characters = Array(UUID().uuidString)
            for _ in 0..<Int.random(in: 0...2, using: &generator) {
                characters[digitPlaces.randomElement(using: &generator)!] = alphabet.randomElement(using: &generator)!
            }
            let text = String(characters)
            #expect(UUID(text: text) == UUID(uuidString: text), "\(text)")
        }
        #expect(UUID(text: "") == nil)
        #expect(UUID(text: "6f1c2d3e-4a5b-4c6d-8e7f-0011223344551") == nil)
    }
}
