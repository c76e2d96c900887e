import ArgumentParser
import Foundation
import GalleryKit

struct RenameCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "rename",
        abstract: "Rename a gallery document within its folder and print its new path.",
        discussion: """
            .gallery is added when the new name lacks it. A name with '/' is refused (a rename \
            stays in the same folder; use mv to move), and so is the name of a file that exists \
            (exit 73): nothing is replaced.

            Examples:
              gallery rename Untitled.gallery "Summer trip"
              gallery rename "Trip copy.gallery" Trip-2024.gallery
            """
    )

    @Argument(help: "The document (PATH.gallery).")
    var document: DocumentPath

    @Argument(help: "Its new name, without a folder.")
    var newName: String

    func run() throws {
        let renamed = try GalleryDocument.renameDocument(at: document.url, to: newName)
        RecentDocuments().record(renamed, .renamed)
        print(Output.name(renamed))
    }
}
