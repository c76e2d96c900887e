import Foundation

/// A document in the Trash, as `Trash.documents()` lists it.
public struct TrashedDocument: Sendable, Equatable {
    /// Its name in the Trash (`Trip.gallery`, or `Trip.2.gallery` when another `Trip.gallery`
    /// was there first): what `gallery restore` takes.
    public var name: String
    /// Where it is now, in the trash folder's `files/`.
    public var url: URL
    /// Where it was trashed from, and where `Trash.restore(_:)` puts it back; `nil` when its
    /// `.trashinfo` is missing or damaged.
    public var originalURL: URL?
    /// When it was trashed; `nil` when unknown.
    public var deletionDate: Date?
    /// The trash folder holding it: the home trash (`~/.local/share/Trash`) or a volume's
    /// (`/media/usb/.Trash-1000`).
    public var trashURL: URL
    /// The top directory of the volume whose trash holds it (`/media/usb`); `nil` in the home trash.
    public var volume: URL?

    /// Its `.trashinfo` file.
    var infoURL: URL
}
