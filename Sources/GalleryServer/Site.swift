import Foundation
import GalleryKit
import Hummingbird

/// The app's pages, style sheets and scripts: files in `Site/` and the image viewer's
/// (`ViewerAssets`), read once at start.
struct Site: Sendable {
    struct File: Sendable {
        var bytes: ByteBuffer
        var contentType: String
    }

    private let files: [String: File]

    static let names: [String: String] = [
        "browser.html": "text/html; charset=utf-8",
        "gallery.html": "text/html; charset=utf-8",
        "app.css": "text/css; charset=utf-8",
        "common.js": "text/javascript; charset=utf-8",
        "browser.js": "text/javascript; charset=utf-8",
        "gallery.js": "text/javascript; charset=utf-8",
    ]

    init() throws {
        var files: [String: File] = [:]
        for (name, type) in Self.names {
            let expected = Bundle.module.bundleURL.appendingPathComponent("Site/\(name)")
            guard let url = Bundle.module.url(forResource: name, withExtension: nil, subdirectory: "Site"),
                let data = try? Data(contentsOf: url)
            else {
                throw GalleryError(.fileNotFound, url: expected, "the app's file is missing from the installation; reinstall gallery")
            }
            files[name] = File(bytes: ByteBuffer(bytes: data), contentType: type)
        }
        // The image viewer is the HTML export's (one viewer for both), from GalleryKit.
        for name in ViewerAssets.names {
            let type = name.hasSuffix(".css") ? "text/css; charset=utf-8" : "text/javascript; charset=utf-8"
            files[name] = File(bytes: ByteBuffer(bytes: try ViewerAssets.data(named: name)), contentType: type)
        }
        self.files = files
    }

    func response(for name: String) -> Response {
        guard let file = files[name] else { return APIError(.notFound, "no such file").response }
        return Response(status: .ok, headers: [.contentType: file.contentType], body: ResponseBody(byteBuffer: file.bytes))
    }
}

/// `/` (the document browser), `/gallery/NAME` (a gallery) and `/assets/FILE`.
struct SiteRoutes {
    let site: Site
    let folder: DocumentFolder
    let openedDocuments: OpenedDocuments

    func register(on router: Router<BasicRequestContext>) {
        router.get("/") { _, _ in site.response(for: "browser.html") }
        // The page is the same for every document: its script reads the name from the address.
        router.get("/gallery/:name") { _, context in
            let url = try folder.document(named: context.parameters.require("name"))
            // The page asks for the document's state as soon as its script runs: reading a large
            // document starts now, so that it is (nearly) read by then.
            Task { _ = try? await openedDocuments.current(url) }
            return site.response(for: "gallery.html")
        }
        // Browsers ask for it unprompted; there is none.
        router.get("/favicon.ico") { _, _ in Response(status: .noContent) }
        router.get("/assets/:file") { _, context in
            let name = try context.parameters.require("file")
            guard name.hasSuffix(".css") || name.hasSuffix(".js") else { return APIError(.notFound, "no such file").response }
            return site.response(for: name)
        }
        // Anything else: the app's own 404, behind the same guard and headers as every route.
        router.get("**") { _, _ in APIError(.notFound, "no such page").response }
    }
}
