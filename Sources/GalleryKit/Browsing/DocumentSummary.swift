import Foundation

/// One document in a folder listing: what its manifest says, or why it could not be read.
public struct DocumentSummary: Sendable, Equatable {
    /// The document's file, made from `path` when asked for: a listing of 2,000 documents spent
    /// a millisecond making URLs, and a listing of 20,000 held 5 MB of them.
    public var url: URL {
        get { FileLocation.fileURL(forPath: path) }
        set { path = Data(FileLocation.bytes(of: newValue)) }
    }
    /// The file's path, its exact bytes.
    var path: Data
    /// The file name without `.gallery`.
    public var name: String
    /// The gallery's title.
    public var title: String?
    /// How many images the gallery has.
    public var imageCount: Int?
    /// How many of them have their bytes in the document.
    public var cachedImageCount: Int?
    /// The file's size on disk.
    public var bytes: Int64
    /// When the gallery was last saved, from its manifest.
    public var modified: Date?
    /// When the gallery was created, from its manifest.
    public var created: Date?
    /// Why the document could not be read; the other fields are then `nil`.
    public var error: GalleryError?

    /// The summary of the document at `path`, of `bytes` bytes, with nothing read yet.
    init(path: Data, name: String, bytes: Int64) {
        self.path = path
        self.name = name
        self.bytes = bytes
    }

    init(url: URL, name: String, bytes: Int64) {
        self.init(path: Data(FileLocation.bytes(of: url)), name: name, bytes: bytes)
    }

    /// The file's path for people to read, as `URL.pathForDisplay` gives it.
    public var pathForDisplay: String { FileLocation.displayText(of: path) }

    /// Whether the file's path is valid UTF-8, so that `pathForDisplay` is exactly it.
    public var hasUTF8Path: Bool { FileLocation.utf8Text(of: path) != nil }

    /// The orders a listing can be sorted in.
    public enum SortKey: String, Sendable, CaseIterable {
        /// By name (natural order, ignoring case and accents), date modified or created, size on disk, or number of images.
        case name, modified, created, size, images
    }
}

extension [DocumentSummary] {
    /// Sorted by `key`, ties broken by name; documents that could not be read sort last.
    ///
    /// Names sort as people expect (`NaturalSortKey`): "Trip 2" before "Trip 10", "trip 3"
    /// before "Trip 20", ignoring case and accents.
    /// - Complexity: O(n log n) comparisons of keys made once per document.
    public func sorted(by key: DocumentSummary.SortKey, reverse: Bool = false) -> [DocumentSummary] {
        var sorted = self
        sorted.sort(by: key, reverse: reverse)
        return sorted
    }

    /// Sorts in place, as `sorted(by:reverse:)` orders: a long listing is not held twice.
    public mutating func sort(by key: DocumentSummary.SortKey, reverse: Bool = false) {
        // Keys made once, and positions sorted: comparing summaries themselves copied them at
        // every comparison. Fields read in place: `enumerated()` copied every summary (retaining
        // its strings and path) to read three of them.
        let entries = indices.map { position in
            let value: Double? =
                switch key {
                case .name: nil
                case .modified: self[position].modified?.timeIntervalSinceReferenceDate ?? -.infinity
                case .created: self[position].created?.timeIntervalSinceReferenceDate ?? -.infinity
                case .size: Double(self[position].bytes)
                case .images: Double(self[position].imageCount ?? 0)
                }
            return SortEntry(
                position: position, isDamaged: self[position].error != nil, value: value, name: NaturalSortKey(self[position].name))
        }
        let order = entries.sorted { first, second in
            if first.isDamaged != second.isDamaged { return !first.isDamaged }
            let order: Bool? = first.value == second.value ? nil : (first.value ?? 0) < (second.value ?? 0)
            return (order ?? nameOrder(first.position, first.name, second.position, second.name)) != reverse
        }.map(\.position)
        permute(to: order)
    }

    /// Puts the element at `order[i]` at `i`, for every `i`, by following the permutation's
    /// cycles: one element held aside at a time.
    private mutating func permute(to order: [Int]) {
        var isPlaced = [Bool](repeating: false, count: count)
        for start in indices where !isPlaced[start] {
            let held = self[start]
            var current = start
            while true {
                isPlaced[current] = true
                let next = order[current]
                if next == start {
                    self[current] = held
                    break
                }
                self[current] = self[next]
                current = next
            }
        }
    }

    private func nameOrder(_ first: Int, _ firstKey: NaturalSortKey, _ second: Int, _ secondKey: NaturalSortKey) -> Bool {
        let order = firstKey.compared(to: secondKey)
        if order != 0 { return order < 0 }
        let firstName = self[first].name, secondName = self[second].name
        return firstName != secondName ? firstName < secondName : self[first].url.path < self[second].url.path
    }
}

/// A document's place in a sort, by position in the unsorted listing.
private struct SortEntry {
    var position: Int
    var isDamaged: Bool
    var value: Double?
    var name: NaturalSortKey
}

/// Where a name sorts in the order people expect, the Finder's and the Files app's: runs of
/// digits by their value ("Trip 2" before "Trip 10", "File 007" with "File 7"), case, accents
/// and width ignored ("trip 3" before "Trip 20", "Élan" before "Zoo"), and spaces before
/// punctuation before symbols before digits before letters, as in the Unicode Collation
/// Algorithm's default table.
///
/// Made once per name, then compared as an array of numbers. `localizedStandardCompare` gives
/// much the same order, but on Linux each call creates a locale: sorting 2,000 names took
/// 150 ms. What this leaves out is a language's own rules (Swedish "å" after "z").
struct NaturalSortKey: Comparable {
    /// The weights compared: one for each scalar but a number's leading zeros, and one for each
    /// number's count of digits.
    private(set) var weights: [UInt32] = []

    init(_ name: String) {
        var name = name
        // An ASCII name's bytes are its scalars, read in place; folding costs a trip through
        // Foundation: only for names that need it.
        if let weights = name.withUTF8(Self.asciiWeights) {
            self.weights = weights
        } else {
            let folded = name.folding(options: [.caseInsensitive, .diacriticInsensitive, .widthInsensitive], locale: nil)
            weights = Self.weights(of: folded.unicodeScalars, atMost: folded.utf8.count)
        }
    }

    /// The weights of an ASCII name's bytes; nil if they are not all ASCII.
    private static func asciiWeights(_ bytes: UnsafeBufferPointer<UInt8>) -> [UInt32]? {
        guard bytes.allSatisfy({ $0 < 0x80 }) else { return nil }
        return weights(of: bytes.lazy.map(Unicode.Scalar.init), atMost: bytes.count)
    }

    /// The weights of at most `count` scalars: a number as its count of digits (more digits,
    /// larger number), then its digits, the count written once the number ends. Written in
    /// place, at most two a scalar (a list of digits for each number, and a key growing as it
    /// was made, took 3,800 instructions a name).
    private static func weights(of scalars: some Sequence<Unicode.Scalar>, atMost count: Int) -> [UInt32] {
        // Not made with no capacity: that writes to the empty array all threads share (`Manifest.movingImages`).
        guard count > 0 else { return [] }
        return [UInt32](unsafeUninitializedCapacity: 2 * count) { weights, written in
            // Where the count of the number being read goes.
            var countIndex: Int?
            func endNumber() {
                guard let index = countIndex else { return }
                weights[index] = numberClass | UInt32(written - index - 1)
                countIndex = nil
            }
            for scalar in scalars {
                guard let digit = digitValue(scalar) else {
                    endNumber()
                    weights[written] = weight(of: scalar)
                    written += 1
                    continue
                }
                let start = countIndex ?? written
                if countIndex == nil {
                    countIndex = start
                    written += 1
                }
                // Leading zeros do not count: "007" sorts with "7".
                if digit != 0 || written > start + 1 {
                    weights[written] = numberClass | digit
                    written += 1
                }
            }
            endNumber()
        }
    }

    static let numberClass: UInt32 = 4 << 24

    static func digitValue(_ scalar: Unicode.Scalar) -> UInt32? {
        if scalar.isASCII { return (0x30...0x39).contains(scalar.value) ? scalar.value - 0x30 : nil }
        guard scalar.properties.numericType == .decimal, let value = scalar.properties.numericValue else { return nil }
        return UInt32(value)
    }

    /// The scalar's class (in the top byte) and value, lowercased.
    static func weight(of scalar: Unicode.Scalar) -> UInt32 {
        if scalar.isASCII {
            let value = scalar.value
            switch value {
            case 0x41...0x5A: return 5 << 24 | (value + 0x20)
            case 0x61...0x7A: return 5 << 24 | value
            case 0x09...0x0D, 0x20: return 1 << 24 | value
            case 0x24, 0x2B, 0x3C...0x3E, 0x5E, 0x60, 0x7C, 0x7E: return 3 << 24 | value
            default: return (value < 0x20 || value == 0x7F ? 0 : 2 << 24) | value
            }
        }
        let properties = scalar.properties
        if properties.isWhitespace { return 1 << 24 | scalar.value }
        switch properties.generalCategory {
        case .connectorPunctuation, .dashPunctuation, .openPunctuation, .closePunctuation,
            .initialPunctuation, .finalPunctuation, .otherPunctuation:
            return 2 << 24 | scalar.value
        case .mathSymbol, .currencySymbol, .modifierSymbol, .otherSymbol:
            return 3 << 24 | scalar.value
        default:
            return 5 << 24 | scalar.value
        }
    }

    static func < (first: NaturalSortKey, second: NaturalSortKey) -> Bool {
        first.compared(to: second) < 0
    }

    /// -1, 0 or 1 as this key sorts before, with or after `other`: in one pass over both, on
    /// their buffers (a listing compares names some 20,000 times).
    func compared(to other: NaturalSortKey) -> Int {
        weights.withUnsafeBufferPointer { mine in
            other.weights.withUnsafeBufferPointer { theirs in
                for index in 0..<Swift.min(mine.count, theirs.count) where mine[index] != theirs[index] {
                    return mine[index] < theirs[index] ? -1 : 1
                }
                return mine.count == theirs.count ? 0 : mine.count < theirs.count ? -1 : 1
            }
        }
    }
}
