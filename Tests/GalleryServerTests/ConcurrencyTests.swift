import Foundation
import GalleryKit
import GalleryTestSupport
import HTTPTypes
import HummingbirdTesting
import NIOCore
import Testing

@testable import GalleryServer

/// Several clients, and the CLI, editing one document: every edit kept; and the events that tell
/// open pages about changes.
@Suite struct ConcurrencyTests {
    /// Two clients over real sockets, each captioning its own images and moving them, all at
    /// once: every caption and every image is there at the end, and each edit is an undo step.
    @Test func editsFromTwoClientsAtOnceAreAllKept() async throws {
        let harness = try ServerHarness(images: 7)
        let ids = try harness.document().ids
        let rounds = 12
        try await harness.test(.live) { client in
            let port = try #require(client.port)
            try await withThrowingTaskGroup(of: Void.self) { group in
                for (clientNumber, mine) in [Array(ids[0..<3]), Array(ids[3..<7])].enumerated() {
                    group.addTask {
                        try await TestClient.withClient(host: "127.0.0.1", port: port) { raw in
                            for round in 0..<rounds {
                                let id = mine[round % mine.count]
                                let json: [String: Any] =
                                    round.isMultiple(of: 3)
                                    ? ["action": "move", "ids": [id], "before": NSNull()]
                                    : ["action": "caption", "id": id, "text": "client \(clientNumber) round \(round)"]
                                let body = ByteBuffer(bytes: try JSONSerialization.data(withJSONObject: json))
                                var headers = harness.headers
                                headers[.contentType] = "application/json"
                                let response = try await raw.execute(
                                    .init(
                                        "/api/galleries/Trip.gallery/edits", method: .post, authority: "localhost", headers: headers,
                                        body: body))
                                #expect(response.status == .ok, "client \(clientNumber) round \(round)")
                            }
                        }
                    }
                }
                try await group.waitForAll()
            }
        }
        let gallery = try harness.document().gallery
        #expect(Set(gallery.images.map { $0.id.uuidString.lowercased() }) == Set(ids), "no image lost or repeated")
        for (clientNumber, mine) in [Array(ids[0..<3]), Array(ids[3..<7])].enumerated() {
            for (offset, id) in mine.enumerated() {
                // The last caption round for this image.
                let last = (0..<rounds).last { $0 % mine.count == offset && !$0.isMultiple(of: 3) }
                let caption = gallery.images.first { $0.id.uuidString.lowercased() == id }?.caption
                #expect(caption == last.map { "client \(clientNumber) round \($0)" }, "\(id)")
            }
        }
        let edits = await harness.services.edits.edits, saves = await harness.services.edits.saves
        // Every edit counted, and saved: the document read above holds each client's last caption.
        #expect(edits == 2 * rounds && saves >= 1, "\(edits) edits in \(saves) saves")
    }

    /// An edit and an undo coalesced into one save leave the gallery as it was, but not its
    /// history: the save still happens, so Redo brings back that edit, not an older one.
    @Test func anEditAndItsUndoInOneSaveKeepTheHistory() async throws {
        let harness = try ServerHarness(images: 2)
        await harness.services.shutdown()  // only the queue's save is used
        let url = harness.folder.appendingPathComponent("Trip.gallery")
        try GalleryDocument.modify(at: url) { document in
            try document.edit { try $0.setColumns(5) }
            try document.undo()
        }
        let outcomes = try EditQueue.save([{ try $0.edit { try $0.setColumns(7) } }, { try $0.undo() }], at: url)
        #expect(outcomes.allSatisfy { (try? $0.get()) != nil })
        try GalleryDocument.modify(at: url) { document in try document.redo() }
        #expect(try harness.document().gallery.columns == 7, "the redo is the batch's edit, not the one before it")
    }

    /// Images that cannot be inserted (the document went away while they were fetched) are
    /// reported, not dropped silently.
    @Test func anArrivalThatCannotBeInsertedIsReported() async throws {
        let images = try ImageServer()
        let harness = try ServerHarness(images: 1)
        let url = harness.folder.appendingPathComponent("Trip.gallery")
        try await harness.test { client in
            let slow = images.url("/image/01-dawn.jpg?delay=800").absoluteString
            let drop = try await client.call(.post, "/api/galleries/Trip.gallery/drops", json: ["urls": [slow]], headers: harness.headers)
            #expect(drop.status == .accepted)
            try FileManager.default.moveItem(at: url, to: harness.folder.appendingPathComponent("Moved.gallery"))
            await harness.services.arrivals.waitForAll()
            let failure = try #require(await harness.services.arrivals.lastFailure(in: url))
            #expect(failure.hasPrefix("an image could not be added: ") && failure.contains("Trip.gallery"), "\(failure)")
        }
    }

    /// The CLI editing while the server does: both wait for the document's lock, nothing is lost.
    @Test func editsFromTheServerAndTheCLIAtOnceAreAllKept() async throws {
        let harness = try ServerHarness(images: 2)
        let document = harness.folder.appendingPathComponent("Trip.gallery").path
        try await harness.test { client in
            async let cli: Void = {
                for round in 0..<6 {
                    let result = try Command.gallery(["edit", document, "caption", "2", "cli \(round)"], in: harness.folder)
                    #expect(result.status == 0, "\(result)")
                }
            }()
            let id = try harness.document().ids[0]
            for round in 0..<6 {
                let answer = try await client.call(
                    .post, "/api/galleries/Trip.gallery/edits", json: ["action": "caption", "id": id, "text": "server \(round)"],
                    headers: harness.headers)
                #expect(answer.status == .ok)
            }
            try await cli
        }
        let images = try harness.document().gallery.images
        #expect(images.map(\.caption) == ["server 5", "cli 5"])
    }

    /// The events route over a real socket: the current version first, then a change for an edit
    /// made through the app and one made by the CLI.
    @Test func theEventStreamReportsEditsFromTheAppAndTheCLI() async throws {
        let harness = try ServerHarness(images: 2)
        let url = harness.folder.appendingPathComponent("Trip.gallery")
        try await harness.test(.live) { client in
            let port = try #require(client.port)
            let events = try EventStreamReader(port: port, path: "/api/galleries/Trip.gallery/events", cookie: harness.cookie)
            let first = try await events.nextEvent()
            #expect(first["version"] as? String == DocumentVersion.of(url) && first["arriving"] as? Int == 0)

            let edit = try await client.call(
                .post, "/api/galleries/Trip.gallery/edits", json: ["action": "columns", "count": 2], headers: harness.headers)
            #expect(edit.status == .ok)
            // The same version may be told twice (by the edit and by the poll): read past repeats.
            let afterEdit = try await events.nextEvent(otherThan: first["version"] as? String)
            #expect(afterEdit["version"] as? String == DocumentVersion.of(url))

            let cli = try Command.gallery(["edit", url.path, "columns", "4"], in: harness.folder)
            #expect(cli.status == 0, "\(cli)")
            let afterCLI = try await events.nextEvent(otherThan: afterEdit["version"] as? String)
            #expect(afterCLI["version"] as? String == DocumentVersion.of(url))
        }
    }

    @Test func pagesAreToldOfEditsHereAndOfChangesOnDisk() async throws {
        let harness = try ServerHarness(images: 1)
        let url = harness.folder.appendingPathComponent("Trip.gallery")
        let events = harness.services.events
        let polling = Task { try await events.run() }
        defer { polling.cancel() }
        var stream = await events.subscribe(to: url).makeAsyncIterator()
        let first = try #require(await stream.next())
        #expect(first.version == DocumentVersion.of(url) && first.arriving == 0)

        // Changed on disk by another program: noticed by polling.
        let edited = try Command.gallery(["edit", url.path, "columns", "5"], in: harness.folder)
        try #require(edited.status == 0, "\(edited)")
        let second = try #require(await stream.next())
        #expect(second.version == DocumentVersion.of(url) && second.version != first.version)

        // Images arriving are counted.
        await events.setArriving(2, for: url)
        #expect(await stream.next()?.arriving == 2)
        polling.cancel()
        await harness.services.shutdown()
    }
}
