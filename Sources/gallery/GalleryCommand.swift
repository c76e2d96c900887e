import ArgumentParser
import Foundation
import GalleryKit

@main
struct GalleryCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "gallery",
        abstract: "Create, edit, browse and export .gallery documents.",
        discussion: """
            A .gallery document is a zip archive holding a manifest of images (each a URL with \
            its aspect ratio) and, optionally, the images' bytes. Indices are 1-based, as \
            'gallery open' shows them.

            Example:
              gallery create Trip.gallery --title "Trip" --cache photos/*.jpg
              gallery open Trip.gallery
            """,
        version: GalleryKitVersion.version,
        subcommands: [
            CreateCommand.self, OpenCommand.self, EditCommand.self, CopyCommand.self,
            ExportCommand.self, BrowseCommand.self, VerifyCommand.self,
            NewCommand.self, DuplicateCommand.self, RenameCommand.self, TrashCommand.self, RestoreCommand.self,
            RecentsCommand.self, InstallDesktopFilesCommand.self, ServeCommand.self,
        ]
    )

    /// Runs the command. Every error ends as one line on stderr with its documented exit status:
    /// a `GalleryError` through its code, a parse or validation error through ArgumentParser's
    /// message and status; `--help` and `--version` still print in full and exit 0.
    static func main() async {
        // libarchive converts every zip entry's time with `mktime`, and glibc re-reads the time
        // zone (a `stat` of /etc/localtime) at each call while TZ is unset: 1,200 calls to open a
        // 300-photo document. Naming the same default zone makes glibc read it once.
        #if os(Linux)
            if getenv("TZ") == nil { setenv("TZ", ":/etc/localtime", 0) }
        #endif
        do {
            var command = try parseAsRoot()
            if var command = command as? any AsyncParsableCommand {
                try await command.run()
            } else {
                try command.run()
            }
        } catch let error as GalleryError {
            ExitStatus.fail(with: error)
        } catch let detailed as DetailedError {
            ExitStatus.fail(with: detailed.error, showingDetail: true)
        } catch {
            ExitStatus.fail(with: error, parsing: self)
        }
    }
}
