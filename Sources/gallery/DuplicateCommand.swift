import ArgumentParser
import Foundation
import GalleryKit

struct DuplicateCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "duplicate",
        abstract: "Copy a gallery document next to it and print the copy's path.",
        discussion: """
            The copy is named Trip copy.gallery, then Trip copy 2.gallery, … (a copy of \
            Trip copy.gallery is Trip copy 2.gallery), never replacing a file. It is a new \
            document: a new id, the same title, images and cached bytes, and no undo history.

            Example:
              gallery duplicate Trip.gallery
            """
    )

    @Argument(help: "The document (PATH.gallery).")
    var document: DocumentPath

    func run() throws {
        let copy = try GalleryDocument.duplicateDocument(at: document.url)
        RecentDocuments().record(copy, .duplicated)
        print(Output.name(copy))
    }
}
