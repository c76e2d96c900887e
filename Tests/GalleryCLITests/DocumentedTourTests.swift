import Foundation
import GalleryTestSupport
import Testing

/// The tours of the README and of the command-line guide are what a new user types first. Each
/// `$ ` line of a page's first `console` block runs, in order, in a folder holding the sample
/// images, and prints what the page shows ("undone (4 images)" stayed in the README for a day
/// after undo learned to say what it undid).
///
/// Compared word for word: times, byte counts and runs of spaces aside (a file's size depends on
/// the folder's name in its manifest, and `ls` to a pipe writes a name per line), with the
/// page's `/tmp/tour` standing for the test's folder. `gallery serve` is not run: it serves until
/// stopped, and the browser checks cover it.
@Suite struct DocumentedTourTests {
    @Test(arguments: ["README.md", "Sources/GalleryKit/GalleryKit.docc/CommandLine.md"])
    func theTourPrintsWhatThePageShows(_ page: String) throws {
        let text = try String(contentsOf: Repository.root.appendingPathComponent(page), encoding: .utf8)
        let steps = Self.steps(inFirstConsoleBlockOf: text)
        #expect(steps.count >= 8, "\(page) has \(steps.count) steps")
        let folder = TemporaryFolder()
        for image in Repository.sampleImageFiles() {
            try FileManager.default.copyItem(at: image, to: folder.path(image.lastPathComponent))
        }
        let path = Command.gallery.deletingLastPathComponent().path + ":" + (ProcessInfo.processInfo.environment["PATH"] ?? "/usr/bin:/bin")
        for step in steps where !step.command.hasPrefix("gallery serve") {
            let result = try Command.run(
                URL(fileURLWithPath: "/bin/sh"), ["-c", step.command], in: folder.url, environment: ["PATH": path])
            #expect(result.status == 0, "\(page): \(step.command)\n\(result)")
            let expected = step.output.replacingOccurrences(of: "/tmp/tour", with: folder.url.path)
            #expect(Self.words(result.output) == Self.words(expected), "\(page): \(step.command)\n\(result.output)")
        }
    }

    /// The commands of the first `console` block and what each printed.
    static func steps(inFirstConsoleBlockOf text: String) -> [(command: String, output: String)] {
        var steps: [(command: String, output: String)] = []
        var inBlock = false
        for line in text.split(separator: "\n", omittingEmptySubsequences: false) {
            if !inBlock {
                inBlock = line == "```console"
                continue
            }
            if line == "```" { break }
            if line.hasPrefix("$ ") {
                steps.append((String(line.dropFirst(2)), ""))
            } else if !steps.isEmpty {
                steps[steps.count - 1].output += line + "\n"
            }
        }
        return steps
    }

    /// The words of an output, with times and byte counts made alike.
    static func words(_ output: String) -> [String] {
        output
            .replacing(/\d{4}-\d{2}-\d{2} \d{2}:\d{2}:\d{2}/, with: "TIME")
            .replacing(/\d+(\.\d+)? (bytes|KB|MB)/, with: "SIZE")
            .split(whereSeparator: \.isWhitespace).map(String.init)
    }
}
