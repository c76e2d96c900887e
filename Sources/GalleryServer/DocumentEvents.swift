import Foundation
import GalleryKit
import ServiceLifecycle

/// Tells open pages that a document changed, as server-sent events: after an edit made here, and
/// within a poll interval of a change on disk made by anyone else (the CLI, another program).
///
/// Only documents some page is watching are polled: a `stat` each per interval. It is a
/// `Service` so that shutting down ends every event stream, which would otherwise keep their
/// requests, and the server, open.
actor DocumentEvents: Service {
    /// What a page is told: the document's version, and the images on their way in.
    struct Event: Sendable, Equatable {
        var version: String
        var arriving: Int
    }

    private struct Watch {
        var listeners: [UUID: AsyncStream<Event>.Continuation] = [:]
        var last: Event?
    }

    private var watches: [URL: Watch] = [:]
    private var isShutDown = false
    private let pollInterval: Duration
    /// Counts images still arriving per document, for the event (set by `Arrivals`).
    private var arriving: [URL: Int] = [:]

    static let heartbeatInterval: Duration = .seconds(15)

    init(pollInterval: Duration) {
        self.pollInterval = pollInterval
    }

    /// A stream of the document's events, starting with its current state; it ends when the
    /// page goes away or the server shuts down.
    func subscribe(to url: URL) -> AsyncStream<Event> {
        let (stream, continuation) = AsyncStream.makeStream(of: Event.self, bufferingPolicy: .bufferingNewest(1))
        guard !isShutDown else {
            continuation.finish()
            return stream
        }
        let id = UUID()
        watches[url, default: Watch()].listeners[id] = continuation
        continuation.onTermination = { _ in Task { await self.unsubscribe(id, from: url) } }
        let event = currentEvent(of: url)
        watches[url]?.last = event
        continuation.yield(event)
        return stream
    }

    /// Tells every page watching `url` now, instead of at the next poll.
    func documentChanged(_ url: URL) {
        publish(url, force: true)
    }

    func setArriving(_ count: Int, for url: URL) {
        arriving[url] = count == 0 ? nil : count
        publish(url, force: true)
    }

    private func unsubscribe(_ id: UUID, from url: URL) {
        watches[url]?.listeners[id] = nil
        if watches[url]?.listeners.isEmpty == true { watches[url] = nil }
    }

    private func publish(_ url: URL, force: Bool) {
        guard var watch = watches[url] else { return }
        let event = currentEvent(of: url)
        guard force || event != watch.last else { return }
        watch.last = event
        watches[url] = watch
        for listener in watch.listeners.values { listener.yield(event) }
    }

    private func currentEvent(of url: URL) -> Event {
        Event(version: DocumentVersion.of(url), arriving: arriving[url] ?? 0)
    }

    /// Polls the watched documents until the server shuts down, then ends every stream.
    func run() async throws {
        var lastHeartbeat = ContinuousClock.now
        while !Task.isCancelled, !Task.isShuttingDownGracefully {
            try? await Task.sleep(for: pollInterval)
            // Now and then every page is told again, unchanged: writing to a page that has gone
            // fails, which ends its stream — otherwise it would wait for the document's next change.
            let isHeartbeat = ContinuousClock.now - lastHeartbeat >= Self.heartbeatInterval
            if isHeartbeat { lastHeartbeat = .now }
            for url in watches.keys { publish(url, force: isHeartbeat) }
        }
        shutDown()
    }

    /// Ends every stream, and any opened later.
    func shutDown() {
        isShutDown = true
        for watch in watches.values { for listener in watch.listeners.values { listener.finish() } }
        watches.removeAll()
    }
}

/// A document file's version as the pages compare it: its identity, size and modification time,
/// which every save (an atomic rename) changes.
enum DocumentVersion {
    static func of(_ url: URL) -> String {
        GalleryDocument.versionTag(ofFileAt: url)
    }
}
