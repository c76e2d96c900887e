import Foundation
import GalleryKit

/// Edits waiting for their document, applied in arrival order through `GalleryDocument.modify` —
/// the CLI's lock, atomic save and undo history — with every edit that arrived during one save
/// applied in the next: a burst of edits costs one save instead of one each.
///
/// Each edit is its own undo step and succeeds or fails alone; if the save fails, every edit of
/// that save fails with its error and the document is unchanged.
actor EditQueue {
    /// A change to a document, run under its lock.
    typealias Edit = @Sendable (inout GalleryDocument) throws -> Void

    /// The document as saved after an edit.
    struct Outcome: Sendable {
        var gallery: Gallery
        var canUndo: Bool
        var canRedo: Bool
        /// The file's version just after this save (`DocumentVersion`), read before any later
        /// save can land, so that a page never pairs this content with a newer version.
        var version = ""
    }

    private struct Job {
        var edit: Edit
        var continuation: CheckedContinuation<Outcome, any Error>
    }

    private var waiting: [URL: [Job]] = [:]
    private var saving: Set<URL> = []
    /// How many saves there were, and how many edits they carried (the tests check the coalescing).
    private(set) var saves = 0
    private(set) var edits = 0

    /// Applies `edit` to the document at `url` and saves it.
    /// - Returns: the document as saved.
    /// - Throws: what `edit` throws, or why the document could not be opened or saved.
    func apply(_ edit: @escaping Edit, to url: URL) async throws -> Outcome {
        try await withCheckedThrowingContinuation { continuation in
            waiting[url, default: []].append(Job(edit: edit, continuation: continuation))
            guard !saving.contains(url) else { return }
            saving.insert(url)
            Task { await drain(url) }
        }
    }

    private func drain(_ url: URL) async {
        while let jobs = waiting.removeValue(forKey: url), !jobs.isEmpty {
            saves += 1
            edits += jobs.count
            let edits = jobs.map(\.edit)
            let results: Result<[Result<Outcome, any Error>], any Error>
            do {
                results = .success(try await offloaded { try Self.save(edits, at: url) })
            } catch {
                results = .failure(error)
            }
            for (index, job) in jobs.enumerated() {
                switch results {
                case .success(let outcomes): job.continuation.resume(with: outcomes[index])
                case .failure(let error): job.continuation.resume(throwing: error)
                }
            }
        }
        saving.remove(url)
    }

    /// Opens the document under its lock, applies each edit, saves once — or not at all when
    /// the edits changed nothing (all failed, or set what was already so).
    static func save(_ edits: [Edit], at url: URL) throws -> [Result<Outcome, any Error>] {
        var applied: [Result<Void, any Error>] = []
        var unchanged: Outcome?
        do {
            var saved = try GalleryDocument.modify(at: url) { document -> Outcome in
                // Whether any edit changed the gallery — each one, not the end against the start:
                // an edit and its undo in one batch leave the gallery as it was but change the
                // history, which must be saved.
                var changed = false
                for edit in edits {
                    let before = document.gallery
                    applied.append(Result { try edit(&document) })
                    changed = changed || document.gallery != before
                }
                let outcome = Outcome(gallery: document.gallery, canUndo: document.canUndo, canRedo: document.canRedo)
                guard changed else {
                    unchanged = outcome
                    throw NothingToSave()
                }
                return outcome
            }
            saved.version = DocumentVersion.of(url)
            return applied.map { result in result.map { saved } }
        } catch is NothingToSave {
            unchanged!.version = DocumentVersion.of(url)
            return applied.map { result in result.map { unchanged! } }
        }
    }

    private struct NothingToSave: Error {}
}
