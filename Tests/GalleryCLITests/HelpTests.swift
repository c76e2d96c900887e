import Foundation
import GalleryTestSupport
import Testing

/// Every command's `--help`, and every `edit` action's, states each default once: an option
/// whose text explains its default ("(default: the current folder)") gets no second one from
/// ArgumentParser ("(default: .)").
@Suite struct HelpTests {
    let folder = TemporaryFolder()

    static let commands: [[String]] =
        [
            "create", "open", "edit", "copy", "export", "browse", "verify", "new", "duplicate", "rename", "trash", "restore",
            "recents", "install-desktop-files", "serve",
        ].map { [$0] }
        + [
            "add", "move", "swap", "remove", "title", "columns", "caption", "credit", "cache", "uncache", "retry", "undo", "redo",
        ].map { ["edit", "Trip.gallery", $0] }

    @Test(arguments: commands)
    func eachDefaultIsStatedOnce(_ command: [String]) throws {
        let result = try Command.gallery(command + ["--help"], in: folder.url)
        #expect(result.status == 0, "\(result)")
        for entry in Self.entries(of: result.output) {
            #expect(entry.components(separatedBy: "(default").count <= 2, "\(command.joined(separator: " ")): \(entry)")
        }
    }

    /// The help's argument and option entries, each with its wrapped lines joined: an entry
    /// starts on a line indented by two spaces with `-` or `<`.
    static func entries(of help: String) -> [String] {
        var entries: [String] = []
        for line in help.split(separator: "\n", omittingEmptySubsequences: false) {
            let trimmed = line.drop { $0 == " " }
            if line.hasPrefix("  "), trimmed.hasPrefix("-") || trimmed.hasPrefix("<") {
                entries.append(String(trimmed))
            } else if line.hasPrefix("   "), !entries.isEmpty {
                entries[entries.count - 1] += " " + trimmed
            } else if !line.hasPrefix("  ") {
                entries.append("")  // a heading or text ends the entry
            }
        }
        return entries.filter { !$0.isEmpty }
    }

    /// `gallery edit --help` (and so `man gallery-edit`, generated from it) lists every action
    /// the command takes, each with an example.
    @Test func editsHelpShowsEveryActionWithAnExample() throws {
        let help = try Command.gallery(["edit", "--help"], in: folder.url).output
        for action in Self.commands.filter({ $0.count == 3 }).map({ $0[2] }) {
            #expect(help.contains("\n  \(action) ") || help.contains("| \(action) "), "no entry for \(action)")
            #expect(help.contains("gallery edit Trip.gallery \(action)"), "no example of \(action)")
        }
        // Every action the command takes, by its own refusal of an unknown one.
        let refusal = try Command.gallery(["edit", "Trip.gallery", "frobnicate"], in: folder.url).errorOutput
        let listed = try #require(refusal.range(of: "expected one of: ")).upperBound
        let actions = refusal[listed...].prefix { $0 != "\n" && $0 != ")" }.split(separator: ",").map {
            $0.trimmingCharacters(in: .whitespaces)
        }
        #expect(Set(actions) == Set(Self.commands.filter({ $0.count == 3 }).map({ $0[2] })), "\(refusal)")
    }

    /// The check above finds what it looks for: the help before this fix doubled `serve`'s.
    @Test func findsADoubledDefault() {
        let doubled = """
            ARGUMENTS:
              <folder>                The folder of documents to serve (default: the
                                      current folder). (default: .)

            """
        #expect(Self.entries(of: doubled).contains { $0.components(separatedBy: "(default").count == 3 })
    }
}
