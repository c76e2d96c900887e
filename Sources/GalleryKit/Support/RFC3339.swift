import Foundation

/// RFC 3339 timestamps: written in UTC with whole seconds, read with fractions and offsets.
///
/// Every image has a date, so a big gallery reads and writes thousands: the form GalleryKit
/// writes (`2026-11-23T10:52:46Z`) is handled by arithmetic, 50 times faster than
/// `ISO8601FormatStyle`, which still reads every other form.
package enum RFC3339 {
    /// `date` in UTC to the second: `2026-11-23T10:52:46Z`.
    static func string(from date: Date) -> String {
        let seconds = Int64(date.timeIntervalSince1970.rounded(.down))
        let (days, secondOfDay) = seconds.quotientAndRemainder(dividingBy: 86_400)
        let (day, adjustedSecond) = secondOfDay < 0 ? (days - 1, secondOfDay + 86_400) : (days, secondOfDay)
        let (year, month, dayOfMonth) = civil(fromDays: day)
        // RFC 3339's calendar is proleptic Gregorian, for every year this form can hold (and
        // `wholeSecondsUTC` reads it back exactly); Foundation's is Julian before 1582.
        guard (0...9999).contains(year) else { return Date.ISO8601FormatStyle().format(date) }
        // Digits into a fixed buffer: string interpolation took 4% of saving a 10,000-image gallery.
        return String(unsafeUninitializedCapacity: 20) { buffer in
            write(
                year: year, month: month, day: dayOfMonth,
                hour: adjustedSecond / 3600, minute: adjustedSecond / 60 % 60, second: adjustedSecond % 60, into: buffer)
            return 20
        }
    }

    /// Writes the form GalleryKit writes (`2026-11-23T10:52:46Z`) from its fields into the first
    /// 20 bytes of `buffer`, with `separator` between the date and the time: the manifest's dates
    /// and the command line's (whose fields follow Foundation's calendar) are written alike.
    package static func write(
        year: Int64, month: Int64, day: Int64, hour: Int64, minute: Int64, second: Int64,
        separator: UInt8 = UInt8(ascii: "T"), into buffer: UnsafeMutableBufferPointer<UInt8>
    ) {
        func put(_ value: Int64, digits: Int, at offset: Int) {
            var rest = value
            for index in stride(from: offset + digits - 1, through: offset, by: -1) {
                buffer[index] = UInt8(ascii: "0") + UInt8(rest % 10)
                rest /= 10
            }
        }
        put(year, digits: 4, at: 0)
        put(month, digits: 2, at: 5)
        put(day, digits: 2, at: 8)
        put(hour, digits: 2, at: 11)
        put(minute, digits: 2, at: 14)
        put(second, digits: 2, at: 17)
        let dash = UInt8(ascii: "-"), colon = UInt8(ascii: ":")
        (buffer[4], buffer[7], buffer[10], buffer[13], buffer[16], buffer[19]) = (dash, dash, separator, colon, colon, UInt8(ascii: "Z"))
    }

    /// The date of `bytes` in the form GalleryKit writes (`2026-11-23T10:52:46Z`), if they are
    /// exactly that form and a real date; nil for anything else, which `date(from:)` may still read.
    static func dateInWrittenForm(_ bytes: UnsafeBufferPointer<UInt8>) -> Date? {
        if case .date(let date) = wholeSecondsUTC(bytes) { date } else { nil }
    }

    static func date(from string: String) -> Date? {
        var text = string
        switch text.withUTF8({ wholeSecondsUTC($0) }) {
        case .date(let date): return date
        case .impossible: return nil  // Foundation would roll 2026-02-30 over into March
        case .otherForm: break
        }
        let date =
            (try? Date.ISO8601FormatStyle().parse(string)) ?? (try? Date.ISO8601FormatStyle(includingFractionalSeconds: true).parse(string))
        // RFC 3339 years are 0000 to 9999. Foundation reads some other forms as earlier dates
        // ("00-01-02T0:04:06Z": 1 BC), which no RFC 3339 text can give back on a save.
        guard let date, hasRFC3339Year(date) else { return nil }
        return date
    }

    /// Whether `date` falls in a year 0000 to 9999 of the proleptic Gregorian calendar.
    private static func hasRFC3339Year(_ date: Date) -> Bool {
        let days = (date.timeIntervalSince1970 / 86_400).rounded(.down)
        guard days.magnitude < 1e9 else { return false }  // NaN, or millions of years away
        return (0...9999).contains(civil(fromDays: Int64(days)).year)
    }

    private enum Parsed {
        case date(Date)
        /// The right form, but a day or time that does not exist.
        case impossible
        case otherForm
    }

    /// `YYYY-MM-DDTHH:MM:SSZ` exactly (proleptic Gregorian calendar, as RFC 3339).
    private static func wholeSecondsUTC(_ bytes: UnsafeBufferPointer<UInt8>) -> Parsed {
        guard bytes.count == 20, bytes[4] == UInt8(ascii: "-"), bytes[7] == UInt8(ascii: "-"),
            bytes[10] == UInt8(ascii: "T"), bytes[13] == UInt8(ascii: ":"), bytes[16] == UInt8(ascii: ":"),
            bytes[19] == UInt8(ascii: "Z")
        else { return .otherForm }
        func number(_ range: Range<Int>) -> Int64? {
            var value: Int64 = 0
            for index in range {
                let digit = Int64(bytes[index]) - 48
                guard (0...9).contains(digit) else { return nil }
                value = value * 10 + digit
            }
            return value
        }
        guard let year = number(0..<4), let month = number(5..<7), let day = number(8..<10),
            let hour = number(11..<13), let minute = number(14..<16), let second = number(17..<19)
        else { return .otherForm }
        guard (1...12).contains(month), (1...daysIn(month: month, year: year)).contains(day),
            hour < 24, minute < 60, second < 60
        else { return .impossible }
        let days = daysFromCivil(year: year, month: month, day: day)
        return .date(Date(timeIntervalSince1970: TimeInterval(days * 86_400 + hour * 3600 + minute * 60 + second)))
    }

    private static func daysIn(month: Int64, year: Int64) -> Int64 {
        switch month {
        case 2: return year % 4 == 0 && (year % 100 != 0 || year % 400 == 0) ? 29 : 28
        case 4, 6, 9, 11: return 30
        default: return 31
        }
    }

    /// Days since 1970-01-01 (Howard Hinnant's `days_from_civil`).
    private static func daysFromCivil(year: Int64, month: Int64, day: Int64) -> Int64 {
        let y = month <= 2 ? year - 1 : year
        let era = (y >= 0 ? y : y - 399) / 400
        let yearOfEra = y - era * 400
        let dayOfYear = (153 * (month + (month > 2 ? -3 : 9)) + 2) / 5 + day - 1
        let dayOfEra = yearOfEra * 365 + yearOfEra / 4 - yearOfEra / 100 + dayOfYear
        return era * 146_097 + dayOfEra - 719_468
    }

    /// The inverse of `daysFromCivil` (Hinnant's `civil_from_days`).
    private static func civil(fromDays days: Int64) -> (year: Int64, month: Int64, day: Int64) {
        let z = days + 719_468
        let era = (z >= 0 ? z : z - 146_096) / 146_097
        let dayOfEra = z - era * 146_097
        let yearOfEra = (dayOfEra - dayOfEra / 1460 + dayOfEra / 36_524 - dayOfEra / 146_096) / 365
        let dayOfYear = dayOfEra - (365 * yearOfEra + yearOfEra / 4 - yearOfEra / 100)
        let mp = (5 * dayOfYear + 2) / 153
        let day = dayOfYear - (153 * mp + 2) / 5 + 1
        let month = mp < 10 ? mp + 3 : mp - 9
        return (yearOfEra + era * 400 + (month <= 2 ? 1 : 0), month, day)
    }
}
