import Foundation
import GalleryKit

/// An edit a page asks for, naming images by id — not by position, which another tab or the CLI
/// may have changed since the page last looked — turned into the library's edit.
struct GalleryEdit: Decodable, Sendable {
    enum Action: String, Decodable, Sendable {
        case move, remove, columns, caption, title, undo, redo
    }

    var action: Action
    /// The images moved or removed, in any order (`move` keeps their gallery order).
    var ids: [UUID]?
    /// `move`: the image the moved ones are put before; absent or null for the end.
    var before: UUID?
    /// `caption`: the image.
    var id: UUID?
    /// `columns`: the images per row.
    var count: Int?
    /// `caption`, `title`: the new text ("" clears a caption).
    var text: String?

    /// The most characters a title or caption may have.
    static let maximumTextLength = 10_000

    /// The edit, checked as far as it can be without the document.
    /// - Throws: `APIError` 400 for a request missing what its action needs.
    func change() throws -> EditQueue.Edit {
        let action = action, ids = ids ?? [], before = before, id = id, count = count, text = text
        if let text, text.count > Self.maximumTextLength {
            throw APIError(.badRequest, "the text is \(text.count) characters long; at most \(Self.maximumTextLength) are kept")
        }
        switch action {
        case .move, .remove:
            guard !ids.isEmpty else { throw APIError(.badRequest, "\(action.rawValue) needs 'ids', the images to \(action.rawValue)") }
        case .columns:
            guard count != nil else { throw APIError(.badRequest, "columns needs 'count', the images per row") }
        case .caption:
            guard id != nil, text != nil else { throw APIError(.badRequest, "caption needs 'id' and 'text'") }
        case .title:
            guard text != nil else { throw APIError(.badRequest, "title needs 'text'") }
        case .undo, .redo: break
        }
        return { document in
            switch action {
            case .move:
                let offsets = try Self.offsets(of: ids, in: document.gallery)
                let moving = Set(ids)
                let remaining = document.gallery.images.filter { !moving.contains($0.id) }
                var position = remaining.count
                if let before {
                    guard !moving.contains(before) else { throw GalleryError(.invalidArgument, "images cannot be moved before themselves") }
                    guard let found = remaining.firstIndex(where: { $0.id == before }) else { throw Self.gone }
                    position = found
                }
                try document.edit { try $0.move(fromOffsets: offsets, toPosition: position) }
            case .remove:
                let offsets = try Self.offsets(of: ids, in: document.gallery)
                try document.edit { _ = try $0.remove(atOffsets: offsets) }
            case .columns:
                try document.edit { try $0.setColumns(count!) }
            case .caption:
                let offset = try Self.offsets(of: [id!], in: document.gallery)[0]
                try document.edit { try $0.setCaption(text, at: offset) }
            case .title:
                try document.edit { $0.title = text! }
            case .undo:
                try document.undo()
            case .redo:
                try document.redo()
            }
        }
    }

    static let gone = GalleryError(.documentChanged, "an image is no longer in the gallery (changed elsewhere); the page shows it as it is now")

    static func offsets(of ids: [UUID], in gallery: Gallery) throws -> [Int] {
        let wanted = Set(ids)
        guard wanted.count == ids.count else { throw GalleryError(.invalidArgument, "an image is given twice") }
        let offsets = gallery.images.indices.filter { wanted.contains(gallery.images[$0].id) }
        guard offsets.count == wanted.count else { throw gone }
        return offsets
    }
}
