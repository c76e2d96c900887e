import ArgumentParser
import Foundation
import GalleryKit

struct TrashCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "trash",
        abstract: "Move gallery documents to the Trash, or list the galleries in it.",
        discussion: """
            The Trash is the desktop's (freedesktop.org Trash specification 1.0), the one file \
            managers show: ~/.local/share/Trash ($XDG_DATA_HOME/Trash), or for a document on \
            another file system, that file system's .Trash-<uid> folder at its top. Documents \
            are moved, never copied or deleted; 'gallery restore' puts one back. --list shows \
            the names restore takes (Trip.2.gallery when a Trip.gallery was trashed before).

            Each document is moved or reported on stderr on its own; the exit status is that \
            of the first failure.

            Examples:
              gallery trash Trip.gallery "Trip copy.gallery"
              gallery trash --list
              gallery trash --list --json | jq -r '.[].originalPath'
            """
    )

    @Argument(help: "The documents to move to the Trash.")
    var documents: [DocumentPath] = []

    @Flag(help: "List the galleries in the Trash, most recently trashed first.")
    var list = false

    @OptionGroup var output: JSONOption

    func validate() throws {
        if list, !documents.isEmpty { throw ValidationError("give documents to trash or --list, not both") }
        if !list, documents.isEmpty { throw ValidationError("give the documents to move to the Trash (or --list)") }
    }

    func run() throws {
        let trash = Trash()
        guard !list else { return try show(trash.documents()) }
        var moved: [TrashedDocument] = []
        var firstFailure: GalleryError?
        for document in documents {
            do {
                let trashed = try trash.moveToTrash(document.url)
                moved.append(trashed)
                if !output.json {
                    let renamed = trashed.name == document.url.lastPathComponent ? "" : " as \(trashed.name)"
                    let volume = trashed.volume.map { " of \($0.pathForDisplay)" } ?? ""
                    print("\(Output.name(document.url)): moved to the Trash\(volume)\(renamed)")
                }
            } catch let error as GalleryError {
                FileHandle.standardError.write(Data("gallery: error: \(error)\n".utf8))
                firstFailure = firstFailure ?? error
            }
        }
        if output.json { try Output.json(moved.map(TrashedJSON.init)) }
        if let firstFailure { throw ExitCode(ExitStatus.status(for: firstFailure.code)) }
    }

    private func show(_ documents: [TrashedDocument]) throws {
        if output.json { return try Output.json(documents.map(TrashedJSON.init)) }
        guard !documents.isEmpty else { return print("No galleries in the Trash.") }
        var rows = [["NAME", "TRASHED", "FROM"]]
        for document in documents {
            rows.append([
                document.name, Output.date(document.deletionDate), document.originalURL?.pathForDisplay ?? "(unknown: no .trashinfo)",
            ])
        }
        Output.table(rows)
    }
}

/// A trashed document for `trash --json` and `trash --list --json`.
private struct TrashedJSON: Encodable {
    /// The name in the Trash, as `gallery restore` takes it.
    var name: String
    /// Where it is now.
    var path: String
    /// Where it was trashed from (`null` when unknown).
    var originalPath: String?
    var deletionDate: Date?
    /// The trash folder holding it.
    var trash: String

    init(_ document: TrashedDocument) {
        name = document.name
        path = document.url.pathForDisplay
        originalPath = document.originalURL?.pathForDisplay
        deletionDate = document.deletionDate
        trash = document.trashURL.pathForDisplay
    }

    func encode(to encoder: any Encoder) throws {
        // Every key always present, null when unknown, as 'open --json' does.
        var container = encoder.container(keyedBy: CodingKeys.self)
        try container.encode(name, forKey: .name)
        try container.encode(path, forKey: .path)
        try container.encode(originalPath, forKey: .originalPath)
        try container.encode(deletionDate, forKey: .deletionDate)
        try container.encode(trash, forKey: .trash)
    }

    private enum CodingKeys: String, CodingKey { case name, path, originalPath, deletionDate, trash }
}
