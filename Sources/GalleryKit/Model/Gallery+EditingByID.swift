import Foundation

/// The edits of a front end that names images by id — not by position, which another window or
/// process may have changed since it last looked — so that an edit made on an out-of-date view
/// never touches the wrong image.
extension Gallery {
    /// Moves the images with `ids` (in their gallery order) before the image with id `target`,
    /// or to the end when `target` is `nil`.
    /// - Throws: `.documentChanged` if an image is no longer here; `.invalidArgument` for an id
    ///   given twice or a target among the moved images.
    /// - Complexity: O(n).
    public mutating func moveImages(withIDs ids: [UUID], before target: UUID?) throws {
        let offsets = try offsets(ofImagesWithIDs: ids)
        let moving = Set(ids)
        let remaining = images.filter { !moving.contains($0.id) }
        var position = remaining.count
        if let target {
            guard !moving.contains(target) else { throw GalleryError(.invalidArgument, "images cannot be moved before themselves") }
            guard let found = remaining.firstIndex(where: { $0.id == target }) else { throw Self.imageGone }
            position = found
        }
        try move(fromOffsets: offsets, toPosition: position)
    }

    /// Removes the images with `ids`.
    /// - Throws: as `offsets(ofImagesWithIDs:)`.
    /// - Complexity: O(n).
    @discardableResult
    public mutating func removeImages(withIDs ids: [UUID]) throws -> [GalleryImage] {
        try remove(atOffsets: try offsets(ofImagesWithIDs: ids))
    }

    /// Sets or clears (`nil` or empty) the caption of the image with `id`.
    /// - Throws: as `offsets(ofImagesWithIDs:)` and `setCaption(_:at:)`.
    public mutating func setCaption(_ caption: String?, ofImageWithID id: UUID) throws {
        try setCaption(caption, at: try offsets(ofImagesWithIDs: [id])[0])
    }

    /// `updateAttribution(_:ofImageAt:)` of the image with `id`.
    /// - Throws: `.documentChanged` if the image is no longer in the gallery.
    public mutating func updateAttribution(_ changes: Attribution, ofImageWithID id: UUID) throws {
        try updateAttribution(changes, ofImageAt: try offsets(ofImagesWithIDs: [id])[0])
    }

    /// The offsets of the images with `ids`, in gallery order.
    /// - Throws: `.invalidArgument` for no id or an id given twice; `.documentChanged` if an
    ///   image is no longer in the gallery.
    /// - Complexity: O(n).
    public func offsets(ofImagesWithIDs ids: [UUID]) throws -> [Int] {
        guard !ids.isEmpty else { throw GalleryError(.invalidArgument, "no images given") }
        let wanted = Set(ids)
        guard wanted.count == ids.count else { throw GalleryError(.invalidArgument, "an image is given twice") }
        let offsets = images.indices.filter { wanted.contains(images[$0].id) }
        guard offsets.count == wanted.count else { throw Self.imageGone }
        return offsets
    }

    /// An image an edit names by id is gone: the view it was made on is out of date.
    public static let imageGone = GalleryError(
        .documentChanged, "an image is no longer in the gallery (it was changed elsewhere)"
    )
}
