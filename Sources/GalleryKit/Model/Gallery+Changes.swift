import Foundation

extension Gallery {
    /// What changed from `old` to this gallery, in words for a person: "removed 2 images",
    /// "moved 1 image", "title “Trip” → “Summer”", joined by commas; "nothing" when the two
    /// are the same. What an undo or a redo says it stepped over, since revisions keep states,
    /// not the names of the edits between them.
    public func changes(from old: Gallery) -> String {
        var changes: [String] = []
        if title != old.title { changes.append("title “\(old.title)” → “\(title)”") }
        if columns != old.columns { changes.append("columns \(old.columns) → \(columns)") }
        if attribution != old.attribution { changes.append("changed the gallery's credit") }
        let oldByID = Dictionary(
            old.images.enumerated().map { ($1.id, (image: $1, position: $0)) }, uniquingKeysWith: { first, _ in first })
        let newIDs = Set(images.map(\.id))
        let added = images.count { oldByID[$0.id] == nil }
        let removed = old.images.count { !newIDs.contains($0.id) }
        if added > 0 { changes.append("added \(Self.count(added))") }
        if removed > 0 { changes.append("removed \(Self.count(removed))") }
        let kept = images.compactMap { image in oldByID[image.id].map { (old: $0.image, position: $0.position, new: image) } }
        let moved = Self.movedCount(kept.map(\.position))
        if moved > 0 { changes.append("moved \(Self.count(moved))") }
        let captioned = kept.count { $0.old.caption != $0.new.caption }
        if captioned > 0 { changes.append("changed \(captioned == 1 ? "a caption" : "\(captioned) captions")") }
        let credited = kept.count { $0.old.attribution != $0.new.attribution }
        if credited > 0 { changes.append("changed the credit of \(Self.count(credited))") }
        let stored = kept.count { !$0.old.isCached && $0.new.isCached }
        let dropped = kept.count { $0.old.isCached && !$0.new.isCached }
        if stored > 0 { changes.append("stored \(Self.count(stored))") }
        if dropped > 0 { changes.append("dropped the stored bytes of \(Self.count(dropped))") }
        let fetched = kept.count { $0.old.hasFailed && !$0.new.hasFailed }
        if fetched > 0 { changes.append("fetched \(Self.count(fetched)) again") }
        return changes.isEmpty ? "nothing" : changes.joined(separator: ", ")
    }

    /// How many of the images, in new order at these old positions, moved: all but the
    /// longest run that kept its order (moving one image shifts others, which did not move).
    private static func movedCount(_ oldPositions: [Int]) -> Int {
        var smallestTails: [Int] = []
        for position in oldPositions {
            var low = 0, high = smallestTails.count
            while low < high {
                let middle = (low + high) / 2
                if smallestTails[middle] < position { low = middle + 1 } else { high = middle }
            }
            if low == smallestTails.count { smallestTails.append(position) } else { smallestTails[low] = position }
        }
        return oldPositions.count - smallestTails.count
    }

    private static func count(_ number: Int) -> String { number == 1 ? "1 image" : "\(number) images" }
}
