import ArgumentParser
import Foundation
import GalleryKit

struct NewCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "new",
        abstract: "Create an empty gallery document under a free name and print its path.",
        discussion: """
            The name is Untitled.gallery, or Untitled 2.gallery, Untitled 3.gallery, … when it \
            is taken (with --title, the title's: Trip.gallery, Trip 2.gallery, …). A file is \
            never replaced, also when several 'gallery new' run in the same folder at once.

            Examples:
              gallery new
              gallery new Galleries --title "Summer trip"
              doc=$(gallery new) && gallery edit "$doc" add photos/*.jpg
            """
    )

    @Argument(help: "The folder to create it in (default: the current folder).")
    var folder: String?

    @Option(help: "The gallery's title, also the file's name (default: Untitled).")
    var title: String?

    func validate() throws {
        try TitleOption.check(title)
    }

    func run() throws {
        let document = try GalleryDocument.createDocument(in: RawArguments.fileURL(for: folder ?? "."), title: title)
        RecentDocuments().record(document.url, .created)
        print(Output.name(document.url))
    }
}
