import Foundation
internal import GRDB

/// A search text, split the way the index matches it.
///
/// - Words in scripts that separate words with spaces are matched as word prefixes, ignoring
///   case, diacritics and width, by the index's FTS5 table (tokenizer `unicode61 remove_diacritics 2`,
///   over text folded the same way first): `harb` finds "Harbour walk", `cafe` finds "Café",
///   `αθηνα` finds "Αθήνα". Every word must match (in the name, title, a caption or an image URL).
/// - unicode61 does not split Chinese, Japanese, Korean, Thai… into words (a run of them is one
///   token), so a run in those scripts is matched as a substring instead, ignoring case and
///   width, in the same text kept beside the full-text index: `日出` finds "日出の旅" and "旅の日出".
/// - A text of nothing but spaces (or nothing) matches every document; a text with no letter
///   or digit at all (`***`) matches none.
///
/// Without the index, `matches(_:)` applies the same rules to the text of a document just read.
struct DocumentSearch: Sendable, Equatable {
    /// Folded words that must each begin a word of the document.
    let prefixes: [String]
    /// Folded runs in scripts written without spaces that must each occur in the document.
    let substrings: [String]
    /// Whether the search is empty, and so keeps every document.
    let matchesEverything: Bool

    init(_ text: String) {
        var prefixes: [String] = [], substrings: [String] = []
        for word in Self.words(in: text) {
            if word.unicodeScalars.contains(where: Self.isWrittenWithoutSpaces) {
                substrings.append(Self.foldedForSubstrings(word))
            } else {
                prefixes.append(Self.foldedForPrefixes(word))
            }
        }
        self.prefixes = prefixes
        self.substrings = substrings
        matchesEverything = text.allSatisfy(\.isWhitespace)
    }

    /// Whether the search can match nothing: it has text, but no letter or digit.
    var matchesNothing: Bool { !matchesEverything && prefixes.isEmpty && substrings.isEmpty }

    /// The FTS5 query for the words: each one as a prefix (`harb* walk*`), built by GRDB so
    /// that no text can make it invalid.
    var pattern: FTS5Pattern? {
        FTS5Pattern(matchingAllPrefixesIn: prefixes.joined(separator: " "))
    }

    /// Whether the document whose text is `text` matches, by the rules the index applies.
    /// - Complexity: O(length of the text).
    func matches(_ text: SearchableText) -> Bool {
        if matchesEverything { return true }
        if matchesNothing { return false }
        if !substrings.isEmpty {
            let haystack = text.substringText
            guard substrings.allSatisfy({ haystack.contains($0) }) else { return false }
        }
        guard !prefixes.isEmpty else { return true }
        let words = Self.words(in: [text.name, text.title, text.captions, text.urls].joined(separator: "\n"))
        return prefixes.allSatisfy { prefix in words.contains { $0.hasPrefix(prefix) } }
    }

    /// The words of `text`: runs of letters, digits and marks, as unicode61 splits text (it
    /// keeps the Unicode categories L*, N* and Co; marks stay with their letter here, as
    /// unicode61 removes them with the diacritics).
    static func words(in text: String) -> [String] {
        var words: [String] = []
        var word = String.UnicodeScalarView()
        for scalar in text.unicodeScalars {
            if isWordScalar(scalar) {
                word.append(scalar)
            } else if !word.isEmpty {
                words.append(String(word))
                word = String.UnicodeScalarView()
            }
        }
        if !word.isEmpty { words.append(String(word)) }
        return words
    }

    private static func isWordScalar(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.properties.generalCategory {
        case .uppercaseLetter, .lowercaseLetter, .titlecaseLetter, .modifierLetter, .otherLetter,
            .decimalNumber, .letterNumber, .otherNumber, .privateUse,
            .nonspacingMark, .spacingMark, .enclosingMark:
            true
        default:
            false
        }
    }

    /// Whether `scalar` belongs to a script written without spaces between words, which
    /// unicode61 cannot split: Han, Hiragana, Katakana, Hangul, Thai, Lao, Myanmar, Khmer.
    static func isWrittenWithoutSpaces(_ scalar: Unicode.Scalar) -> Bool {
        switch scalar.value {
        case 0x0E00...0x0EFF,  // Thai, Lao
            0x1000...0x109F,  // Myanmar
            0x1100...0x11FF,  // Hangul Jamo
            0x1780...0x17FF,  // Khmer
            0x2E80...0x2FDF,  // CJK radicals, Kangxi radicals
            0x3005...0x3007, 0x3021...0x3029, 0x3031...0x3035, 0x3038...0x303C,  // iteration marks, Hangzhou numerals
            0x3040...0x30FF,  // Hiragana, Katakana
            0x3100...0x31FF,  // Bopomofo, Hangul compatibility Jamo, Kanbun, CJK strokes, Katakana extensions
            0x3400...0x4DBF, 0x4E00...0x9FFF,  // CJK unified ideographs (and extension A)
            0xA960...0xA97F, 0xAC00...0xD7FF,  // Hangul
            0xF900...0xFAFF,  // CJK compatibility ideographs
            0xFF66...0xFFDC,  // halfwidth Katakana and Hangul
            0x1B000...0x1B16F,  // Kana supplement and extensions
            0x20000...0x3FFFF:  // CJK unified ideographs, extensions B…
            true
        default:
            false
        }
    }

    /// Case, diacritics and width folded: as unicode61 folds what it indexes, and further
    /// (accents of Greek, fullwidth Latin), the same way for the index and for a search.
    static func foldedForPrefixes(_ text: String) -> String {
        // ASCII, the usual case, needs only lowercasing: Foundation's folding costs microseconds a call.
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return text.lowercased() }
        return text.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
    }

    /// Case and width folded (fullwidth Latin, halfwidth Katakana), diacritics kept: removing
    /// them would make か find が.
    static func foldedForSubstrings(_ text: String) -> String {
        if text.utf8.allSatisfy({ $0 < 0x80 }) { return text.lowercased() }
        return text.folding(options: [.caseInsensitive, .widthInsensitive], locale: nil)
    }
}

/// The text of a document a search looks at, folded as `DocumentSearch` compares it: a
/// damaged document has only its name.
///
/// The index's full-text table holds the fields already folded, so that the index and a
/// listing without it agree, whatever unicode61's own folding covers (it keeps the accents of
/// Greek, for one).
struct SearchableText: Sendable, Equatable {
    /// The file name without `.gallery`, folded for prefix matches.
    var name: String
    /// The title, folded for prefix matches.
    var title: String
    /// The images' captions, one a line, folded for prefix matches.
    var captions: String
    /// The images' URLs, one a line, folded for prefix matches.
    var urls: String
    /// All of the text, folded for substring matches.
    var substringText: String

    /// The folded text of a document with these fields.
    init(name: String, title: String = "", captions: [String] = [], urls: [String] = []) {
        let fields = [
            Self.folded(CollectionOfOne(name)), Self.folded(CollectionOfOne(title)), Self.folded(captions), Self.folded(urls),
        ]
        self.name = fields[0].forPrefixes
        self.title = fields[1].forPrefixes
        self.captions = fields[2].forPrefixes
        self.urls = fields[3].forPrefixes
        substringText = Self.joinedLines(fields.map(\.forSubstrings))
    }

    /// `lines`, one a line, folded for prefix and for substring matches.
    private static func folded(_ lines: some Collection<String>) -> (forPrefixes: String, forSubstrings: String) {
        // ASCII text, nearly all of it, folds the same way for both (lowercased).
        if let lowercased = lowercasedIfASCII(joining: lines) { return (lowercased, lowercased) }
        let text = lines.joined(separator: "\n")
        return (DocumentSearch.foldedForPrefixes(text), DocumentSearch.foldedForSubstrings(text))
    }

    /// `lines` joined by newlines and lowercased as `lowercased()` would, if they are all ASCII;
    /// nil if not. In one pass over their bytes into one string: joining, checking and
    /// lowercasing each field apart took 10,000 instructions a document read, this 6,000.
    private static func lowercasedIfASCII(joining lines: some Collection<String>) -> String? {
        var isASCII = true
        let text = joining(lines) { line, target in
            for (offset, byte) in line.enumerated() {
                guard byte < 0x80 else {
                    isASCII = false
                    return nil
                }
                target[offset] = byte &- UInt8(ascii: "A") < 26 ? byte | 0x20 : byte
            }
            return line.count
        }
        return isASCII ? text : nil
    }

    /// `lines` joined by newlines, copied once into one string.
    private static func joinedLines(_ lines: [String]) -> String {
        joining(lines) { line, target in
            if let source = line.baseAddress { target.initialize(from: source, count: line.count) }
            return line.count
        }
    }

    /// `lines` joined by newlines into one string made at its size: `write` puts a line's bytes
    /// where it is told and says how many it wrote, or nil to end the text there.
    private static func joining(
        _ lines: some Collection<String>, _ write: (UnsafeBufferPointer<UInt8>, UnsafeMutablePointer<UInt8>) -> Int?
    ) -> String {
        let count = lines.reduce(max(0, lines.count - 1)) { $0 + $1.utf8.count }
        return String(unsafeUninitializedCapacity: count) { buffer in
            guard let start = buffer.baseAddress else { return 0 }
            var next = start
            for (number, var line) in lines.enumerated() {
                if number > 0 {
                    next.initialize(to: UInt8(ascii: "\n"))
                    next += 1
                }
                guard let written = line.withUTF8({ write($0, next) }) else { break }
                next += written
            }
            return next - start
        }
    }

    /// No text: what a listing keeps of a document once the index has its text.
    static let empty = SearchableText(folded: "", title: "", captions: "", urls: "", substringText: "")

    /// Text folded already (as the index stores it).
    init(folded name: String, title: String, captions: String, urls: String, substringText: String) {
        self.name = name
        self.title = title
        self.captions = captions
        self.urls = urls
        self.substringText = substringText
    }
}
