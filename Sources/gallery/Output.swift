import Foundation
import GalleryKit

/// Printing for people (aligned tables) and for programs (JSON).
enum Output {
    /// Prints rows as a table whose columns are padded to their widest cell, by the columns a
    /// terminal gives them (`displayWidth`); `rightAligned` columns (numbers) are padded on the left.
    ///
    /// The text goes to standard output a 64 KiB piece at a time: a `print` per row, with its
    /// cells joined into a string first, took a third of `gallery open` for 100,000 images.
    ///
    /// On a terminal (or with `COLUMNS` set), the `shortenable` columns are cut, the widest
    /// first, so that each line fits its width; a cut cell ends in "…".
    static func table(_ rows: [[String]], rightAligned: Set<Int> = [], shortenable: [Int] = []) {
        guard let columns = rows.map(\.count).max() else { return }
        var rows = rows
        var cellWidths = rows.map { $0.map(displayWidth) }
        var widths = (0..<columns).map { column in cellWidths.map { column < $0.count ? $0[column] : 0 }.max() ?? 0 }
        if let limit = terminalWidth, !shortenable.isEmpty {
            fit(&widths, into: limit, shortening: shortenable)
            for (row, cells) in rows.enumerated() {
                for column in shortenable where column < cells.count && cellWidths[row][column] > widths[column] {
                    rows[row][column] = shortened(cells[column], to: widths[column])
                    cellWidths[row][column] = displayWidth(rows[row][column])
                }
            }
        }
        var output: [UInt8] = []
        output.reserveCapacity(1 << 16)
        func flush() {
            writeToStandardOutput(output)
            output.removeAll(keepingCapacity: true)
        }
        for (row, rowWidths) in zip(rows, cellWidths) {
            for (column, cell) in row.enumerated() {
                if column > 0 { output.append(contentsOf: "  ".utf8) }
                let padding = repeatElement(UInt8(ascii: " "), count: widths[column] - rowWidths[column])
                if rightAligned.contains(column) { output.append(contentsOf: padding) }
                output.append(contentsOf: cell.utf8)
                if !rightAligned.contains(column), column < row.count - 1 { output.append(contentsOf: padding) }
            }
            output.append(0x0A)
            if output.count >= 1 << 16 { flush() }
        }
        flush()
    }

    /// The columns of the terminal standard output goes to: `COLUMNS` when set, else the
    /// terminal's own width; `nil` when output goes to a file or a pipe.
    static var terminalWidth: Int? {
        if let columns = ProcessInfo.processInfo.environment["COLUMNS"].flatMap(Int.init), columns > 0 { return columns }
        var size = winsize()
        guard isatty(STDOUT_FILENO) != 0, ioctl(STDOUT_FILENO, UInt(TIOCGWINSZ), &size) == 0, size.ws_col > 0 else { return nil }
        return Int(size.ws_col)
    }

    /// Narrows the `shortenable` columns of a table, the widest first and none below 8
    /// columns, until its lines (two spaces between columns) fit in `limit`.
    private static func fit(_ widths: inout [Int], into limit: Int, shortening shortenable: [Int]) {
        let minimum = 8
        var excess = widths.reduce(0, +) + 2 * (widths.count - 1) - limit
        while excess > 0, let widest = shortenable.filter({ widths[$0] > minimum }).max(by: { widths[$0] < widths[$1] }) {
            widths[widest] -= 1
            excess -= 1
        }
    }

    /// `text` cut to at most `width` terminal columns, ending in "…" when cut.
    private static func shortened(_ text: String, to width: Int) -> String {
        var kept = ""
        var used = 0
        for character in text {
            let next = displayWidth(String(character))
            if used + next > width - 1 { break }
            kept.append(character)
            used += next
        }
        return kept + "…"
    }

    /// Writes the text of `count` items to standard output in order, made a block of at most
    /// `maximumBlockSize` items at a time on every core by `append` (given the block's range of
    /// items), and written a round of blocks at a time as each round is done: the text of a long
    /// listing is never all in memory, and making it one item after another took a quarter of
    /// `open --json` of 100,000 images.
    static func writeInBlocks(of count: Int, maximumBlockSize: Int, _ append: @Sendable (Range<Int>, inout [UInt8]) -> Void) {
        // Four blocks a worker, so that they end together also when the items fill few blocks.
        let blocksPerRound = ProcessorCount.active * 4
        let blockSize = max(64, min(maximumBlockSize, (count + blocksPerRound - 1) / blocksPerRound))
        let blocks = (count + blockSize - 1) / blockSize
        // One buffer a block of a round, kept from round to round: new ones each time were fresh
        // pages for the kernel to fault in (a third of this time for 100,000 images).
        var buffers = [[UInt8]](repeating: [], count: blocksPerRound)
        for round in stride(from: 0, to: blocks, by: blocksPerRound) {
            let blocksInRound = min(blocksPerRound, blocks - round)
            buffers.withUnsafeMutableBufferPointer { buffers in
                nonisolated(unsafe) let buffers = buffers  // a worker touches its own block's buffer only
                DispatchQueue.concurrentPerform(iterations: blocksInRound) { block in
                    let start = (round + block) * blockSize
                    var output: [UInt8] = []
                    swap(&output, &buffers[block])
                    output.removeAll(keepingCapacity: true)
                    append(start..<min(start + blockSize, count), &output)
                    swap(&output, &buffers[block])
                }
            }
            for block in 0..<blocksInRound { writeToStandardOutput(buffers[block]) }
        }
    }

    /// Runs `body` with SIGPIPE held back on this thread, the one that writes: a reader that stops
    /// early (`gallery browse | head`) then ends the output, not the program, until `body` is
    /// done, and the program ends as the signal would have ended it when the mask is restored.
    /// `browse` prints while the index's last steps run: killed at once, a first listing would
    /// never put its index in place, and a listing always piped to `head` would never have one.
    static func holdingBackBrokenPipe<Result>(_ body: () throws -> Result) rethrows -> Result {
        var brokenPipe = sigset_t()
        var previous = sigset_t()
        sigemptyset(&brokenPipe)
        sigaddset(&brokenPipe, SIGPIPE)
        pthread_sigmask(SIG_BLOCK, &brokenPipe, &previous)
        defer { pthread_sigmask(SIG_SETMASK, &previous, nil) }
        return try body()
    }

    /// Writes `bytes` to standard output's descriptor, after what `print` has buffered.
    /// A closed pipe ends the writing quietly: nobody reads on.
    static func writeToStandardOutput(_ bytes: some Sequence<UInt8>) {
        fflush(nil)  // `print`'s buffer first (C's stdout, which Swift 6 cannot name safely)
        let written: Void? = bytes.withContiguousStorageIfAvailable { buffer in
            _ = FileLocation.writeAll(UnsafeRawBufferPointer(buffer), to: STDOUT_FILENO)
        }
        if written == nil { writeToStandardOutput(Array(bytes)) }
    }

    /// The columns `text` takes in a terminal: two for each East Asian wide or fullwidth
    /// character (日, ｶ is one: halfwidth) and each emoji shown as one (🌅, 👍🏽, 🇯🇵, ❤️), none for
    /// combining marks, joiners and control characters, one for the rest — as `wcwidth` does,
    /// by grapheme cluster, so that a sequence a terminal draws as one emoji counts once.
    /// - Complexity: O(length of the text).
    static func displayWidth(_ text: String) -> Int {
        // Printable ASCII, nearly every cell, is one column a byte: grapheme breaking took
        // 90 ms for the 10,000 rows of a big gallery's table.
        if text.utf8.allSatisfy({ $0 >= 0x20 && $0 < 0x7F }) { return text.utf8.count }
        return text.reduce(0) { width, character in width + displayWidth(character) }
    }

    private static func displayWidth(_ character: Character) -> Int {
        // Fast path: printable ASCII is the bulk of any table.
        if let ascii = character.asciiValue { return ascii >= 0x20 && ascii < 0x7F ? 1 : 0 }
        var width = 0
        var previous: Unicode.Scalar?
        for scalar in character.unicodeScalars {
            let properties = scalar.properties
            switch scalar.value {
            case 0xFE0F where previous?.properties.isEmoji == true:
                // VARIATION SELECTOR-16 asks for the emoji presentation of a text-default
                // symbol (❤ + U+FE0F): terminals then draw it two columns wide.
                width = 2
            default:
                if isWide(scalar) || properties.isEmojiPresentation {
                    width = 2
                } else if width == 0 && !isZeroWidth(scalar) {
                    width = 1
                }
            }
            previous = scalar
        }
        return width
    }

    private static func isZeroWidth(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .nonspacingMark, .enclosingMark, .format, .control, .lineSeparator, .paragraphSeparator:
            true
        default:
            // Hangul medial vowels and final consonants join the syllable before them.
            (0x1160...0x11FF).contains(scalar.value) || (0xD7B0...0xD7FF).contains(scalar.value)
        }
    }

    /// East Asian Width W or F (Unicode Standard Annex #11), the ranges outside emoji.
    private static func isWide(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x1100...0x115F,  // Hangul Jamo initial consonants
            0x2329...0x232A,  // angle brackets
            0x2E80...0x303E,  // CJK radicals, Kangxi radicals, ideographic description, CJK symbols and punctuation
            0x3041...0x33FF,  // Hiragana, Katakana, Bopomofo, Hangul compatibility Jamo, Kanbun, enclosed CJK, CJK compatibility
            0x3400...0x4DBF,  // CJK unified ideographs extension A
            0x4E00...0x9FFF,  // CJK unified ideographs
            0xA000...0xA4CF,  // Yi
            0xA960...0xA97F,  // Hangul Jamo extended A
            0xAC00...0xD7A3,  // Hangul syllables
            0xF900...0xFAFF,  // CJK compatibility ideographs
            0xFE10...0xFE19,  // vertical forms
            0xFE30...0xFE6F,  // CJK compatibility forms, small form variants
            0xFF00...0xFF60,  // fullwidth forms
            0xFFE0...0xFFE6,  // fullwidth signs
            0x16FE0...0x16FE4, 0x17000...0x18CFF, 0x18D00...0x18D08,  // Tangut, Khitan
            0x1AFF0...0x1B2FF,  // Kana extensions and supplement, Nushu
            0x1F200...0x1F2FF,  // enclosed ideographic supplement
            0x20000...0x2FFFD, 0x30000...0x3FFFD:  // CJK unified ideographs extensions B…
            true
        default:
            false
        }
    }

    /// Prints a value as pretty JSON with sorted keys.
    static func json(_ value: some Encodable) throws {
        let encoder = JSONEncoder()
        encoder.outputFormatting = [.prettyPrinted, .sortedKeys, .withoutEscapingSlashes]
        encoder.dateEncodingStrategy = .iso8601
        print(String(decoding: try encoder.encode(value), as: UTF8.self))
    }

    /// `date` in UTC to the second, as ISO 8601 writes it (`2026-11-23T10:52:46Z`), or for
    /// people (`2026-11-23 10:52:46`, `forPeople`). By `gmtime_r` and digits: a `Date.FormatStyle`
    /// costs a millisecond at its first use, and every command prints a date or two.
    ///
    /// Not GalleryKit's RFC 3339 dates, whose fields are proleptic Gregorian: the CLI's match what
    /// its `JSONEncoder` (`json(_:)`) writes in every command, Foundation's calendar included
    /// (Julian before 1583). Only the writing of the fields is shared (`RFC3339.write`).
    static func timestamp(_ date: Date, forPeople: Bool = false) -> String {
        var text: [UInt8] = []
        appendTimestamp(date, forPeople: forPeople, to: &text)
        return String(decoding: text, as: UTF8.self)
    }

    /// Appends `timestamp(date, forPeople:)` to `text`: written in place, a listing's dates make
    /// no strings (two of them for each of 2,000 documents took 5.7 M instructions).
    static func appendTimestamp(_ date: Date, forPeople: Bool = false, to text: inout [UInt8]) {
        var seconds = time_t(exactly: date.timeIntervalSince1970.rounded(.down)) ?? 0
        var parts = tm()
        // Foundation's calendar is Julian before October 1582; from 1583 on, the two agree.
        guard gmtime_r(&seconds, &parts) != nil, (1583...9999).contains(Int(parts.tm_year) + 1900) else {
            let formatted = date.formatted(.iso8601)
            text.append(contentsOf: (forPeople ? String(formatted.replacingOccurrences(of: "T", with: " ").dropLast()) : formatted).utf8)
            return
        }
        // Into a buffer of the form's length (`RFC3339.write`): appended byte by byte, through
        // divisions by a power of ten made for each, took 1,000 instructions.
        withUnsafeTemporaryAllocation(of: UInt8.self, capacity: 20) { buffer in
            RFC3339.write(
                year: Int64(parts.tm_year) + 1900, month: Int64(parts.tm_mon) + 1, day: Int64(parts.tm_mday),
                hour: Int64(parts.tm_hour), minute: Int64(parts.tm_min), second: Int64(parts.tm_sec),
                separator: UInt8(ascii: forPeople ? " " : "T"), into: buffer)
            text.append(contentsOf: buffer[..<(forPeople ? 19 : 20)])
        }
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
        return timestamp(date, forPeople: true)
    }

    /// "1 image", "3 images".
    static func count(_ count: Int, _ noun: String, plural: String? = nil) -> String {
        "\(count) \(count == 1 ? noun : plural ?? noun + "s")"
    }

    /// A file size as `ByteCountFormatter` (`.file` style) writes it in English: "Zero KB",
    /// "1 byte", "999 bytes", "21 KB", "1.2 MB", "1.23 GB", "1,000 KB"; decimal units, whole
    /// kilobytes, one decimal for megabytes and two above, rounded half to even.
    ///
    /// Made here because `ByteCountFormatter` costs about 200 µs a call on Linux (it builds a
    /// number formatter each time): 0.4 s for a listing of 2,000 documents.
    static func bytes(_ count: Int64) -> String {
        guard count.magnitude >= 1000 else {
            return count == 0 ? "Zero KB" : "\(count) \(count.magnitude == 1 ? "byte" : "bytes")"
        }
        let units = ["KB", "MB", "GB", "TB", "PB", "EB"]
        var unit = 0
        var divisor = 1000.0
        while unit < units.count - 1, Double(count.magnitude) >= divisor * 1000 {
            divisor *= 1000
            unit += 1
        }
        // Rounded as decimal text, as the formatter does: 1.015 GB is "1.02 GB", although the
        // double nearest 1.015 is a little below it.
        var exact = Decimal(string: (Double(count) / divisor).description) ?? 0
        var rounded = Decimal()
        NSDecimalRound(&rounded, &exact, min(unit, 2), .bankers)
        let text = rounded.description
        let digitsEnd = text.firstIndex(of: ".") ?? text.endIndex
        let sign = text.hasPrefix("-") ? "-" : ""
        let whole = text[text.index(text.startIndex, offsetBy: sign.count)..<digitsEnd]
        var grouped = ""
        for (offset, digit) in whole.enumerated() {
            if offset > 0, (whole.count - offset) % 3 == 0 { grouped.append(",") }
            grouped.append(digit)
        }
        return sign + grouped + text[digitsEnd...] + " " + units[unit]
    }

    /// The name a person knows a file by: the path as given, relative when it was.
    static func name(_ url: URL) -> String {
        let current = FileManager.default.currentDirectoryPath + "/"
        let path = url.pathForDisplay
        guard path.hasPrefix(current) else { return path }
        // The current folder itself is ".", not an empty name.
        let relative = path.dropFirst(current.count)
        return relative.isEmpty ? "." : String(relative)
    }
}

/// The command line's one addition to GalleryKit's JSON writer: dates as `Output.json(_:)`
/// (JSONEncoder) writes them, so the listings written straight into a buffer (`open --json`,
/// `browse --json`) match the commands that print through `JSONEncoder`.
extension [UInt8] {
    /// Appends a date as JSONEncoder's `.iso8601` writes it (`"2026-11-23T10:52:46Z"`, in UTC,
    /// fractions of a second dropped), or `null`. Its characters need no escaping.
    mutating func appendJSON(_ date: Date?) {
        guard let date else { return appendJSON(literal: "null") }
        append(UInt8(ascii: "\""))
        Output.appendTimestamp(date, to: &self)
        append(UInt8(ascii: "\""))
    }
}
