import ArgumentParser
import Foundation
import GalleryKit
import GalleryServer

struct ServeCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "serve",
        abstract: "Open a folder's galleries in a web browser, with drag and drop.",
        discussion: """
            Starts a local web app: the folder's documents as a browser (sort, search, recents, \
            new, duplicate, rename, Trash and restore) and each gallery laid out with its \
            images — drag to reorder (several at once with Shift or Ctrl), drop images or links \
            from other tabs or files from the desktop, drop on the trash to remove, undo and \
            redo. Every change is saved as 'gallery edit' saves it, and open pages follow \
            changes made elsewhere within a second.

            Images whose bytes are not stored in the document (a gallery of links) are fetched \
            when shown and kept in the shared image cache, never in the document: viewing \
            changes nothing. "Keep in gallery" on the page stores them (undoable).

            Only this machine can connect (127.0.0.1) unless --host says otherwise, and only \
            with the printed URL: it carries a secret token that changes at every start. \
            Ctrl-C stops the server.

            Examples:
              gallery serve ~/Galleries --open
              gallery serve . --port 8080
            """
    )

    @Argument(help: "The folder of documents to serve (default: the current folder).")
    var folder: String?

    @Option(help: "The port to listen on (default: a free one).")
    var port: Int?

    @Option(
        help: ArgumentHelp(
            "The address to listen on.",
            discussion: "Anything but 127.0.0.1, ::1 or localhost lets other machines reach the app (with the token); a warning says so."
        ))
    var host = "127.0.0.1"

    @Flag(help: "Open the app in the default browser (xdg-open).")
    var open = false

    @OptionGroup(title: "Images not stored in their document") var imageCache: ImageCacheOptions

    func validate() throws {
        guard (0...65535).contains(port ?? 0) else { throw ValidationError("--port must be from 0 to 65535") }
    }

    func run() async throws {
        var configuration = GalleryServer.Configuration(folder: RawArguments.fileURL(for: folder ?? "."))
        configuration.host = host
        configuration.port = port ?? 0
        configuration.imageCacheCapacity = imageCache.imageCacheSize.value
        let server = try GalleryServer(configuration: configuration)
        if !configuration.isLoopbackOnly {
            FileHandle.standardError.write(
                Data(
                    "gallery: warning: listening on \(host): other machines can reach the app; anyone with the URL can change these documents\n"
                        .utf8))
        }
        // The whole path: made relative to the current folder, the current folder itself was "".
        let open = open, folderName = configuration.folder.pathForDisplay
        try await server.run { url in
            let others = server.addressesForOtherMachines(port: url.port ?? 0).map {
                "On another device (same network): \($0.absoluteString)\n"
            }
            FileHandle.standardOutput.write(
                Data("Serving \(folderName) at \(url.absoluteString)\n\(others.joined())Press Ctrl-C to stop.\n".utf8))
            if open { Self.openInBrowser(url) }
        }
    }

    private static func openInBrowser(_ url: URL) {
        let process = Process()
        process.executableURL = URL(fileURLWithPath: "/usr/bin/env")
        process.arguments = ["xdg-open", url.absoluteString]
        process.standardOutput = FileHandle.nullDevice
        process.standardError = FileHandle.nullDevice
        if (try? process.run()) == nil {
            FileHandle.standardError.write(Data("gallery: warning: could not start xdg-open; open the URL above yourself\n".utf8))
        }
    }
}
