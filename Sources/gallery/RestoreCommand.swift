import ArgumentParser
import Foundation
import GalleryKit

struct RestoreCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "restore",
        abstract: "Put a gallery document back from the Trash and print its path.",
        discussion: """
            Takes the name 'gallery trash --list' shows, or the path the document was trashed \
            from (the most recently trashed, if several were). A file now at that path is never \
            replaced (exit 73), and a folder removed meanwhile is not recreated (exit 73).

            Examples:
              gallery restore Trip.gallery
              gallery restore Trip.2.gallery
              gallery restore ~/Galleries/Trip.gallery
            """
    )

    @Argument(help: "A name in the Trash, or the path the document was trashed from.")
    var document: String

    func run() throws {
        let trash = Trash()
        let trashed = try trash.document(named: document, orTrashedFrom: RawArguments.fileURL(for: document))
        let restored = try trash.restore(trashed)
        RecentDocuments().record(restored, .restored)
        print(Output.name(restored))
    }
}
