import ArgumentParser
import Foundation
import GalleryKit

/// `gallery edit PATH.gallery ACTION …` — the document comes before the action, so the action is
/// dispatched here rather than by ArgumentParser's subcommands (which take no leading argument).
struct EditCommand: AsyncParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "edit",
        abstract: "Change a gallery document; every change can be undone.",
        usage: "gallery edit <document> <action> [<arguments> ...]",
        discussion: """
            Actions (indices are 1-based, as 'gallery open' shows them):
              add IMAGE... [--at I] [--cache]  insert image files at I (default: the end)
              move I... --to J                 move images; the first lands at J
              swap I J                         exchange two images
              remove I... | --failed           remove images (undo brings them back)
              title TEXT                       set the title
              columns N                        set the images per row (\(ColumnsOption.range))
              caption I TEXT                   set image I's caption ("" clears it)
              credit [I] --creator T ...       set who made image I, its licence… (no I: the gallery's)
              cache [I...]                     store images' bytes (default: all)
              uncache [I...]                   drop stored bytes (default: all)
              retry [I...] [--cache]           fetch failed web images again (default: all)
              undo | redo                      step through the last 20 edits

            'gallery edit DOC ACTION --help' explains one action.

            Examples, one for each action:
              gallery edit Trip.gallery add beach.jpg --at 1 --cache
              gallery edit Trip.gallery move 4 5 --to 1
              gallery edit Trip.gallery swap 1 3
              gallery edit Trip.gallery remove 2 6
              gallery edit Trip.gallery title "Summer trip"
              gallery edit Trip.gallery columns 4
              gallery edit Trip.gallery caption 1 "Dawn over the bay"
              gallery edit Trip.gallery credit 2 --creator "Ana Lima" \\
                  --license http://creativecommons.org/licenses/by/4.0/
              gallery edit Trip.gallery cache 2 3
              gallery edit Trip.gallery uncache
              gallery edit Trip.gallery retry --cache
              gallery edit Trip.gallery undo
              gallery edit Trip.gallery redo
            """
    )

    @Argument(help: "The document to change (PATH.gallery).")
    var document: DocumentPath

    // Optional so that a missing action is reported, like an unknown one, naming the document.
    @Argument(help: "What to do: add, move, swap, remove, title, columns, caption, credit, cache, uncache, retry, undo, redo.")
    var action: String?

    @Argument(parsing: .captureForPassthrough, help: "The action's arguments.")
    var arguments: [String] = []

    static let actions: [String: any EditAction.Type] = [
        "add": AddAction.self, "move": MoveAction.self, "swap": SwapAction.self, "remove": RemoveAction.self,
        "title": TitleAction.self, "columns": ColumnsAction.self, "caption": CaptionAction.self, "credit": CreditAction.self,
        "cache": CacheAction.self, "uncache": UncacheAction.self, "undo": UndoAction.self, "redo": RedoAction.self,
        "retry": RetryAction.self,
    ]

    func run() async throws {
        // Checked here rather than in `validate()`: an error thrown there reaches `main` without
        // the document, and every error of an edit names the document.
        let expected = "expected one of: \(Self.actions.keys.sorted().joined(separator: ", "))"
        guard let action else { throw GalleryError(.invalidArgument, url: document.url, "no action given; \(expected)") }
        if Self.actions[action] == nil, Self.actions[document.argument] != nil {
            let rest = arguments.map { $0.contains(" ") ? "'\($0)'" : $0 }
            let meant = (["gallery edit", action, document.argument] + rest).joined(separator: " ")
            throw GalleryError(
                .invalidArgument, url: RawArguments.fileURL(for: action), "the document comes before the action: \(meant)")
        }
        guard let type = Self.actions[action] else {
            throw GalleryError(.invalidArgument, url: document.url, "unknown action '\(action)'; \(expected)")
        }
        let parsed: any EditAction
        do {
            parsed = try type.parse(arguments)
        } catch {
            // `--help` prints the action's help in full; anything else is one line naming the
            // document and the action (ArgumentParser's own block would name neither).
            if type.exitCode(for: error) == .success { type.exit(withError: error) }
            let message = ExitStatus.usageMessage(for: error, of: type)
            throw GalleryError(
                .invalidArgument, url: document.url, "\(action): \(message) (see 'gallery edit <document> \(action) --help')")
        }
        try await perform(parsed, named: action)
    }

    /// Prepares outside the lock (downloads can take a minute), then edits under it.
    private func perform<Action: EditAction>(_ action: Action, named name: String) async throws {
        let preparation: Action.Preparation
        do {
            preparation = try await action.prepare(for: document.url)
        } catch let error as ValidationError {
            // An argument found wrong only now (an image URL with an unsupported scheme).
            throw GalleryError(.invalidArgument, url: document.url, "\(name): \(error.message)")
        }
        let message = try GalleryDocument.modify(at: document.url) { document in
            try action.apply(preparation, to: &document)
        }
        RecentDocuments().record(document.url, .edited)
        print("\(Output.name(document.url)): \(message)")
        try action.finish(preparation)
    }
}

/// One action of `gallery edit`: optional work before the document is locked, then a change
/// applied under the lock.
protocol EditAction: ParsableCommand {
    associatedtype Preparation: Sendable
    /// Work that needs no lock, such as downloading images.
    func prepare(for document: URL) async throws -> Preparation
    /// Changes the document and says what changed.
    func apply(_ preparation: Preparation, to document: inout GalleryDocument) throws -> String
    /// Reports after the save; throws to end with a non-zero status.
    func finish(_ preparation: Preparation) throws
}

/// An action with nothing to prepare.
protocol SimpleEditAction: EditAction where Preparation == Void {
    func apply(to document: inout GalleryDocument) throws -> String
}

extension SimpleEditAction {
    func prepare(for document: URL) async throws {}
    func apply(_: Void, to document: inout GalleryDocument) throws -> String { try apply(to: &document) }
    func finish(_: Void) throws {}
}

extension EditAction {
    static func usage(_ text: String, _ abstract: String, example: String) -> CommandConfiguration {
        CommandConfiguration(
            commandName: text.split(separator: " ").first.map(String.init), abstract: abstract, usage: "gallery edit <document> \(text)",
            discussion: "Example:\n  \(example)")
    }
}

struct AddAction: EditAction {
    static let configuration = usage(
        "add <image> ... [--at <i>] [--cache | --no-cache]", "Insert image files and web images.",
        example: "gallery edit Trip.gallery add beach.jpg https://example.org/dunes.png --at 2 --cache"
    )

    @Argument(help: "Images: paths, folders (the images in them), file:// URLs or http(s) URLs.")
    var images: [String]

    @Option(help: "The position the first new image takes (default: after the last).")
    var at: Position?

    @Flag(
        inversion: .prefixedNo,
        help: "Store the images' bytes in the document (default: as the document does, stored when every image in it is).")
    var cache: Bool?

    @Flag(help: "With --cache, store no thumbnails.")
    var noThumbnails = false

    @OptionGroup(title: "Fetching web images") var fetching: FetchOptions

    struct Preparation: Sendable {
        var images: PreparedImages
        /// The images as given (which came from a folder).
        var sources: ImageArguments
        /// Whether the bytes are stored because the document's images all are (no --cache given).
        var followsTheDocument: Bool
    }

    func prepare(for document: URL) async throws -> Preparation {
        _ = try at?.offset(option: "--at", in: document)
        let follows = try cache == nil && Self.storesEveryImage(document)
        let storing = cache ?? follows
        let sources = try ImageArguments(images)
        return Preparation(
            images: try await fetching.prepare(sources, cache: storing, thumbnails: !noThumbnails), sources: sources,
            followsTheDocument: follows)
    }

    func apply(_ prepared: Preparation, to document: inout GalleryDocument) throws -> String {
        let added = try document.insert(prepared.images, at: try at?.offset(option: "--at", in: document.url))
        let failed = added.count { $0.hasFailed }
        let stored = prepared.followsTheDocument ? ", stored like the others (--no-cache: not stored)" : ""
        return
            "added \(Output.count(added.count, "image"))\(failed > 0 ? " (\(failed) failed)" : "")\(stored) (now \(document.gallery.images.count))"
    }

    func finish(_ prepared: Preparation) throws {
        try fetching.finish(prepared.images.failures, of: prepared.sources, skipped: fetching.skipFailed)
    }

    /// Whether the document at `url` stores the bytes of every image it has (and has some).
    private static func storesEveryImage(_ url: URL) throws -> Bool {
        let images = try GalleryDocument(contentsOf: url).gallery.images
        return !images.isEmpty && images.allSatisfy(\.isCached)
    }
}

struct MoveAction: SimpleEditAction {
    static let configuration = usage(
        "move <i> ... --to <j>", "Move images so the first of them lands at position J.",
        example: "gallery edit Trip.gallery move 4 5 --to 1")

    @Argument(help: "The images to move.")
    var indices: [ImageIndex]

    @Option(help: "The position the first moved image takes in the result.")
    var to: Position

    func apply(to document: inout GalleryDocument) throws -> String {
        let target = try to.offset(option: "--to", in: document.url)
        try document.edit { try $0.move(fromOffsets: indices.offsets, toPosition: target) }
        return "moved \(Output.count(indices.count, "image")) to position \(target + 1)"
    }
}

struct SwapAction: SimpleEditAction {
    static let configuration = usage("swap <i> <j>", "Exchange two images.", example: "gallery edit Trip.gallery swap 1 3")

    @Argument(help: "The first image.") var first: ImageIndex
    @Argument(help: "The second image.") var second: ImageIndex

    func apply(to document: inout GalleryDocument) throws -> String {
        try document.edit { try $0.swapAt(first.offset, second.offset) }
        return "swapped images \(first.offset + 1) and \(second.offset + 1)"
    }
}

struct RemoveAction: SimpleEditAction {
    static let configuration = usage(
        "remove <i> ... | --failed", "Remove images (the trash); undo brings them back.",
        example: "gallery edit Trip.gallery remove 2 5\n  gallery edit Trip.gallery remove --failed")

    @Argument(help: "The images to remove.")
    var indices: [ImageIndex] = []

    @Flag(help: "Remove every image that failed (the error tiles), instead of images by number.")
    var failed = false

    func validate() throws {
        guard indices.isEmpty == failed else { throw ValidationError("give the images to remove, or --failed") }
    }

    func apply(to document: inout GalleryDocument) throws -> String {
        let offsets = failed ? document.gallery.images.indices.filter { document.gallery.images[$0].hasFailed } : indices.offsets
        guard !offsets.isEmpty else { return "no failed images to remove (\(document.gallery.images.count) images)" }
        try document.edit { try $0.remove(atOffsets: offsets) }
        return "removed \(Output.count(offsets.count, failed ? "failed image" : "image")) (now \(document.gallery.images.count))"
    }
}

struct TitleAction: SimpleEditAction {
    static let configuration = usage("title <text>", "Set the title.", example: "gallery edit Trip.gallery title \"Summer 2026\"")

    @Argument(help: "The new title.") var text: String

    func apply(to document: inout GalleryDocument) throws -> String {
        try document.edit { try $0.setTitle(text) }
        return "title set to \(text.debugDescription)"
    }
}

struct ColumnsAction: SimpleEditAction {
    static let configuration = usage(
        "columns <n>", "Set the images per row (\(ColumnsOption.range)).", example: "gallery edit Trip.gallery columns 4")

    @Argument(help: "Images per row.") var count: Int

    func apply(to document: inout GalleryDocument) throws -> String {
        try document.edit { try $0.setColumns(count) }
        return "\(count) images per row"
    }
}

struct CaptionAction: SimpleEditAction {
    static let configuration = usage(
        "caption <i> <text>", "Set an image's caption; an empty text clears it.",
        example: "gallery edit Trip.gallery caption 2 \"The harbour at dawn\"")

    @Argument(help: "The image.") var index: ImageIndex
    @Argument(help: "The caption.") var text: String

    func apply(to document: inout GalleryDocument) throws -> String {
        try document.edit { try $0.setCaption(text, at: index.offset) }
        return text.isEmpty ? "caption of image \(index.offset + 1) cleared" : "caption of image \(index.offset + 1) set"
    }
}

struct CreditAction: SimpleEditAction {
    static let configuration = CommandConfiguration(
        commandName: "credit", abstract: "Set who made an image and under what terms; without an image, the gallery's.",
        usage:
            "gallery edit <document> credit [<i>] [--creator <text>] [--copyright <text>] [--credit <text>] [--license <uri>] [--source <uri>]",
        discussion: """
            The gallery's credit is the default of its images': an image shows its own values \
            and the gallery's for the rest. Only the options given change; an empty text clears \
            one. Every export carries the credit (the site under each image and in its credits, \
            the IIIF manifest as rights and required statement).

            Examples:
              gallery edit Trip.gallery credit --creator "Ana Lima" --copyright "© 2026 Ana Lima"
              gallery edit Trip.gallery credit 3 --credit "Photo: Rijksmuseum" \\
                  --license http://creativecommons.org/publicdomain/zero/1.0/ \\
                  --source https://www.rijksmuseum.nl/en/collection/SK-C-5
              gallery edit Trip.gallery credit 3 --source ""
            """)

    @Argument(help: "The image (default: the gallery itself).") var index: ImageIndex?
    @Option(help: "Who made the image.") var creator: String?
    @Option(help: "The copyright notice, as written (\"© 2026 Ana Lima\").") var copyright: String?
    @Option(help: "The line to show beside the image (\"Photo: Ana Lima / CC BY 4.0\").") var credit: String?
    @Option(help: ArgumentHelp("The licence's URI (a Creative Commons or RightsStatements.org address).", valueName: "uri"))
    var license: String?
    @Option(help: ArgumentHelp("The page the image came from.", valueName: "uri")) var source: String?

    func validate() throws {
        guard [creator, copyright, credit, license, source].contains(where: { $0 != nil }) else {
            throw ValidationError("give --creator, --copyright, --credit, --license or --source (an empty text clears one)")
        }
        for (option, value) in [("--license", license), ("--source", source)] {
            guard let value, !value.isEmpty else { continue }
            guard let url = URL(string: value), ["http", "https"].contains(url.scheme?.lowercased() ?? ""), url.host != nil else {
                throw ValidationError("\(option) \(value.debugDescription): not an http or https address")
            }
        }
    }

    func apply(to document: inout GalleryDocument) throws -> String {
        let changes = Attribution(creator: creator, copyright: copyright, credit: credit, license: license, source: source)
        if let index {
            try document.edit { try $0.updateAttribution(changes, ofImageAt: index.offset) }
            return "credit of image \(index.offset + 1) set"
        }
        try document.edit { try $0.updateAttribution(changes) }
        return "the gallery's credit set"
    }
}

/// `[I...]`, meaning every image when none is given.
private func offsets(_ indices: [ImageIndex], in document: GalleryDocument) -> [Int] {
    indices.isEmpty ? Array(document.gallery.images.indices) : indices.offsets
}

struct CacheAction: EditAction {
    static let configuration = usage(
        "cache [<i> ...]", "Store images' bytes in the document, fetching web images (default: all).",
        example: "gallery edit Trip.gallery cache 1 2")

    @Argument(help: "The images (default: all).") var indices: [ImageIndex] = []
    @Flag(help: "Make no thumbnails (by default every cached image gets one, old ones included).") var noThumbnails = false
    @OptionGroup(title: "Fetching web images") var fetching: FetchOptions

    func prepare(for document: URL) async throws -> ImageRefresh {
        try await WebRefresh.prepare(document, indices: indices, thumbnails: !noThumbnails, fetching: fetching) {
            $0.needsFetching && $0.origin == .web
        }
    }

    func apply(_ refresh: ImageRefresh, to document: inout GalleryDocument) throws -> String {
        let before = document.gallery.images.count { $0.isCached }
        let targets = offsets(indices, in: document)
        if !targets.isEmpty { try document.cacheImages(atOffsets: targets, thumbnails: !noThumbnails) }
        try refresh.apply(to: &document, keepingStatusOfFailures: true)
        let after = document.gallery.images.count { $0.isCached }
        return "cached \(Output.count(after - before, "image")) (\(after) of \(document.gallery.images.count) cached)"
    }

    func finish(_ refresh: ImageRefresh) throws {
        try fetching.finish(refresh.prepared.failures, skipped: true, verb: "not cached")
    }
}

struct RetryAction: EditAction {
    static let configuration = usage(
        "retry [<i> ...] [--cache]", "Fetch failed web images again, in place (default: every failed one).",
        example: "gallery edit Trip.gallery retry --cache")

    @Argument(help: "The images (default: every failed one).") var indices: [ImageIndex] = []
    @Flag(help: "Store the bytes of the images fetched.") var cache = false
    @Flag(help: "With --cache, make no thumbnails.") var noThumbnails = false
    @OptionGroup(title: "Fetching web images") var fetching: FetchOptions

    func prepare(for document: URL) async throws -> ImageRefresh {
        try await WebRefresh.prepare(document, indices: indices, cache: cache, thumbnails: !noThumbnails, fetching: fetching) {
            $0.hasFailed
        }
    }

    func apply(_ refresh: ImageRefresh, to document: inout GalleryDocument) throws -> String {
        try refresh.apply(to: &document)
        let fetched = refresh.ids.count - refresh.prepared.failures.count
        return "retried \(Output.count(refresh.ids.count, "image")): \(fetched) fetched, \(refresh.prepared.failures.count) still failed"
    }

    func finish(_ refresh: ImageRefresh) throws {
        try fetching.finish(refresh.prepared.failures, skipped: false, verb: "still failed")
    }
}

/// Web images of a document fetched again, for `cache` and `retry` (`ImageRefresh`): chosen
/// from the document as it is now, fetched without the lock, applied by id under it.
enum WebRefresh {
    static func prepare(
        _ url: URL, indices: [ImageIndex], cache: Bool = true, thumbnails: Bool, fetching: FetchOptions,
        where wanted: (GalleryImage) -> Bool
    ) async throws -> ImageRefresh {
        let document = try GalleryDocument(contentsOf: url)
        let images = document.gallery.images
        let targets = offsets(indices, in: document)
        let valid: [Int]
        do {
            valid = targets.isEmpty ? [] : try document.gallery.validated(targets)
        } catch let error as GalleryError {
            throw GalleryError(error.code, url: url, error.reason)
        }
        var chosen: [GalleryImage] = []
        for offset in valid where wanted(images[offset]) {
            // A URL of another scheme (a manifest may hold any) cannot be fetched: named, it is
            // an error about this document; among "all" it is passed over.
            do {
                _ = try ImageSource(images[offset].url)
            } catch let error as GalleryError {
                guard !indices.isEmpty else { continue }
                throw GalleryError(.invalidArgument, url: url, "image \(offset + 1) cannot be fetched: \(error.description)")
            }
            chosen.append(images[offset])
        }
        var retrying = fetching
        retrying.skipFailed = false  // one prepared image per id, failed or not
        return try await ImageRefresh.fetching(chosen) {
            try await retrying.prepare(ImageArguments(sources: $0), cache: cache, thumbnails: thumbnails)
        }
    }
}

struct UncacheAction: SimpleEditAction {
    static let configuration = usage(
        "uncache [<i> ...]", "Stop storing images' bytes; undo brings them back (default: all).",
        example: "gallery edit Trip.gallery uncache 3")

    @Argument(help: "The images (default: all).") var indices: [ImageIndex] = []

    func apply(to document: inout GalleryDocument) throws -> String {
        let targets = offsets(indices, in: document)
        if !targets.isEmpty { try document.uncacheImages(atOffsets: targets) }
        let cached = document.gallery.images.count { $0.isCached }
        return "\(cached) of \(document.gallery.images.count) images cached"
    }
}

struct UndoAction: SimpleEditAction {
    static let configuration = usage("undo", "Step back one edit.", example: "gallery edit Trip.gallery undo")

    func apply(to document: inout GalleryDocument) throws -> String {
        let before = document.gallery
        try document.undo()
        return "undid “\(before.changes(from: document.gallery))” (\(Output.count(document.gallery.images.count, "image")) now)"
    }
}

struct RedoAction: SimpleEditAction {
    static let configuration = usage("redo", "Re-apply the last undone edit.", example: "gallery edit Trip.gallery redo")

    func apply(to document: inout GalleryDocument) throws -> String {
        let before = document.gallery
        try document.redo()
        return "redid “\(document.gallery.changes(from: before))” (\(Output.count(document.gallery.images.count, "image")) now)"
    }
}
