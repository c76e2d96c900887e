import ArgumentParser
import Foundation
import GalleryKit

struct CopyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "copy",
        abstract: "Copy images from one gallery document into another.",
        usage: "gallery copy <source> <i> ... <destination> [--at <j>] [--move]",
        discussion: """
            Cached bytes travel with the images. With --move the images are removed from the \
            source after the destination is saved, so an interrupted move never loses them.

            Examples:
              gallery copy Trip.gallery 2 3 Best.gallery
              gallery copy Trip.gallery 1 Best.gallery --at 1 --move
            """
    )

    @Argument(help: "The source document, the images (1-based), then the destination document.")
    var arguments: [String]

    @Option(help: "The position the first copy takes in the destination (default: the end).")
    var at: Position?

    @Flag(help: "Remove the images from the source.")
    var move = false

    func validate() throws {
        guard arguments.count >= 3 else {
            throw ValidationError("give a source document, at least one image index and a destination document")
        }
        for argument in arguments.dropFirst().dropLast() where ImageIndex(argument: argument) == nil {
            throw ValidationError("'\(argument)' is not an image index (1, 2, …)")
        }
    }

    func run() throws {
        guard let source = DocumentPath(argument: arguments[0]), let destination = DocumentPath(argument: arguments[arguments.count - 1])
        else {
            throw ValidationError("give a source and a destination document")
        }
        let offsets = arguments.dropFirst().dropLast().compactMap { ImageIndex(argument: $0)?.offset }
        let count = try GalleryDocument.transferImages(
            atOffsets: offsets, from: source.url, to: destination.url, at: try at?.offset(option: "--at", in: destination.url),
            removingFromSource: move
        )
        RecentDocuments().record(destination.url, .copied)
        print(
            "\(move ? "Moved" : "Copied") \(Output.count(count, "image")) from \(Output.name(source.url)) to \(Output.name(destination.url))."
        )
    }
}
