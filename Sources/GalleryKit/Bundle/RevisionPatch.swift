import Foundation

/// Undo and redo revisions as JSON Patches (RFC 6902) between manifests (spec §3.7).
///
/// A revision is the patch that turns the state one step newer into the revision's state, so an
/// edit of one image in a 10,000-image gallery stores a few hundred bytes instead of another
/// copy of the whole manifest. Only `add`, `remove` and `replace` are written or read.
enum RevisionPatch {
    /// The operations that turn `newer` into `older`, as a JSON array.
    ///
    /// Arrays are compared by element identity — an object's `"id"` when every element has a
    /// distinct one (images), else the element itself — so moving images stores the moved
    /// images only, not the whole array.
    /// - Complexity: O(n log n) in the size of the trees.
    static func difference(from newer: JSONValue, to older: JSONValue) -> JSONValue {
        var operations: [JSONValue] = []
        difference(newer, older, at: "", into: &operations)
        return .array(operations)
    }

    /// `patch` applied to `value`.
    /// - Throws: `.damagedDocument` if `patch` is not a list of `add`, `remove` and `replace`
    ///   operations whose paths exist in `value`.
    static func apply(_ patch: JSONValue, to value: JSONValue) throws -> JSONValue {
        guard case .array(let operations) = patch else { throw damaged("is not a list of operations") }
        var result = value
        for (offset, operation) in operations.enumerated() {
            guard case .object(let fields) = operation, case .string(let name)? = fields["op"],
                case .string(let path)? = fields["path"]
            else {
                throw damaged("operation \(offset + 1) has no op or path")
            }
            let tokens = try pointer(path)
            switch name {
            case "add", "replace":
                guard let newValue = fields["value"] else { throw damaged("operation \(offset + 1) has no value") }
                try change(&result, at: tokens[...], name == "add" ? .add(newValue) : .replace(newValue))
            case "remove":
                try change(&result, at: tokens[...], .remove)
            default:
                throw damaged("operation \(offset + 1) is \(name.debugDescription); revisions use add, remove and replace")
            }
        }
        return result
    }

    /// A stored revision's state: a patch applied to the state one step newer, or a whole
    /// manifest (GalleryKit 0.1.0) as it is.
    static func state(of revision: JSONValue, from newer: JSONValue) throws -> JSONValue {
        if case .object = revision { return revision }
        return try apply(revision, to: newer)
    }

    /// The entry names a revision (a patch or a whole manifest) refers to: every `cached.path`
    /// and `thumbnail` in it, and the conventional thumbnail of every cached image (§3.6). Every value a patch holds belongs to some kept revision's state,
    /// so these and the current manifest's are exactly the entries the history needs.
    static func referencedEntries(in revision: JSONValue) -> (images: Set<String>, thumbnails: Set<String>) {
        var images = Set<String>(), thumbnails = Set<String>()
        func cached(_ fields: [String: JSONValue]) {
            if case .string(let path)? = fields["path"] { images.insert(path) }
            if case .string(let sha256)? = fields["sha256"] { thumbnails.insert(BundleLayout.thumbnailPath(sha256: sha256)) }
        }
        func visit(_ value: JSONValue) {
            switch value {
            case .object(let fields):
                if case .object(let object)? = fields["cached"] { cached(object) }
                if case .string(let thumbnail)? = fields["thumbnail"] { thumbnails.insert(thumbnail) }
                fields.values.forEach(visit)
            case .array(let elements):
                elements.forEach(visit)
            default:
                break
            }
        }
        // A patch may also set one member alone: `…/cached`, `…/cached/path`, `…/thumbnail`.
        if case .array(let operations) = revision {
            for case .object(let fields) in operations {
                guard case .string(let path)? = fields["path"], let value = fields["value"] else { continue }
                switch value {
                case .object(let object) where path.hasSuffix("/cached"): cached(object)
                case .string(let entry) where path.hasSuffix("/cached/path"): images.insert(entry)
                case .string(let sha256) where path.hasSuffix("/cached/sha256"):
                    thumbnails.insert(BundleLayout.thumbnailPath(sha256: sha256))
                case .string(let entry) where path.hasSuffix("/thumbnail"): thumbnails.insert(entry)
                default: break
                }
            }
        }
        visit(revision)
        return (images, thumbnails)
    }

    // MARK: - Difference

    private static func difference(_ newer: JSONValue, _ older: JSONValue, at path: String, into operations: inout [JSONValue]) {
        guard newer != older else { return }
        switch (newer, older) {
        case (.object(let from), .object(let to)):
            for key in from.keys.sorted() where to[key] == nil {
                operations.append(operation("remove", path + "/" + escaped(key)))
            }
            for key in to.keys.sorted() {
                let member = path + "/" + escaped(key)
                if let old = from[key] {
                    difference(old, to[key]!, at: member, into: &operations)
                } else {
                    operations.append(operation("add", member, to[key]!))
                }
            }
        case (.array(let from), .array(let to)):
            arrayDifference(from, to, at: path, into: &operations)
        default:
            operations.append(operation("replace", path, older))
        }
    }

    /// Removes what `to` lacks, adds what it gains, and keeps the longest run of elements that
    /// stay in order; elements kept but changed are compared member by member.
    private static func arrayDifference(_ from: [JSONValue], _ to: [JSONValue], at path: String, into operations: inout [JSONValue]) {
        guard let fromKeys = identities(of: from), let toKeys = identities(of: to) else {
            // No usable identities: replace what lies between the common ends.
            var start = 0
            while start < from.count, start < to.count, from[start] == to[start] { start += 1 }
            var end = 0
            while end < from.count - start, end < to.count - start, from[from.count - 1 - end] == to[to.count - 1 - end] { end += 1 }
            for index in stride(from: from.count - end - 1, through: start, by: -1) {
                operations.append(operation("remove", "\(path)/\(index)"))
            }
            for index in start..<(to.count - end) {
                operations.append(operation("add", "\(path)/\(index)", to[index]))
            }
            return
        }
        let targetIndex = Dictionary(uniqueKeysWithValues: toKeys.enumerated().map { ($1, $0) })
        // Positions in `to` of the elements of `from` that stay; the longest increasing run of
        // them keeps its place, everything else is removed and added again.
        let staying = fromKeys.indices.filter { targetIndex[fromKeys[$0]] != nil }
        let kept = Set(longestIncreasingRun(staying.map { targetIndex[fromKeys[$0]]! }).map { staying[$0] })
        for index in from.indices.reversed() where !kept.contains(index) {
            operations.append(operation("remove", "\(path)/\(index)"))
        }
        let keptTargets = Set(kept.map { targetIndex[fromKeys[$0]]! })
        for index in to.indices where !keptTargets.contains(index) {
            operations.append(operation("add", "\(path)/\(index)", to[index]))
        }
        for index in kept.sorted() {
            let target = targetIndex[fromKeys[index]]!
            difference(from[index], to[target], at: "\(path)/\(target)", into: &operations)
        }
    }

    private enum Identity: Hashable {
        case id(String)
        case value(JSONValue)
    }

    /// Each element's identity, or `nil` if two elements would share one.
    private static func identities(of elements: [JSONValue]) -> [Identity]? {
        var seen = Set<Identity>(minimumCapacity: elements.count)
        var keys: [Identity] = []
        keys.reserveCapacity(elements.count)
        for element in elements {
            var key = Identity.value(element)
            if case .object(let fields) = element, case .string(let id)? = fields["id"] { key = .id(id) }
            guard seen.insert(key).inserted else { return nil }
            keys.append(key)
        }
        return keys
    }

    /// Indices into `values` of one longest strictly increasing subsequence (patience sorting).
    private static func longestIncreasingRun(_ values: [Int]) -> [Int] {
        var tails: [Int] = []  // indices into values
        var previous = [Int](repeating: -1, count: values.count)
        for (index, value) in values.enumerated() {
            var low = 0, high = tails.count
            while low < high {
                let middle = (low + high) / 2
                if values[tails[middle]] < value { low = middle + 1 } else { high = middle }
            }
            if low > 0 { previous[index] = tails[low - 1] }
            if low == tails.count { tails.append(index) } else { tails[low] = index }
        }
        var run: [Int] = []
        var index = tails.last ?? -1
        while index >= 0 {
            run.append(index)
            index = previous[index]
        }
        return run.reversed()
    }

    private static func operation(_ name: String, _ path: String, _ value: JSONValue? = nil) -> JSONValue {
        var fields: [String: JSONValue] = ["op": .string(name), "path": .string(path)]
        if let value { fields["value"] = value }
        return .object(fields)
    }

    /// RFC 6901: `~` and `/` in a member name.
    private static func escaped(_ key: String) -> String {
        key.replacingOccurrences(of: "~", with: "~0").replacingOccurrences(of: "/", with: "~1")
    }

    // MARK: - Apply

    private enum Change {
        case add(JSONValue)
        case replace(JSONValue)
        case remove
    }

    private static func pointer(_ path: String) throws -> [String] {
        guard !path.isEmpty else { return [] }
        guard path.hasPrefix("/") else { throw damaged("path \(path.debugDescription) does not start with /") }
        return path.dropFirst().split(separator: "/", omittingEmptySubsequences: false).map {
            $0.replacingOccurrences(of: "~1", with: "/").replacingOccurrences(of: "~0", with: "~")
        }
    }

    private static func change(_ value: inout JSONValue, at tokens: ArraySlice<String>, _ change: Change) throws {
        guard let token = tokens.first else {
            switch change {
            case .add(let newValue), .replace(let newValue): value = newValue
            case .remove: throw damaged("removes the whole document")
            }
            return
        }
        let rest = tokens.dropFirst()
        switch value {
        case .object(var fields):
            value = .null  // drop the reference so `fields` is changed in place, not copied
            defer { value = .object(fields) }
            if rest.isEmpty {
                switch change {
                case .add(let newValue): fields[token] = newValue
                case .replace(let newValue):
                    guard fields[token] != nil else { throw damaged("replaces a member that does not exist") }
                    fields[token] = newValue
                case .remove:
                    guard fields.removeValue(forKey: token) != nil else { throw damaged("removes a member that does not exist") }
                }
            } else {
                guard var member = fields[token] else { throw damaged("changes inside a member that does not exist") }
                fields[token] = nil
                defer { fields[token] = member }
                try self.change(&member, at: rest, change)
            }
        case .array(var elements):
            value = .null
            defer { value = .array(elements) }
            let isAppend = token == "-" && rest.isEmpty
            guard isAppend || (token.allSatisfy(\.isASCII) && token.allSatisfy(\.isNumber) && (token == "0" || !token.hasPrefix("0"))),
                let index = isAppend ? elements.count : Int(token)
            else {
                throw damaged("has an array index \(token.debugDescription)")
            }
            if rest.isEmpty {
                switch change {
                case .add(let newValue):
                    guard index <= elements.count else { throw damaged("adds past the end of an array") }
                    elements.insert(newValue, at: index)
                case .replace(let newValue):
                    guard index < elements.count else { throw damaged("replaces past the end of an array") }
                    elements[index] = newValue
                case .remove:
                    guard index < elements.count else { throw damaged("removes past the end of an array") }
                    elements.remove(at: index)
                }
            } else {
                guard index < elements.count else { throw damaged("changes past the end of an array") }
                var element = elements[index]
                elements[index] = .null
                defer { elements[index] = element }
                try self.change(&element, at: rest, change)
            }
        default:
            throw damaged("changes inside a value that is neither an object nor an array")
        }
    }

    private static func damaged(_ problem: String) -> GalleryError {
        GalleryError(.damagedDocument, "an undo revision \(problem)")
    }
}
