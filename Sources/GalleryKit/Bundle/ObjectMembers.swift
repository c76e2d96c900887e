import Foundation

/// The members a manifest reader looks up in one kind of object, each case spelled as its JSON name.
protocol MemberName: RawRepresentable<Int>, CaseIterable, Sendable where AllCases == [Self] {
    static var spellings: MemberSpellings { get }
}

/// How a kind of object's member names are spelled, by their position (`MemberName.rawValue`).
struct MemberSpellings: Sendable {
    let names: [String]
    private let utf8: [[UInt8]]
    /// For each name length, the names of that length as (first byte, position) pairs: nearly
    /// every member name is matched by one length, one byte and one comparison.
    private let candidatesByLength: [[(first: UInt8, position: Int)]]

    /// - Parameter names: the JSON names of `Name`'s cases, in the order of their raw values.
    ///   Spelled out rather than made from the cases (`"\(name)"`): that would cost every
    ///   command's start-up run-time type lookups.
    init<Name: MemberName>(of _: Name.Type, _ names: [String]) {
        self.names = names
        utf8 = names.map { Array($0.utf8) }
        var candidates = [[(first: UInt8, position: Int)]](repeating: [], count: (utf8.map(\.count).max() ?? 0) + 1)
        for (position, name) in utf8.enumerated() where !name.isEmpty { candidates[name.count].append((name[0], position)) }
        candidatesByLength = candidates
        precondition(Name.allCases.map(\.rawValue) == Array(names.indices), "one name for each case, numbered 0, 1, 2, …")
        precondition(names.count <= ObjectMembers<Name>.capacity, "more member names than ObjectMembers has room for")
    }

    func name(of member: some MemberName) -> String { names[member.rawValue] }

    /// The position of the name spelled by `bytes`. Compared as bytes: no string is made for a
    /// known name, which nearly every member of every image has.
    func position(of bytes: UnsafeBufferPointer<UInt8>) -> Int? {
        guard !bytes.isEmpty, bytes.count < candidatesByLength.count else { return nil }
        for candidate in candidatesByLength[bytes.count] where candidate.first == bytes[0] {
            if utf8[candidate.position].withUnsafeBufferPointer({ memcmp($0.baseAddress!, bytes.baseAddress!, bytes.count) == 0 }) {
                return candidate.position
            }
        }
        return nil
    }

    func position(of name: String) -> Int? {
        names.firstIndex(of: name)
    }
}

enum TopLevelMember: Int, MemberName {
    case format, formatVersion, id, title, created, modified, generator, columns, images, attribution
    static let spellings = MemberSpellings(
        of: Self.self, ["format", "formatVersion", "id", "title", "created", "modified", "generator", "columns", "images", "attribution"])
}

enum ImageMember: Int, MemberName {
    case id, url, aspectRatio, width, height, status, error, cached, thumbnail, caption, added, attribution
    static let spellings = MemberSpellings(
        of: Self.self,
        ["id", "url", "aspectRatio", "width", "height", "status", "error", "cached", "thumbnail", "caption", "added", "attribution"]
    )
}

/// The members of an attribution object (spec §5.6).
enum AttributionMember: Int, MemberName {
    case creator, copyright, credit, license, source
    static let spellings = MemberSpellings(of: Self.self, ["creator", "copyright", "credit", "license", "source"])
}

enum CachedImageMember: Int, MemberName {
    case path, sha256, bytes, mediaType
    static let spellings = MemberSpellings(of: Self.self, ["path", "sha256", "bytes", "mediaType"])
}

/// One JSON object's members as read: those with a known name in fixed places, any others kept
/// as they came (a newer writer's fields, written back unchanged).
///
/// An image's 11 members in a dictionary cost 11 string hashes to store and as many to look up
/// (a fifth of opening a big gallery); here each costs a comparison of a few bytes.
struct ObjectMembers<Name: MemberName>: Sendable {
    /// Room for the most members any kind has (an image's 12), in place: no allocation per image.
    private typealias Slots = InlineArray<12, JSONValue?>
    private var known = Slots(repeating: nil)
    static var capacity: Int { Slots.count }
    private(set) var unknown: [String: JSONValue] = [:]

    init() {}

    /// The members of an object read as a dictionary (a revision's state).
    init(_ members: [String: JSONValue]) {
        self.init()
        for (name, value) in members {
            if let position = Name.spellings.position(of: name) { known[position] = value } else { unknown[name] = value }
        }
    }

    subscript(name: Name) -> JSONValue? { known[name.rawValue] }

    /// Adds a member unless one of the same name came first (spec: duplicate members, the first wins).
    mutating func add(_ value: JSONValue, at position: Int) {
        if known[position] == nil { known[position] = value }
    }

    mutating func add(_ value: JSONValue, unknownName name: String) {
        if unknown[name] == nil { unknown[name] = value }
    }
}
