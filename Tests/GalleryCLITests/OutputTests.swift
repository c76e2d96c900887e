import Foundation
import Testing
@testable import gallery

@Suite struct OutputTests {
    static let sizes: [Int64] = [
        0, 1, -1, 2, -5, 999, 1000, 1499, 1500, 2500, 20_881, 999_499, 999_500, 999_999, 1_000_000,
        1_049_999, 1_050_000, 1_150_000, 1_250_000, 1_350_000, 446_212_345, 999_949_999, 999_950_000,
        1_005_000_000, 1_015_000_000, 1_234_567_890, 999_995_000_000, 12_345_678_901_234,
        10_000_000_000_000_000, .max, .min + 1,
    ]

    @Test(arguments: sizes)
    func sizesReadAsByteCountFormatterWritesThem(bytes: Int64) {
        #expect(Output.bytes(bytes) == ByteCountFormatter.string(fromByteCount: bytes, countStyle: .file))
    }

    @Test func randomSizesReadAsByteCountFormatterWritesThem() {
        var generator = SystemRandomNumberGenerator()
        for _ in 0..<300 {
            // Sizes spread over every unit: a random number of digits, then random digits.
            let digits = Int.random(in: 1...18, using: &generator)
            let bytes = Int64.random(in: 0..<Int64(pow(10, Double(digits))), using: &generator)
            #expect(Output.bytes(bytes) == ByteCountFormatter.string(fromByteCount: bytes, countStyle: .file), "\(bytes)")
        }
    }

    @Test(arguments: [("Trip.gallery", 12), ("日出 Trip.gallery", 17), ("🌅 dawn", 7), ("tab\there", 7), ("", 0)])
    func displayWidthCountsTerminalColumns(text: String, width: Int) {
        #expect(Output.displayWidth(text) == width)
    }
}

extension OutputTests {
    static let dates: [Date] = [
        Date(timeIntervalSince1970: 0), Date(timeIntervalSince1970: 1_795_344_766), Date(timeIntervalSince1970: 1_795_344_766.999),
        Date(timeIntervalSince1970: -1), Date(timeIntervalSince1970: 951_782_400), Date(timeIntervalSince1970: 253_402_300_799),
        Date(timeIntervalSince1970: 253_402_300_800), Date(timeIntervalSince1970: -62_135_596_801),
    ]

    @Test(arguments: dates)
    func timestampsReadAsISO8601FormatStyleWritesThem(date: Date) {
        #expect(Output.timestamp(date) == date.formatted(.iso8601))
        let forPeople = date.formatted(
            .iso8601.year().month().day().dateSeparator(.dash).dateTimeSeparator(.space).time(includingFractionalSeconds: false)
                .timeSeparator(.colon)
        )
        #expect(Output.timestamp(date, forPeople: true) == forPeople)
    }
}

extension OutputTests {
    /// JSON values written in place read as the strings they stand for.
    @Test(arguments: dates)
    func datesAppendedAsJSONAreQuotedTimestamps(date: Date) {
        var output = Array("[".utf8)
        output.appendJSON(date)
        #expect(String(decoding: output, as: UTF8.self) == "[\"\(date.formatted(.iso8601))\"")
    }

    @Test(arguments: [0, 1, -1, 7, 10, -10, 20_881, 1_234_567_890, Int.max, Int.min])
    func integersAppendedAsJSONAreTheirDigits(number: Int) {
        var output = Array("x".utf8)
        output.appendJSON(number)
        #expect(String(decoding: output, as: UTF8.self) == "x\(number)")
    }

    @Test func missingValuesAppendedAsJSONAreNull() {
        var output: [UInt8] = []
        output.appendJSON(nil as Int?)
        output.appendJSON(nil as Date?)
        #expect(String(decoding: output, as: UTF8.self) == "nullnull")
    }
}
