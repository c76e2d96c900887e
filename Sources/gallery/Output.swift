import Foundation
import GalleryKit

/// Printing for people (aligned tables) and for programs (JSON).
enum Output {
    /// Prints rows as a table whose columns are padded to their widest cell; `rightAligned`
    /// columns (numbers) are padded on the left.
    static func table(_ rows: [[String]], rightAligned: Set<Int> = []) {
        guard let columns = rows.map(\.count).max() else { return }
        let widths = (0..<columns).map { column in rows.map { column < $0.count ? $0[column].count : 0 }.max() ?? 0 }
        for row in rows {
            let cells = row.enumerated().map { column, cell in
                let padding = String(repeating: " ", count: widths[column] - cell.count)
                if rightAligned.contains(column) { return padding + cell }
                return column == row.count - 1 ? cell : cell + padding
            }
            print(cells.joined(separator: "  "))
        }
    }

    /// Prints a value as pretty JSON with sorted keys.
    static func json(_ value: some Encodable) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        print(String(decoding: try encoder.encode(value), as: UTF8.self))
    }

    /// `value` with exactly `places` decimals ("1.500"), without `String(format:)`, which costs
    /// a locale lookup and a vsnprintf per call — too much for a table of 10,000 rows.
    static func decimal(_ value: Double, places: Int) -> String {
        let scale = (0..<places).reduce(1.0) { result, _ in result * 10 }
        guard value.isFinite, abs(value) * scale < 1e15 else { return "\(value)" }
        let scaled = Int64((abs(value) * scale).rounded())
        let whole = scaled / Int64(scale), fraction = String(scaled % Int64(scale))
        let sign = value < 0 && scaled != 0 ? "-" : ""
        return "\(sign)\(whole)." + String(repeating: "0", count: places - fraction.count) + fraction
    }

    static func date(_ date: Date?) -> String {
        guard let date else { return "-" }
        return date.formatted(.iso8601.year().month().day().dateSeparator(.dash).dateTimeSeparator(.space).time(includingFractionalSeconds: false).timeSeparator(.colon))
    }

    /// "1 image", "3 images".
    static func count(_ count: Int, _ noun: String, plural: String? = nil) -> String {
        "\(count) \(count == 1 ? noun : plural ?? noun + "s")"
    }

    static func bytes(_ count: Int64) -> String {
        ByteCountFormatter.string(fromByteCount: count, countStyle: .file)
    }

    /// The name a person knows a file by: the path as given, relative when it was.
    static func name(_ url: URL) -> String {
        let current = FileManager.default.currentDirectoryPath + "/"
        let path = url.pathForDisplay
        return path.hasPrefix(current) ? String(path.dropFirst(current.count)) : path
    }
}
