import Foundation

/// Names for new documents, as the Files app picks them: `Untitled.gallery`, `Untitled 2.gallery`,
/// …; `Trip copy.gallery`, `Trip copy 2.gallery`, ….
///
/// Names are bytes, as on the file system: a copy of a document whose name is not UTF-8 keeps
/// those bytes.
enum FreeName {
    /// The extension every document name ends with.
    static let fileExtension = Array(DocumentName.fileExtension.utf8)
    /// How many numbers are tried before giving up.
    static let maximumNumber = 10_000
    /// The longest stem kept from a title: room for " copy 10000.gallery" within NAME_MAX (255).
    static let maximumStemBytes = 200

    /// The name with number `number`: `stem.gallery` for 1, `stem N.gallery` after.
    static func name(_ stem: [UInt8], number: Int) -> [UInt8] {
        number == 1 ? stem + fileExtension : stem + Array(" \(number)".utf8) + fileExtension
    }

    /// The stem of a document's name: the name without `.gallery` (any case).
    static func stem(of name: [UInt8]) -> [UInt8] {
        hasDocumentExtension(name) ? Array(name.dropLast(fileExtension.count)) : name
    }

    /// Whether `name` ends with `.gallery`, in any case.
    static func hasDocumentExtension(_ name: [UInt8]) -> Bool {
        name.count > fileExtension.count
            && zip(name.suffix(fileExtension.count), fileExtension).allSatisfy { Self.lowercased($0) == $1 }
    }

    /// The stem copies of `stem` are named with: `Trip` → `Trip copy`; `Trip copy` and
    /// `Trip copy 3` → `Trip copy` as well, so a copy of a copy is `Trip copy 2`, not
    /// `Trip copy copy` (as Finder does).
    static func copyStem(of stem: [UInt8]) -> [UInt8] {
        let copy = Array(" copy".utf8)
        func endsWithCopy(_ bytes: ArraySlice<UInt8>) -> Bool {
            bytes.count > copy.count && bytes.suffix(copy.count).elementsEqual(copy)
        }
        var base = stem[...]
        // "Trip copy 3" → "Trip copy"
        if let space = base.lastIndex(of: UInt8(ascii: " ")), space + 1 < base.endIndex,
            base[(space + 1)...].allSatisfy({ (UInt8(ascii: "0")...UInt8(ascii: "9")).contains($0) }),
            endsWithCopy(base[..<space])
        {
            base = base[..<space]
        }
        return endsWithCopy(base) ? Array(base) : Array(base) + copy
    }

    /// A file-name stem for a title: `/` and control characters become `-` or go, leading dots
    /// go (no hidden files), at most `maximumStemBytes` bytes cut at a character boundary;
    /// "Untitled" when nothing is left.
    static func stem(forTitle title: String) -> [UInt8] {
        var text = String(
            title.unicodeScalars.compactMap { scalar -> Character? in
                if scalar == "/" { return "-" }
                if scalar.properties.generalCategory == .control { return nil }
                return Character(scalar)
            })
        text = text.trimmingCharacters(in: .whitespacesAndNewlines)
        while text.hasPrefix(".") { text.removeFirst() }
        var bytes: [UInt8] = []
        for character in text {
            let encoded = Array(String(character).utf8)
            guard bytes.count + encoded.count <= maximumStemBytes else { break }
            bytes += encoded
        }
        return bytes.isEmpty ? Array("Untitled".utf8) : bytes
    }

    /// Creates a file at the first free name in `folder` by calling `create`, which must fail
    /// with `.alreadyExists` when the name is taken — atomically (`O_EXCL`, `link`), so two
    /// processes racing for the same name never both get it: the loser goes on to the next.
    /// - Returns: what `create` returned for the name it took.
    /// - Throws: whatever `create` throws but `.alreadyExists`; `.cannotCreate` when every
    ///   number up to `maximumNumber` is taken.
    static func create<T>(in folder: URL, stem: [UInt8], _ create: (URL) throws -> T) throws -> T {
        let folderPath = FileLocation.bytes(of: folder)
        let prefix = folderPath.last == UInt8(ascii: "/") ? folderPath : folderPath + [UInt8(ascii: "/")]
        for number in 1...maximumNumber {
            let url = URL(fileSystemPath: prefix + name(stem, number: number))
            // A quick look skips taken names without writing anything; `create` decides.
            guard FileLocation.linkStatus(of: url) == nil else { continue }
            do {
                return try create(url)
            } catch let error as GalleryError where error.code == .alreadyExists {
                continue
            }
        }
        throw GalleryError(
            .cannotCreate, url: folder,
            "no free name for \(String(decoding: stem, as: UTF8.self)) (numbers up to \(maximumNumber) are taken)")
    }

    private static func lowercased(_ byte: UInt8) -> UInt8 {
        (UInt8(ascii: "A")...UInt8(ascii: "Z")).contains(byte) ? byte + 32 : byte
    }
}
