import Foundation
import GalleryTestSupport
import PropertyBased
import Testing
@testable import GalleryKit

/// The manifest's own JSON parser: the same trees as Foundation, the same errors as RFC 8259,
/// and the shape limits of spec §8.2.
@Suite struct ManifestParserTests {
    static let roomy = ManifestParser.Limits(maximumImages: 100, maximumValues: 100_000)

    func parse(_ text: String, limits: ManifestParser.Limits = roomy) throws -> JSONValue {
        try ManifestParser.parse(Data(text.utf8), limits: limits)
    }

    /// A random JSON tree from `seed`: every kind of value, strings with quotes, escapes,
    /// control characters and non-ASCII text.
    static func randomTree(seed: UInt64, depth: Int = 0) -> JSONValue {
        var generator = SplitMix(seed: seed)
        func next() -> UInt64 { generator.next() }
        let pieces = ["a", "Trip", "\"", "\\", "/", "\n", "\u{1}", "é", "日出", "🌅", " ", "\u{7F}", "\u{2028}"]
        func text() -> String { (0..<Int(next() % 6)).map { _ in pieces[Int(next() % UInt64(pieces.count))] }.joined() }
        func tree(_ depth: Int) -> JSONValue {
            switch next() % (depth > 3 ? 5 : 7) {
            case 0: return .null
            case 1: return .bool(next() % 2 == 0)
            case 2: return .integer(Int64(bitPattern: next()) >> Int64(next() % 64))
            case 3: return .number((Double(Int64(bitPattern: next()) % 1_000_000) + 0.5) * pow(10, -Double(Int(next() % 20) + 1)))
            case 4: return .string(text())
            case 5: return .array((0..<Int(next() % 5)).map { _ in tree(depth + 1) })
            default:
                var fields: [String: JSONValue] = [:]
                for _ in 0..<Int(next() % 5) { fields[text()] = tree(depth + 1) }
                return .object(fields)
            }
        }
        var fields: [String: JSONValue] = [:]
        for _ in 0..<Int(next() % 6) { fields[text()] = tree(depth) }
        return .object(fields)
    }

    @Test func readsWhatFoundationWrites() async {
        await propertyCheck(count: 300, input: Gen.int(in: 0...Int.max)) { seed in
            let tree = Self.randomTree(seed: UInt64(seed))
            let encoder = JSONEncoder()
            encoder.outputFormatting = [.sortedKeys]
            let data = try! encoder.encode(tree)
            #expect((try? ManifestParser.parse(data, limits: Self.roomy)) == tree)
        }
    }

    /// Short decimals are read by one exact division, long ones and exponents by `strtod`: every
    /// number must be the double `Double(text)` gives, to the bit, and integers stay integers.
    @Test func readsNumbersAsStrtodDoes() async throws {
        let edges = [
            "0.0", "-0.0", "0.1", "1.5", "0.6666666666666666", "9007199254740991.5", "900719925474099.1",
            "0.0000000000000000000001", "0.00000000000000000000001", "123456789012345678", "1234567890123456789",
            "-9223372036854775808", "9223372036854775808", "1e22", "2.5E-3", "4.35", "1.1754943508222875e-38",
        ]
        await propertyCheck(count: 2000, input: Gen.int(in: 0...Int.max)) { seed in
            var generator = SplitMix(seed: UInt64(seed))
            let digits = (0..<Int(1 + generator.next() % 19)).map { _ in String(generator.next() % 10) }.joined()
            let point = Int(generator.next() % UInt64(digits.count + 1))
            var text = point == 0 ? digits : String(digits.prefix(point)) + "." + digits.dropFirst(point)
            if text.hasSuffix(".") { text += "0" }
            while text.count > 1, text.hasPrefix("0"), !text.hasPrefix("0.") { text.removeFirst() }  // no leading zeros
            if generator.next() % 4 == 0 { text = "-" + text }
            expectStrtodValue(of: text)
        }
        for text in edges { expectStrtodValue(of: text) }
    }

    private func expectStrtodValue(of text: String, sourceLocation: SourceLocation = #_sourceLocation) {
        let isInteger = !text.contains(where: { ".eE".contains($0) })
        let read = try? parse("[\(text)]")
        if case .array(let elements)? = read, elements.count == 1, case .integer(let value) = elements[0], isInteger {
            #expect(Int64(text) == value, "\(text)", sourceLocation: sourceLocation)
        } else if case .array(let elements)? = read, elements.count == 1, case .number(let value) = elements[0] {
            #expect(
                Double(text)?.bitPattern == value.bitPattern && (!isInteger || Int64(text) == nil), "\(text)",
                sourceLocation: sourceLocation)
        } else {
            Issue.record("\(text) read as \(String(describing: read))", sourceLocation: sourceLocation)
        }
    }

    @Test func readsEscapesSurrogatePairsAndWhitespace() throws {
        let value = try parse("{ \"a\" : [ 1 , -0 , 1.5e3, -2E-2, true, false, null ],\n\t\"b\": \"\\u00e9\\ud83c\\udf05\\n\\/\\\"\" } ")
        #expect(
            value
                == .object([
                    "a": .array([.integer(1), .integer(0), .number(1500), .number(-0.02), .bool(true), .bool(false), .null]),
                    "b": .string("é🌅\n/\""),
                ]))
        #expect(try ManifestParser.parse(Data([0xEF, 0xBB, 0xBF]) + Data("{}".utf8), limits: Self.roomy) == .object([:]))
        #expect(try parse("{\"k\":1,\"k\":2}") == .object(["k": .integer(1)]))  // the first duplicate wins
        #expect(try parse("{\"big\":12345678901234567890}") == .object(["big": .number(12_345_678_901_234_567_890)]))
    }

    @Test(arguments: [
        "", "{", "{\"a\"}", "{\"a\":}", "{\"a\":1,}", "[1,]", "{\"a\":01}", "{\"a\":1.}", "{\"a\":.5}", "{\"a\":+1}",
        "{\"a\":1e}", "{\"a\":tru}", "{\"a\":\"\\x\"}", "{\"a\":\"\\ud800\"}", "{\"a\":\"\\udc00\"}", "{\"a\":\"\u{1}\"}",
        "{\"a\":\"open}", "{} {}", "{\"a\":NaN}", "{\"a\":1e999}", "{'a':1}", "{\"a\":[1 2]}",
    ])
    func rejectsWhatIsNotJSON(text: String) {
        let error = #expect(throws: GalleryError.self) { try parse(text) }
        #expect(error?.code == .damagedDocument, "\(text.debugDescription)")
        #expect(error?.reason.hasPrefix("manifest.json is not valid JSON (") == true)
    }

    @Test func rejectsInvalidUTF8AndDeepNesting() {
        let bytes = Data("{\"a\":\"".utf8) + Data([0xFF]) + Data("\"}".utf8)
        #expect(throws: GalleryError.self) { try ManifestParser.parse(bytes, limits: Self.roomy) }
        let deep = "{\"a\":" + String(repeating: "[", count: 10_000) + String(repeating: "]", count: 10_000) + "}"
        let error = #expect(throws: GalleryError.self) { try parse(deep) }
        #expect(error?.reason.contains("nested more than 64 levels deep") == true)
    }

    @Test func boundsTheNumberOfValuesAndImages() throws {
        let many = "{\"x\":[" + Array(repeating: "0", count: 200).joined(separator: ",") + "]}"
        let values = #expect(throws: GalleryError.self) {
            try parse(many, limits: .init(maximumImages: 10, maximumValues: 100))
        }
        #expect(values?.code == .limitExceeded)

        let images = "{\"images\":[" + Array(repeating: "{}", count: 11).joined(separator: ",") + "]}"
        let tooMany = #expect(throws: GalleryError.self) { try parse(images, limits: .init(maximumImages: 10, maximumValues: 100)) }
        #expect(tooMany?.code == .limitExceeded)
        #expect(tooMany?.reason == "manifest.json lists 11 images; the limit is 10")
        #expect(try parse("{\"images\":[{},{}]}", limits: .init(maximumImages: 2, maximumValues: 100)) != .null)

        // Spec §6.2: a newer major version wins over the image count, even when it comes last.
        let newer = "{\"images\":[" + Array(repeating: "{}", count: 11).joined(separator: ",") + "],\"formatVersion\":\"2.0\"}"
        let version = #expect(throws: GalleryError.self) { try parse(newer, limits: .init(maximumImages: 10, maximumValues: 100)) }
        #expect(version?.code == .unsupportedVersion)
    }

    /// Every whole-second date of years 0 to 9999 reads back as written (a save that edits
    /// nothing changes nothing), and from 1583 on the text is Foundation's too.
    @Test func datesInGalleryKitsFormRoundTripExactly() async {
        await propertyCheck(count: 500, input: Gen.int(in: -62_167_219_200...253_402_300_799)) { seconds in
            let date = Date(timeIntervalSince1970: TimeInterval(seconds))
            let text = RFC3339.string(from: date)
            if seconds >= -12_212_553_600 { #expect(text == Date.ISO8601FormatStyle().format(date)) }
            #expect(RFC3339.date(from: text) == date)
        }
    }

    /// Found by the manifest fuzz target: a lenient date before 1583 (Julian to Foundation) was
    /// written in a form read back two days later, and an unknown member `1.0` came back as the
    /// integer `1`.
    @Test func anEarlyDateSurvivesASave() throws {
        let data = try Data(contentsOf: Repository.root.appendingPathComponent("Tests/Fuzz/regressions/manifest/pre-1583-date.json"))
        let gallery = try Manifest.decode(data)
        #expect(try Manifest.decode(try Manifest.encode(gallery)) == gallery)
    }

    /// Found by the manifest fuzz target: Foundation reads `00-01-02T0:04:06Z` as a date in 1 BC,
    /// which no RFC 3339 text can hold; a save wrote it back as year 0, two days later. Such a date
    /// is refused when read.
    @Test func aDateBeforeYearZeroIsRefused() throws {
        let data = try Data(contentsOf: Repository.root.appendingPathComponent("Tests/Fuzz/regressions/manifest/year-before-0.json"))
        let error = #expect(throws: GalleryError.self) { try Manifest.decode(data) }
        #expect(error?.reason == "manifest.json: modified must be an RFC 3339 date-time")
        #expect(RFC3339.date(from: "00-01-02T0:04:06Z") == nil)
        #expect(RFC3339.date(from: "0000-01-01T00:00:00Z") != nil)
    }

    @Test(arguments: [
        "2026-02-29T00:00:00Z", "2026-13-01T00:00:00Z", "2026-04-31T00:00:00Z", "2026-01-01T24:00:00Z", "2026-01-01 00:00:00Z",
    ])
    func refusesDatesThatDoNotExist(text: String) {
        #expect(RFC3339.date(from: text) == nil)
    }

    @Test func readsOtherRFC3339Forms() {
        #expect(RFC3339.date(from: "2024-02-29T12:00:00Z") == Date(timeIntervalSince1970: 1_709_208_000))
        #expect(RFC3339.date(from: "2024-02-29T14:00:00+02:00") == Date(timeIntervalSince1970: 1_709_208_000))
        #expect(RFC3339.date(from: "2024-02-29T12:00:00.250Z") == Date(timeIntervalSince1970: 1_709_208_000.25))
    }
}
