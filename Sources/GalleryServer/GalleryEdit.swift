import Foundation
import GalleryKit

/// An edit a page asks for, naming images by id (GalleryKit's `Gallery+EditingByID`), checked
/// when the request is decoded: each case holds exactly what its action needs.
enum GalleryEdit: Sendable {
    /// The images (moved in their gallery order) put before `before`, or at the end.
    case move(ids: [UUID], before: UUID?)
    case remove(ids: [UUID])
    case columns(Int)
    /// "" clears the caption.
    case caption(id: UUID, text: String)
    case title(String)
    /// Stores the bytes of the images (fetched on view, or again) in the document.
    case keep(ids: [UUID])
    case undo
    case redo

    /// The request's JSON: `action` and the members that action takes.
    struct Request: Decodable {
        enum Action: String, Decodable {
            case move, remove, columns, caption, title, keep, undo, redo
        }

        var action: Action
        /// `move`, `remove`, `keep`: the images, in any order.
        var ids: [UUID]?
        /// `move`: the image the moved ones are put before; absent or null for the end.
        var before: UUID?
        /// `caption`: the image.
        var id: UUID?
        /// `columns`: the images per row.
        var count: Int?
        /// `caption`, `title`: the new text.
        var text: String?
    }

    /// The edit a request asks for.
    /// - Throws: `APIError` 400 for a request missing what its action needs, or a text over
    ///   `Gallery.maximumTextLength`.
    init(_ request: Request) throws {
        if let text = request.text {
            do { try Gallery.checkLength(of: text, naming: "text") } catch let error as GalleryError {
                throw APIError(.badRequest, error.reason)
            }
        }
        switch request.action {
        case .move, .remove, .keep:
            guard let ids = request.ids, !ids.isEmpty else {
                throw APIError(.badRequest, "\(request.action.rawValue) needs 'ids', the images to \(request.action.rawValue)")
            }
            self =
                switch request.action {
                case .move: .move(ids: ids, before: request.before)
                case .remove: .remove(ids: ids)
                default: .keep(ids: ids)
                }
        case .columns:
            guard let count = request.count else { throw APIError(.badRequest, "columns needs 'count', the images per row") }
            self = .columns(count)
        case .caption:
            guard let id = request.id, let text = request.text else { throw APIError(.badRequest, "caption needs 'id' and 'text'") }
            self = .caption(id: id, text: text)
        case .title:
            guard let text = request.text else { throw APIError(.badRequest, "title needs 'text'") }
            self = .title(text)
        case .undo: self = .undo
        case .redo: self = .redo
        }
    }

    /// The edit as the queue applies it to the document, under its lock; `nil` for `keep`,
    /// whose images are fetched first, outside the lock (`GalleryRoutes.keeping`).
    var change: EditQueue.Edit? {
        if case .keep = self { return nil }
        let edit = self
        return { document in
            switch edit {
            case .move(let ids, let before): try document.edit { try $0.moveImages(withIDs: ids, before: before) }
            case .remove(let ids): try document.edit { try $0.removeImages(withIDs: ids) }
            case .columns(let count): try document.edit { try $0.setColumns(count) }
            case .caption(let id, let text): try document.edit { try $0.setCaption(text, ofImageWithID: id) }
            case .title(let text): try document.edit { try $0.setTitle(text) }
            case .keep: break
            case .undo: try document.undo()
            case .redo: try document.redo()
            }
        }
    }
}
