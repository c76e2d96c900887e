import Foundation
import GalleryKit
import GalleryTestSupport
import HTTPTypes
import HummingbirdTesting
import Testing

@testable import GalleryServer

/// No name in a URL or a request reaches a file outside the served folder, however it is spelled.
@Suite struct PathSafetyTests {
    /// Names that try to leave the folder: every route that takes a name refuses them.
    static let escapes = [
        "..", "..%2FTrip.gallery", "%2E%2E%2Foutside.gallery", "%2e%2e", "%252e%252e%252foutside.gallery",
        "%2Fetc%2Fpasswd", "%2Ftmp%2Foutside.gallery", "sub%2F..%2F..%2Foutside.gallery", "..%5Coutside.gallery",
        ".hidden.gallery", "Trip.gallery%00.txt", "Trip", "outside.gallery",
    ]

    @Test(arguments: escapes)
    func namesThatLeaveTheFolderAreRefused(name: String) async throws {
        let harness = try ServerHarness()
        // A document outside the served folder, beside it: the target of the attempts.
        try FileManager.default.copyItem(
            at: harness.folder.appendingPathComponent("Trip.gallery"), to: harness.temporary.path("outside.gallery"))
        let before = harness.temporary.listing()
        try await harness.test { client in
            for uri in [
                "/api/galleries/\(name)", "/api/galleries/\(name)/thumbnails/\(UUID())", "/api/documents/\(name)/preview",
                "/gallery/\(name)",
            ] {
                let answer = try await client.call(.get, uri, headers: harness.headers)
                #expect([.badRequest, .notFound].contains(answer.status), "\(uri): \(answer.status)")
            }
            for uri in ["/api/documents/\(name)/trash", "/api/documents/\(name)/duplicate", "/api/galleries/\(name)/edits"] {
                let answer = try await client.call(
                    .post, uri, json: ["action": "columns", "count": 2, "name": "x"], headers: harness.headers)
                #expect([.badRequest, .notFound].contains(answer.status), "\(uri): \(answer.status)")
            }
        }
        #expect(harness.temporary.listing() == before)
    }

    @Test(arguments: [
        "/api/galleries/../outside.gallery", "/api/galleries/Trip.gallery/../../outside.gallery", "/assets/../../Package.swift",
        "/assets/..%2F..%2FPackage.swift", "//etc/passwd",
    ])
    func dotSegmentsInThePathServeNothing(uri: String) async throws {
        let harness = try ServerHarness()
        try await harness.test { client in
            let response = try await client.execute(uri: uri, method: .get, headers: harness.headers)
            #expect(response.status != .ok, "\(uri)")
            #expect(!String(buffer: response.body).contains("PackageDescription") && !String(buffer: response.body).contains("root:"))
        }
    }

    @Test func aLinkInTheFolderIsFollowedOnlyToAFileInside() async throws {
        let harness = try ServerHarness()
        let outside = harness.temporary.path("outside.gallery")
        try FileManager.default.copyItem(at: harness.folder.appendingPathComponent("Trip.gallery"), to: outside)
        try FileManager.default.createSymbolicLink(at: harness.folder.appendingPathComponent("Escape.gallery"), withDestinationURL: outside)
        try FileManager.default.createSymbolicLink(
            at: harness.folder.appendingPathComponent("Inside.gallery"),
            withDestinationURL: harness.folder.appendingPathComponent("Trip.gallery"))
        try FileManager.default.createSymbolicLink(
            atPath: harness.folder.appendingPathComponent("Relative.gallery").path, withDestinationPath: "../outside.gallery")
        let outsideBytes = try Data(contentsOf: outside)
        try await harness.test { client in
            for name in ["Escape.gallery", "Relative.gallery"] {
                let read = try await client.call(.get, "/api/galleries/\(name)", headers: harness.headers)
                #expect(read.status == .forbidden, "\(name): \(read.status) \(String(describing: read.json))")
                let edit = try await client.call(
                    .post, "/api/galleries/\(name)/edits", json: ["action": "columns", "count": 7], headers: harness.headers)
                #expect(edit.status == .forbidden, "\(name)")
            }
            #expect(try await client.call(.get, "/api/galleries/Inside.gallery", headers: harness.headers).status == .ok)
        }
        #expect(try Data(contentsOf: outside) == outsideBytes)
    }

    @Test(arguments: ["../Escaped", "sub/Name", ".hidden", "a\u{0}b", ""])
    func aRenameNeverLeavesTheFolder(newName: String) async throws {
        let harness = try ServerHarness()
        try await harness.test { client in
            let answer = try await client.call(
                .post, "/api/documents/Trip.gallery/rename", json: ["name": newName], headers: harness.headers)
            #expect(answer.status == .badRequest, "\(newName.debugDescription): \(answer.status)")
        }
        #expect(try FileManager.default.contentsOfDirectory(atPath: harness.folder.path) == ["Trip.gallery"])
        #expect(harness.temporary.listing().filter { !$0.hasPrefix("state") } == ["Galleries"])
    }

    @Test func aDocumentTrashedFromAnotherFolderIsNotRestoredFromHere() async throws {
        let harness = try ServerHarness()
        let elsewhere = harness.temporary.path("Elsewhere")
        try FileManager.default.createDirectory(at: elsewhere, withIntermediateDirectories: true)
        let other = elsewhere.appendingPathComponent("Other.gallery")
        try FileManager.default.copyItem(at: harness.folder.appendingPathComponent("Trip.gallery"), to: other)
        _ = try harness.services.trash.moveToTrash(other)
        try await harness.test { client in
            let listed = try await client.call(.get, "/api/trash", headers: harness.headers)
            #expect((listed.json as? [Any])?.isEmpty == true, "only this folder's documents are listed: \(String(describing: listed.json))")
            let restore = try await client.call(.post, "/api/trash/Other.gallery/restore", headers: harness.headers)
            #expect(restore.status == .notFound)
        }
        #expect(!FileManager.default.fileExists(atPath: other.path))
    }
}
