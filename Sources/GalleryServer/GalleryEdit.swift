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
    /// Sets the members given of an image's credit (`nil`: the gallery's); "" clears one.
    case credit(id: UUID?, changes: Attribution)
    /// Stores the bytes of the images (fetched on view, or again) in the document.
    case keep(ids: [UUID])
    case undo
    case redo

    /// The request's JSON: `action` and the members that action takes.
    struct Request: Decodable {
        enum Action: String, Decodable {
            case move, remove, columns, caption, title, credit, keep, undo, redo
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
        /// `credit` (with `id` for an image's, without for the gallery's): the members to set.
        var creator: String?
        var copyright: String?
        var credit: String?
        var license: String?
        var source: String?
    }

    /// The edit a request asks for.
    /// - Throws: `APIError` 400 for a request missing what its action needs, or a text over
    ///   `Gallery.maximumTextLength`.
    init(_ request: Request) throws {
        for (name, text) in [
            ("text", request.text), ("creator", request.creator), ("copyright", request.copyright), ("credit", request.credit),
            ("license", request.license), ("source", request.source),
        ] {
            guard let text else { continue }
            do { try Gallery.checkLength(of: text, naming: name) } catch let error as GalleryError {
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
        case .credit:
            let changes = Attribution(
                creator: request.creator, copyright: request.copyright, credit: request.credit, license: request.license,
                source: request.source)
            guard [changes.creator, changes.copyright, changes.credit, changes.license, changes.source].contains(where: { $0 != nil })
            else {
                throw APIError(.badRequest, "credit needs one of 'creator', 'copyright', 'credit', 'license', 'source'")
            }
            self = .credit(id: request.id, changes: changes)
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
            case .credit(let id?, let changes): try document.edit { try $0.updateAttribution(changes, ofImageWithID: id) }
            case .credit(nil, let changes): try document.edit { try $0.updateAttribution(changes) }
            case .keep: break
            case .undo: try document.undo()
            case .redo: try document.redo()
            }
        }
    }
}
