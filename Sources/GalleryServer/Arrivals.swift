import Foundation
import GalleryKit

/// Images on their way into documents — web images dropped in and being fetched, files
/// uploaded from the desktop, failed images being tried again — shown as placeholders until
/// they arrive.
///
/// Fetching runs in parallel, but each document takes its arrivals in the order they were
/// dropped: a drop waits for the one before it to be inserted. A drop lands before the image
/// that followed the drop position (at the end if none), wherever that image is by then.
actor Arrivals {
    /// An image not in its document yet.
    struct Placeholder: Sendable {
        var id = UUID()
        /// The URL or file name it comes from.
        var source: String
        /// The image it will stand before; `nil` for the end.
        var before: UUID?
    }

    /// The most placeholders one document may have at once.
    static let maximumWaiting = 500

    private var waiting: [URL: [Placeholder]] = [:]
    private var retrying: [URL: Set<UUID>] = [:]
    private var lastInsertion: [URL: Task<Void, Never>] = [:]
    private var running: [UUID: Task<Void, Never>] = [:]
    private var failures: [URL: String] = [:]

    func placeholders(in url: URL) -> [Placeholder] { waiting[url] ?? [] }

    func isRetrying(in url: URL) -> Set<UUID> { retrying[url] ?? [] }

    /// Shows a placeholder for each source at once, then fetches (or reads) and caches them, and
    /// inserts them before `before` in one edit, after the document's earlier arrivals.
    /// - Throws: `APIError` 429 when the document has too many images arriving already.
    func receive(_ sources: [ImageSource], before: UUID?, into url: URL, services: Services) async throws -> [Placeholder] {
        try await receive(sources.map(\.description), before: before, into: url, services: services) {
            try await PreparedImages.prepare(sources, cache: true, thumbnails: true, fetcher: services.fetcher)
        }
    }

    /// Shows a placeholder for each of `labels` at once, then prepares the images with `prepare`
    /// and inserts them before `before` in one edit, after the document's earlier arrivals.
    /// - Parameter discarding: a folder to remove once done, or at once if refused (an upload's).
    /// - Throws: `APIError` 429 when the document has too many images arriving already.
    func receive(
        _ labels: [String], before: UUID?, into url: URL, services: Services, discarding: URL? = nil,
        preparing prepare: @escaping @Sendable () async throws -> PreparedImages
    ) async throws -> [Placeholder] {
        let count = waiting[url]?.count ?? 0
        guard count + labels.count <= Self.maximumWaiting else {
            if let discarding { try? FileManager.default.removeItem(at: discarding) }
            throw APIError(.tooManyRequests, "\(count) images are still arriving in \(url.lastPathComponent); wait for them first")
        }
        let placeholders = labels.map { Placeholder(source: $0, before: before) }
        waiting[url, default: []] += placeholders

        // Chained before any suspension, so a drop that comes in meanwhile goes after this one.
        let previous = lastInsertion[url]
        let job = UUID()
        let task = Task {
            var failure: (any Error)?
            do {
                let prepared = try await prepare()
                await previous?.value
                _ = try await services.edits.apply(
                    { document in
                        let offset = before.flatMap { id in document.gallery.images.firstIndex { $0.id == id } }
                        try document.insert(prepared, at: offset)
                    }, to: url)
            } catch {
                await previous?.value
                failure = error
            }
            if let discarding { try? FileManager.default.removeItem(at: discarding) }
            await self.arrived(placeholders.map(\.id), in: url, job: job, failure: failure, services: services)
        }
        lastInsertion[url] = task
        running[job] = task
        await services.events.setArriving(waiting[url]?.count ?? 0, for: url)
        return placeholders
    }

    /// Fetches the image with `id` again (a failed one, from its URL) and updates it in place.
    func retry(_ image: GalleryImage, in url: URL, services: Services) async throws {
        guard image.hasFailed else {
            throw APIError(.badRequest, "\(url.lastPathComponent): the image has not failed; there is nothing to retry")
        }
        let source = try ImageSource(image.url)
        retrying[url, default: []].insert(image.id)
        await services.events.documentChanged(url)
        let job = UUID()
        running[job] = Task {
            // A fetch that fails again is recorded in the image by `update`; what fails here is
            // the document (moved, busy, damaged), reported like a failed arrival.
            var failure: (any Error)?
            do {
                let prepared = try await PreparedImages.prepare([source], cache: true, thumbnails: true, fetcher: services.fetcher)
                _ = try await services.edits.apply(
                    { document in
                        try document.update(imagesWithIDs: [image.id], from: prepared)
                    }, to: url)
            } catch {
                failure = error
            }
            await self.retried(image.id, in: url, job: job, failure: failure, services: services)
        }
    }

    /// Why the last arrival in the document failed, until one succeeds.
    func lastFailure(in url: URL) -> String? { failures[url] }

    private func arrived(_ ids: [UUID], in url: URL, job: UUID, failure: (any Error)?, services: Services) async {
        failures[url] = failure.map {
            "\(ids.count == 1 ? "an image" : "\(ids.count) images") could not be added: \(APIError.from($0).message)"
        }
        let arrived = Set(ids)
        waiting[url]?.removeAll { arrived.contains($0.id) }
        if waiting[url]?.isEmpty == true {
            waiting[url] = nil
            lastInsertion[url] = nil
        }
        running[job] = nil
        await services.events.setArriving(waiting[url]?.count ?? 0, for: url)
    }

    private func retried(_ id: UUID, in url: URL, job: UUID, failure: (any Error)?, services: Services) async {
        if let failure { failures[url] = "the image could not be fetched again: \(APIError.from(failure).message)" }
        retrying[url]?.remove(id)
        if retrying[url]?.isEmpty == true { retrying[url] = nil }
        running[job] = nil
        await services.events.documentChanged(url)
    }

    /// Waits until every arrival in progress has been inserted (or has failed).
    func waitForAll() async {
        while let task = running.values.first {
            await task.value
        }
    }
}
