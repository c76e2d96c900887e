import Foundation

/// A `.trashinfo` file of the freedesktop.org Trash specification 1.0: where a trashed file came
/// from and when it was trashed.
///
/// ```
/// [Trash Info]
/// Path=/home/ana/Summer%20trip.gallery
/// DeletionDate=2026-11-23T10:52:46
/// ```
struct TrashInfo: Equatable, Sendable {
    /// The original location as bytes: absolute in the home trash, relative to the volume's top
    /// directory in a volume's trash.
    var path: [UInt8]
    /// When the file was trashed; `nil` when the key is missing or unreadable.
    var deletionDate: Date?

    /// The file's text. Spec: `Path` is percent-encoded "as in URLs (RFC 2396)", `/` kept;
    /// `DeletionDate` is `YYYY-MM-DDThh:mm:ss` in the user's local time, with no zone.
    var text: String {
        "[Trash Info]\nPath=\(Self.percentEncoded(path))\nDeletionDate=\(Self.localTimestamp(deletionDate ?? .now))\n"
    }

    init(path: [UInt8], deletionDate: Date?) {
        self.path = path
        self.deletionDate = deletionDate
    }

    /// Reads a `.trashinfo` file's text; `nil` without a `[Trash Info]` group holding a `Path`.
    /// Unknown keys and other groups are ignored, as the specification asks.
    init?(parsing bytes: [UInt8]) {
        let text = String(decoding: bytes, as: UTF8.self)
        var inGroup = false
        var path: [UInt8]?
        var date: Date?
        for rawLine in text.split(omittingEmptySubsequences: true, whereSeparator: \.isNewline) {
            let line = rawLine.trimmingCharacters(in: .whitespaces)
            if line.hasPrefix("[") {
                inGroup = line == "[Trash Info]"
                continue
            }
            guard inGroup, !line.hasPrefix("#"), let equals = line.firstIndex(of: "=") else { continue }
            let key = line[..<equals].trimmingCharacters(in: .whitespaces)
            let value = String(line[line.index(after: equals)...]).trimmingCharacters(in: .whitespaces)
            switch key {
            case "Path" where path == nil: path = Self.percentDecoded(value)
            case "DeletionDate" where date == nil: date = Self.date(fromLocalTimestamp: value)
            default: break
            }
        }
        guard let path, !path.isEmpty else { return nil }
        self.init(path: path, deletionDate: date)
    }

    /// `bytes` with every byte but unreserved URL characters (`A–Z a–z 0–9 - . _ ~`) and `/`
    /// percent-encoded, as GLib and KDE write it.
    static func percentEncoded(_ bytes: [UInt8]) -> String {
        let hex = Array("0123456789ABCDEF".utf8)
        var encoded: [UInt8] = []
        for byte in bytes {
            switch byte {
            case UInt8(ascii: "a")...UInt8(ascii: "z"), UInt8(ascii: "A")...UInt8(ascii: "Z"), UInt8(ascii: "0")...UInt8(ascii: "9"),
                UInt8(ascii: "-"), UInt8(ascii: "."), UInt8(ascii: "_"), UInt8(ascii: "~"), UInt8(ascii: "/"):
                encoded.append(byte)
            default:
                encoded += [UInt8(ascii: "%"), hex[Int(byte >> 4)], hex[Int(byte & 0xF)]]
            }
        }
        return String(decoding: encoded, as: UTF8.self)
    }

    /// The bytes `%XX` escapes stand for; other characters as their UTF-8.
    static func percentDecoded(_ text: String) -> [UInt8] {
        EscapedBytes.decoded(Array(text.utf8), escape: UInt8(ascii: "%"), digits: 2, radix: 16)
    }

    /// `2026-11-23T10:52:46` in the local time zone (`TZ`), by `localtime_r`.
    static func localTimestamp(_ date: Date) -> String {
        var seconds = time_t(date.timeIntervalSince1970.rounded(.down))
        var parts = tm()
        _ = localtime_r(&seconds, &parts)
        func pad(_ value: Int32, _ width: Int) -> String {
            let digits = String(value)
            return String(repeating: "0", count: max(0, width - digits.count)) + digits
        }
        return "\(pad(parts.tm_year + 1900, 4))-\(pad(parts.tm_mon + 1, 2))-\(pad(parts.tm_mday, 2))T"
            + "\(pad(parts.tm_hour, 2)):\(pad(parts.tm_min, 2)):\(pad(parts.tm_sec, 2))"
    }

    /// The moment a local `YYYY-MM-DDThh:mm:ss` stands for (`mktime`); `nil` if it is not one.
    /// Anything after the seconds (fractions, a zone some writers add) is ignored.
    static func date(fromLocalTimestamp text: String) -> Date? {
        let characters = Array(text.utf8)
        guard characters.count >= 19, characters[4] == UInt8(ascii: "-"), characters[7] == UInt8(ascii: "-"),
            characters[10] == UInt8(ascii: "T"), characters[13] == UInt8(ascii: ":"), characters[16] == UInt8(ascii: ":")
        else { return nil }
        func number(_ range: Range<Int>) -> Int32? {
            Int32(String(decoding: characters[range], as: UTF8.self))
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
            let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19),
            (1...12).contains(month), (1...31).contains(day), (0...23).contains(hour), (0...59).contains(minute), (0...60).contains(second)
        else { return nil }
        var parts = tm()
        parts.tm_year = year - 1900
        parts.tm_mon = month - 1
        parts.tm_mday = day
        parts.tm_hour = hour
        parts.tm_min = minute
        parts.tm_sec = second
        parts.tm_isdst = -1  // let the zone's rules say whether summer time applied
        let seconds = mktime(&parts)
        guard seconds != -1 else { return nil }
        return Date(timeIntervalSince1970: TimeInterval(seconds))
    }
}
