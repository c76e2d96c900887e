import ArgumentParser
import Foundation
import GalleryKit

struct VerifyCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "verify",
        abstract: "Check a document's structure and every byte of every entry.",
        discussion: """
            Checks what 'open' checks, then reads every entry: CRCs, sizes, the zip-bomb limit, \
            each cached image's SHA-256 and every undo revision. It is the format's conformance \
            checker, so it also reports what only a writer's rule forbids and 'open' forgives: a \
            compressed mimetype (spec §3.2), a manifest.json that is not the second entry (§3.3). \
            Exits 65 if anything is wrong, naming the rule.

            Example:
              gallery verify Trip.gallery
            """
    )

    @Argument(help: "The document (PATH.gallery).")
    var document: DocumentPath

    @OptionGroup var output: JSONOption

    @OptionGroup var verbosity: VerboseOption

    struct ReportJSON: Encodable {
        var path: String
        var ok: Bool
        var entries: Int?
        var bytes: Int64?
        var cachedImages: Int?
        var revisions: Int?
        var error: String?
        /// What the archive library said, when it said more than `error`.
        var detail: String?
    }

    func run() throws {
        try verbosity.reporting(check)
    }

    private func check() throws {
        do {
            let report = try BundleVerifier.verify(document.url)
            if output.json {
                try Output.json(
                    ReportJSON(
                        path: document.url.pathForDisplay, ok: true, entries: report.entries, bytes: report.bytes,
                        cachedImages: report.cachedImages, revisions: report.revisions
                    ))
            } else {
                print(
                    "\(Output.name(document.url)): ok — \(Output.count(report.entries, "entry", plural: "entries")), \(Output.bytes(report.bytes)) read, \(Output.count(report.cachedImages, "cached image")) and \(Output.count(report.revisions, "revision")) checked"
                )
            }
        } catch let error as GalleryError {
            if output.json {
                try Output.json(ReportJSON(path: document.url.pathForDisplay, ok: false, error: error.description, detail: error.detail))
            }
            throw error
        }
    }
}
