import Foundation

/// The edits of the seed app's collection view. Offsets are 0-based; an offset out of range is
/// `.invalidArgument` and leaves the gallery unchanged, so a front end can pass user input through.
extension Gallery {
    /// Inserts images at `offset` (a drop from outside, a paste, a copy from another document).
    /// - Complexity: O(n + m).
    public mutating func insert(contentsOf newImages: [GalleryImage], at offset: Int) throws {
        guard (0...images.count).contains(offset) else {
            throw GalleryError(.invalidArgument, "position \(offset + 1) is out of range (1 to \(images.count + 1))")
        }
        images.insert(contentsOf: newImages, at: offset)
    }

    /// Moves the images at `offsets` so they stand, in their current order, before the image that
    /// was at `destination` — the semantics of SwiftUI's `move(fromOffsets:toOffset:)`.
    ///
    /// `destination` may be `images.count` (the end). A drag of a stack of items is one call.
    /// - Complexity: O(n).
    public mutating func move(fromOffsets offsets: some Sequence<Int>, toOffset destination: Int) throws {
        let moving = try validated(offsets)
        guard (0...images.count).contains(destination) else {
            throw GalleryError(.invalidArgument, "destination \(destination + 1) is out of range (1 to \(images.count + 1))")
        }
        let movingSet = Set(moving)
        let moved = moving.map { images[$0] }
        var remaining = images.indices.filter { !movingSet.contains($0) }.map { images[$0] }
        let insertion = destination - moving.filter { $0 < destination }.count
        remaining.insert(contentsOf: moved, at: insertion)
        images = remaining
    }

    /// Moves the images at `offsets` so the first of them ends up at `position` in the result
    /// (the collection view's drop at an index path). `position` is 0-based, up to `count - moved`.
    /// - Complexity: O(n).
    public mutating func move(fromOffsets offsets: some Sequence<Int>, toPosition position: Int) throws {
        let moving = try validated(offsets)
        let movingSet = Set(moving)
        let remaining = images.indices.filter { !movingSet.contains($0) }
        guard (0...remaining.count).contains(position) else {
            throw GalleryError(.invalidArgument, "position \(position + 1) is out of range (1 to \(remaining.count + 1))")
        }
        let destination = position == remaining.count ? images.count : remaining[position]
        try move(fromOffsets: moving, toOffset: destination)
    }

    /// Exchanges two images.
    public mutating func swapAt(_ first: Int, _ second: Int) throws {
        _ = try validated([first, second])
        images.swapAt(first, second)
    }

    /// Removes the images at `offsets` (the trash) and returns them in their former order.
    /// - Complexity: O(n).
    @discardableResult
    public mutating func remove(atOffsets offsets: some Sequence<Int>) throws -> [GalleryImage] {
        let removing = try validated(offsets)
        let removingSet = Set(removing)
        let removed = removing.map { images[$0] }
        images = images.indices.filter { !removingSet.contains($0) }.map { images[$0] }
        return removed
    }

    /// Sets the number of images per row.
    public mutating func setColumns(_ count: Int) throws {
        guard Gallery.columnRange.contains(count) else {
            throw GalleryError(
                .invalidArgument,
                "columns must be from \(Gallery.columnRange.lowerBound) to \(Gallery.columnRange.upperBound), not \(count)")
        }
        columns = count
    }

    /// Sets or clears (`nil` or empty) the caption of the image at `offset`.
    /// - Throws: `.invalidArgument` for an offset out of range or a caption longer than
    ///   `maximumTextLength` characters.
    public mutating func setCaption(_ caption: String?, at offset: Int) throws {
        _ = try validated([offset])
        try Self.checkLength(of: caption ?? "", naming: "caption")
        images[offset].caption = caption.flatMap { $0.isEmpty ? nil : $0 }
    }

    /// Sets the members of the image's attribution that `changes` gives (an empty string clears
    /// one) and keeps the others; an attribution left with no member is removed.
    /// - Throws: `.invalidArgument` for an offset out of range or a text longer than
    ///   `maximumTextLength` characters.
    public mutating func updateAttribution(_ changes: Attribution, ofImageAt offset: Int) throws {
        _ = try validated([offset])
        images[offset].attribution = try Self.attribution(images[offset].attribution, updatedWith: changes)
    }

    /// `updateAttribution(_:ofImageAt:)` for the gallery's own attribution, the default of its images'.
    public mutating func updateAttribution(_ changes: Attribution) throws {
        attribution = try Self.attribution(attribution, updatedWith: changes)
    }

    private static func attribution(_ old: Attribution?, updatedWith changes: Attribution) throws -> Attribution? {
        for (name, text) in [
            ("creator", changes.creator), ("copyright", changes.copyright), ("credit", changes.credit),
            ("license", changes.license), ("source", changes.source),
        ] {
            try checkLength(of: text ?? "", naming: name)
        }
        let updated = (old ?? Attribution()).updated(with: changes)
        return updated.isEmpty ? nil : updated
    }

    /// Sets the title.
    /// - Throws: `.invalidArgument` for a title longer than `maximumTextLength` characters.
    public mutating func setTitle(_ title: String) throws {
        try Self.checkLength(of: title, naming: "title")
        self.title = title
    }

    /// Fails for a title or caption longer than `maximumTextLength` characters.
    public static func checkLength(of text: String, naming what: String) throws {
        // The UTF-8 count bounds the character count from above: most texts need no counting.
        guard text.utf8.count > maximumTextLength, text.count > maximumTextLength else { return }
        throw GalleryError(.invalidArgument, "the \(what) is \(text.count) characters long; at most \(maximumTextLength) are kept")
    }

    /// The offsets, sorted and checked: each in range, none twice, at least one.
    /// - Throws: `.invalidArgument` saying which offset is wrong.
    public func validated(_ offsets: some Sequence<Int>) throws -> [Int] {
        let sorted = offsets.sorted()
        guard !sorted.isEmpty else { throw GalleryError(.invalidArgument, "no images given") }
        guard images.count > 0 else { throw GalleryError(.invalidArgument, "the gallery has no images") }
        for offset in sorted where !images.indices.contains(offset) {
            throw GalleryError(.invalidArgument, "image \(offset + 1) does not exist (the gallery has \(images.count))")
        }
        if let repeated = zip(sorted, sorted.dropFirst()).first(where: { $0 == $1 }) {
            throw GalleryError(.invalidArgument, "image \(repeated.0 + 1) is given twice")
        }
        return sorted
    }
}
