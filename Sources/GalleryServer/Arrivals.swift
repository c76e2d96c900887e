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
    /// The images of each drop of several (by job) that have gone in, by their place in the drop.
    private var dropped: [UUID: [UUID?]] = [:]
    /// The last insertion into each document of an image of such a drop.
    private var insertions: [URL: Task<Void, Never>] = [:]

    func placeholders(in url: URL) -> [Placeholder] { waiting[url] ?? [] }

    func isRetrying(in url: URL) -> Set<UUID> { retrying[url] ?? [] }

    /// Shows a placeholder for each source at once, then fetches (or reads) and caches them. Each
    /// goes in as soon as it has come, after the document's earlier arrivals: a slow image no
    /// longer holds back the others of its drop (three dropped together waited for the slowest).
    /// The drop keeps its order: an image goes in before the first image of the same drop that
    /// came before it, else before `before`.
    /// - Throws: `APIError` 429 when the document has too many images arriving already.
    func receive(_ sources: [ImageSource], before: UUID?, into url: URL, services: Services) async throws -> [Placeholder] {
        guard sources.count > 1 else {
            return try await receive(sources.map(\.description), before: before, into: url, services: services) {
                try await PreparedImages.prepare(sources, cache: true, thumbnails: true, fetcher: services.fetcher)
            }
        }
        try checkRoom(for: sources.count, in: url)
        let placeholders = sources.map { Placeholder(source: $0.description, before: before) }
        waiting[url, default: []] += placeholders
        let previous = lastInsertion[url]
        let job = UUID()
        dropped[job] = [UUID?](repeating: nil, count: sources.count)
        let task = Task {
            await withTaskGroup(of: Void.self) { group in
                for (slot, source) in sources.enumerated() {
                    group.addTask {
                        var failure: (any Error)?
                        do {
                            let prepared = try await PreparedImages.prepare(
                                [source], cache: true, thumbnails: true, fetcher: services.fetcher)
                            await previous?.value
                            try await self.insert(
                                prepared, slot: slot, of: job, before: before, into: url, placeholders: placeholders, services: services)
                        } catch {
                            await previous?.value
                            failure = error
                        }
                        await self.arrived([placeholders[slot].id], in: url, job: nil, failure: failure, services: services)
                    }
                }
            }
            self.finished(job)
        }
        lastInsertion[url] = task
        running[job] = task
        await services.events.setArriving(waiting[url]?.count ?? 0, for: url)
        return placeholders
    }

    /// Inserts one image of a drop before the first of its later images already in (else before
    /// `before`), one insertion of the document at a time so that each sees the ones before it;
    /// the placeholders still waiting then stand before the image that follows them.
    private func insert(
        _ prepared: PreparedImages, slot: Int, of job: UUID, before: UUID?, into url: URL, placeholders: [Placeholder],
        services: Services
    ) async throws {
        let prior = insertions[url]
        let insertion = Task<Result<Void, any Error>, Never> {
            await prior?.value
            do {
                try await self.insertNow(
                    prepared, slot: slot, of: job, before: before, into: url, placeholders: placeholders, services: services)
                return .success(())
            } catch {
                return .failure(error)
            }
        }
        insertions[url] = Task { _ = await insertion.value }
        try await insertion.value.get()
    }

    private func insertNow(
        _ prepared: PreparedImages, slot: Int, of job: UUID, before: UUID?, into url: URL, placeholders: [Placeholder],
        services: Services
    ) async throws {
        let anchor = dropped[job]?.dropFirst(slot + 1).compactMap { $0 }.first ?? before
        _ = try await services.edits.apply(
            { document in
                let offset = anchor.flatMap { id in document.gallery.images.firstIndex { $0.id == id } }
                try document.insert(prepared, at: offset)
            }, to: url)
        guard let id = prepared.images.first?.id, var slots = dropped[job] else { return }
        slots[slot] = id
        dropped[job] = slots
        let waitingIDs = Dictionary(placeholders.enumerated().map { ($1.id, $0) }, uniquingKeysWith: { first, _ in first })
        for (index, placeholder) in (waiting[url] ?? []).enumerated() {
            guard let at = waitingIDs[placeholder.id] else { continue }
            waiting[url]?[index].before = slots.dropFirst(at + 1).compactMap { $0 }.first ?? before
        }
    }

    private func finished(_ job: UUID) {
        dropped[job] = nil
        running[job] = nil
    }

    private func checkRoom(for count: Int, in url: URL) throws {
        let arriving = waiting[url]?.count ?? 0
        guard arriving + count <= Self.maximumWaiting else {
            throw APIError(.tooManyRequests, "\(arriving) images are still arriving in \(url.lastPathComponent); wait for them first")
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
        do {
            try checkRoom(for: labels.count, in: url)
        } catch {
            if let discarding { try? FileManager.default.removeItem(at: discarding) }
            throw error
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

    private func arrived(_ ids: [UUID], in url: URL, job: UUID?, failure: (any Error)?, services: Services) async {
        failures[url] = failure.map {
            "\(ids.count == 1 ? "an image" : "\(ids.count) images") could not be added: \(APIError.from($0).message)"
        }
        let arrived = Set(ids)
        waiting[url]?.removeAll { arrived.contains($0.id) }
        if waiting[url]?.isEmpty == true {
            waiting[url] = nil
            lastInsertion[url] = nil
            insertions[url] = nil
        }
        if let job { running[job] = nil }
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
