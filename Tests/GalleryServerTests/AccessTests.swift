import Foundation
import GalleryKit
import GalleryTestSupport
import HTTPTypes
import Hummingbird
import HummingbirdTesting
import NIOCore
import Testing

@testable import GalleryServer

/// The guard in front of every route: the token and its cookie, the Host header, the Origin of
/// changes, and the headers every answer carries.
@Suite struct AccessTests {
    @Test func theTokenInTheURLBecomesAnHttpOnlyStrictCookieAndLeavesTheAddress() async throws {
        let harness = try ServerHarness()
        try await harness.test { client in
            let response = try await client.execute(uri: "/gallery/Trip.gallery?token=\(harness.server.token)", method: .get)
            #expect(response.status == .seeOther)
            #expect(response.headers[.location] == "/gallery/Trip.gallery")
            let cookie = try #require(response.headers[.setCookie])
            #expect(cookie.hasPrefix(harness.cookie + ";"))
            #expect(cookie.contains("HttpOnly") && cookie.contains("SameSite=Strict") && cookie.contains("Path=/"))
        }
    }

    @Test(arguments: [false, true])
    func everyRouteNeedsTheCookie(withAWrongOne: Bool) async throws {
        let harness = try ServerHarness()
        let headers: HTTPFields = withAWrongOne ? [.cookie: "gallery-\(harness.server.token.prefix(8))=00"] : [:]
        let status = HTTPResponse.Status.unauthorized
        let `case` = withAWrongOne ? "a wrong cookie" : "no cookie"
        try await harness.test { client in
            for uri in [
                "/", "/gallery/Trip.gallery", "/assets/app.css", "/api/documents", "/api/galleries/Trip.gallery", "/api/trash",
                "/api/recents",
            ] {
                let response = try await client.execute(uri: uri, method: .get, headers: headers)
                #expect(response.status == status, "\(`case`): \(uri)")
            }
            var changing = headers
            changing[.origin] = "http://localhost"
            let edit = try await client.call(
                .post, "/api/galleries/Trip.gallery/edits", json: ["action": "columns", "count": 5], headers: changing)
            #expect(edit.status == status)
        }
        #expect(try harness.document().gallery.columns == Gallery.defaultColumns)
    }

    @Test func aWrongTokenInTheURLIsRefused() async throws {
        let harness = try ServerHarness()
        try await harness.test { client in
            let response = try await client.execute(uri: "/?token=\(String(repeating: "0", count: 64))", method: .get)
            #expect(response.status == .forbidden)
            #expect(response.headers[.setCookie] == nil)
        }
    }

    @Test(arguments: [nil, "http://evil.example", "http://localhost.evil.example", "null", "https://localhost"])
    func aChangeFromAnotherOriginIsRefusedAndChangesNothing(origin: String?) async throws {
        let harness = try ServerHarness()
        try await harness.test { client in
            var headers: HTTPFields = [.cookie: harness.cookie]
            if let origin { headers[.origin] = origin }
            for (uri, json) in [
                ("/api/galleries/Trip.gallery/edits", ["action": "columns", "count": 5] as [String: Any]),
                ("/api/documents", [:]),
                ("/api/documents/Trip.gallery/trash", [:]),
            ] {
                let answer = try await client.call(.post, uri, json: json, headers: headers)
                #expect(answer.status == .forbidden, "\(uri) from \(origin ?? "no origin")")
            }
        }
        #expect(try harness.document().gallery.columns == Gallery.defaultColumns)
        #expect(try FileManager.default.contentsOfDirectory(atPath: harness.folder.path) == ["Trip.gallery"])
    }

    /// DNS rebinding: a page of another site whose name now points at 127.0.0.1 sends its own
    /// name as Host. Checked over a real socket, where Host is what the client sends.
    @Test(arguments: [
        ("evil.example", false), ("evil.example:80", false), ("127.0.0.1.nip.io", false), ("localhost", true), ("127.0.0.1", true),
        ("[::1]", true),
    ])
    func theHostHeaderMustNameThisServer(host: String, isAllowed: Bool) async throws {
        let harness = try ServerHarness()
        try await harness.test(.live) { client in
            let port = try #require(client.port)
            let authority = host.hasSuffix(":80") ? host : "\(host):\(port)"
            let response = try await TestClient.withClient(host: "127.0.0.1", port: port) { raw in
                try await raw.execute(.init("/api/documents", method: .get, authority: authority, headers: [.cookie: harness.cookie]))
            }
            #expect((response.status == .ok) == isAllowed, "\(host): \(response.status)")
            if !isAllowed { #expect(response.status == .misdirectedRequest) }
        }
    }

    @Test func everyAnswerCarriesAStrictContentSecurityPolicy() async throws {
        let harness = try ServerHarness()
        try await harness.test { client in
            for uri in ["/", "/gallery/Trip.gallery", "/api/documents", "/nothing-here"] {
                let response = try await client.execute(uri: uri, method: .get, headers: harness.headers)
                let policy = try #require(response.headers[.contentSecurityPolicy], "\(uri)")
                #expect(
                    policy.contains("script-src 'self'") && !policy.contains("unsafe-inline") && policy.contains("default-src 'none'"),
                    "\(uri)")
                #expect(response.headers[.xContentTypeOptions] == "nosniff")
                #expect(response.headers[HTTPField.Name("Referrer-Policy")!] == "no-referrer")
            }
            // No page has inline script or style: every script and style sheet is a file.
            for page in ["/", "/gallery/Trip.gallery"] {
                let html = String(buffer: try await client.execute(uri: page, method: .get, headers: harness.headers).body)
                #expect(
                    !html.contains("<script>") && !html.contains("style=") && !html.contains("<style") && !html.contains("onclick"),
                    "\(page)")
                #expect(html.contains("<script src=\"/assets/"), "\(page)")
            }
        }
    }

    @Test func theServerListensOnLoopbackByDefault() throws {
        let configuration = GalleryServer.Configuration(folder: URL(fileURLWithPath: "/tmp"))
        #expect(configuration.host == "127.0.0.1" && configuration.isLoopbackOnly && configuration.port == 0)
        var wide = configuration
        wide.host = "0.0.0.0"
        #expect(!wide.isLoopbackOnly)
    }

    /// With `--host 0.0.0.0` other machines send this machine's address as Host: it is allowed,
    /// and other names still are not.
    @Test func listeningOnEveryAddressAllowsThisMachinesAddresses() throws {
        var configuration = GalleryServer.Configuration(folder: URL(fileURLWithPath: "/tmp"))
        configuration.host = "0.0.0.0"
        let hosts = try GalleryServer(configuration: configuration).allowedHosts
        let addresses = GalleryServer.interfaceAddresses()
        #expect(addresses.contains("127.0.0.1"), "\(addresses)")
        for address in addresses {
            #expect(hosts.contains(address.contains(":") ? "[\(address.lowercased())]" : address), "\(address)")
        }
        #expect(!hosts.contains("evil.example"))
        #expect(
            try GalleryServer(configuration: .init(folder: URL(fileURLWithPath: "/tmp"))).allowedHosts == [
                "127.0.0.1", "localhost", "[::1]",
            ])
    }

    /// Listening on every address, the URL to open here is the loopback one (a browser cannot go
    /// to 0.0.0.0 on another machine), and other devices get one per address of this machine,
    /// loopback and link-local ones aside.
    @Test func listeningOnEveryAddressNamesTheAddressesOtherDevicesOpen() throws {
        var configuration = GalleryServer.Configuration(folder: URL(fileURLWithPath: "/tmp"))
        configuration.host = "0.0.0.0"
        let server = try GalleryServer(configuration: configuration)
        #expect(server.address(port: 8080).absoluteString == "http://127.0.0.1:8080/?token=\(server.token)")
        let expected = GalleryServer.interfaceAddresses().filter { !$0.contains(":") && !$0.hasPrefix("127.") }
        #expect(
            server.addressesForOtherMachines(port: 8080).map(\.absoluteString)
                == expected.map { "http://\($0):8080/?token=\(server.token)" })
        let loopback = try GalleryServer(configuration: .init(folder: URL(fileURLWithPath: "/tmp")))
        #expect(loopback.addressesForOtherMachines(port: 8080).isEmpty)
    }

    @Test func eachStartHasItsOwnToken() throws {
        let folder = TemporaryFolder()
        let first = try GalleryServer(configuration: .init(folder: folder.url))
        let second = try GalleryServer(configuration: .init(folder: folder.url))
        #expect(first.token != second.token && first.token.count == 64)
        #expect(first.address(port: 8080).absoluteString == "http://127.0.0.1:8080/?token=\(first.token)")
    }
}
