import ArgumentParser
import Foundation
import GalleryKit

struct RecentsCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "recents",
        abstract: "List the documents recently created, opened or edited, newest first.",
        discussion: """
            Every command that creates, opens, edits, copies into, exports, duplicates, renames \
            or restores a document notes it in $XDG_STATE_HOME/gallery/recents.json (default \
            ~/.local/state/gallery/recents.json): the last 50 documents, each once, with what \
            was last done. Documents that no longer exist are left out.

            Examples:
              gallery recents
              gallery recents --json | jq -r '.[0].path'
            """
    )

    @OptionGroup var output: JSONOption

    func run() throws {
        let documents = RecentDocuments().documents()
        if output.json {
            return try Output.json(documents.map { RecentJSON(path: $0.url.pathForDisplay, event: $0.event.rawValue, date: $0.date) })
        }
        guard !documents.isEmpty else { return print("No recent documents.") }
        var rows = [["DATE", "EVENT", "DOCUMENT"]]
        for document in documents {
            rows.append([Output.date(document.date), document.event.rawValue, Output.name(document.url)])
        }
        Output.table(rows)
    }
}

/// A recent document for `recents --json`.
private struct RecentJSON: Encodable {
    var path: String
    var event: String
    var date: Date
}
