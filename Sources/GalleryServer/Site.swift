import Foundation
import GalleryKit
import Hummingbird

/// The app's pages, style sheets and scripts: the files in `Site/`, inside the program
/// (SwiftPM's `embedInCode` resources, as GalleryKit's export templates are), and those the
/// HTML export shares with the gallery page (`PageAssets`: the frame lookups, the virtual grid,
/// the image request queue, the image viewer).
struct Site: Sendable {
    struct File: Sendable {
        var bytes: ByteBuffer
        var contentType: String
    }

    private let files: [String: File]

    init() throws(GalleryError) {
        let html = "text/html; charset=utf-8", css = "text/css; charset=utf-8", script = "text/javascript; charset=utf-8"
        var files: [String: File] = [:]
        for (name, bytes, type) in [
            ("browser.html", PackageResources.browser_html, html),
            ("gallery.html", PackageResources.gallery_html, html),
            ("app.css", [UInt8](PageAssets.styleSheet(PackageResources.app_css)), css),
            ("common.js", PackageResources.common_js, script),
            ("browser.js", PackageResources.browser_js, script),
            // The gallery page's scripts, in the order it loads them (after PageAssets').
            ("reorder.js", PackageResources.reorder_js, script),
            ("gallery-state.js", PackageResources.gallery_state_js, script),
            ("gallery-grid.js", PackageResources.gallery_grid_js, script),
            ("gallery-images.js", PackageResources.gallery_images_js, script),
            ("gallery-load.js", PackageResources.gallery_load_js, script),
            ("gallery-anchor.js", PackageResources.gallery_anchor_js, script),
            ("gallery-selection.js", PackageResources.gallery_selection_js, script),
            ("gallery-edits.js", PackageResources.gallery_edits_js, script),
            ("gallery-drag.js", PackageResources.gallery_drag_js, script),
            ("gallery-touch.js", PackageResources.gallery_touch_js, script),
            ("gallery-keys.js", PackageResources.gallery_keys_js, script),
            ("gallery-text.js", PackageResources.gallery_text_js, script),
            ("gallery-controls.js", PackageResources.gallery_controls_js, script),
            ("gallery-viewer.js", PackageResources.gallery_viewer_js, script),
            ("gallery-info.js", PackageResources.gallery_info_js, script),
            ("gallery.js", PackageResources.gallery_js, script),
        ] {
            files[name] = File(bytes: ByteBuffer(bytes: bytes), contentType: type)
        }
        // The HTML export's grid and image viewer (one of each for both), from GalleryKit.
        for name in PageAssets.names {
            files[name] = File(
                bytes: ByteBuffer(bytes: try PageAssets.data(named: name)), contentType: name.hasSuffix(".css") ? css : script)
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
