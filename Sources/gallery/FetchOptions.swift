import ArgumentParser
import Foundation
import GalleryKit

/// How web images are downloaded: shared by `create`, `edit add`, `edit retry`, `edit cache` and
/// `export`.
struct DownloadOptions: ParsableArguments {
    @Option(help: "Downloads running at once.")
    var jobs = 8

    @Option(help: "Seconds allowed for each web image, connection to last byte.")
    var timeout = 60.0

    @Option(help: ArgumentHelp("The largest web image accepted, in bytes (suffixes K, M, G).", valueName: "bytes"))
    var maxBytes = ByteCount(value: 64 << 20)

    @Flag(name: .shortAndLong, help: "No progress line while fetching.")
    var quiet = false

    @OptionGroup var imageCache: ImageCacheOptions

    func validate() throws {
        guard (1...64).contains(jobs) else { throw ValidationError("--jobs must be from 1 to 64") }
        guard timeout > 0, timeout <= 3600 else { throw ValidationError("--timeout must be from 0 to 3600 seconds") }
        guard maxBytes.value > 0 else { throw ValidationError("--max-bytes must be more than 0") }
    }

    var configuration: ImageFetcher.Configuration {
        var configuration = ImageFetcher.Configuration()
        configuration.concurrency = jobs
        configuration.deadline = .milliseconds(Int64(timeout * 1000))
        configuration.connectTimeout = min(configuration.connectTimeout, configuration.deadline)
        configuration.readTimeout = min(configuration.readTimeout, configuration.deadline)
        configuration.maximumBytes = maxBytes.value
        return configuration
    }

    /// Runs `body` with a fetcher (when `needed`) and a progress line on a terminal, then ends
    /// the line and shuts the fetcher down, whatever happened.
    func withFetcher<T>(
        needed: Bool,
        _ body: (ImageFetcher?, @escaping @Sendable (ImageFetcher.Progress) -> Void) async throws -> T
    ) async throws -> T {
        let fetcher = needed ? ImageFetcher(configuration: configuration, cache: imageCache.cache) : nil
        let line = ProgressLine(enabled: !quiet)
        let outcome: Result<T, any Error>
        do {
            outcome = .success(try await body(fetcher, line.show))
        } catch {
            outcome = .failure(error)
        }
        // Cannot be deferred: shutting down is async.
        line.finish()
        await fetcher?.shutdown()
        return try outcome.get()
    }
}

/// How web images are fetched into a document: downloads, and what becomes of failures.
struct FetchOptions: ParsableArguments {
    @OptionGroup var downloads: DownloadOptions

    @Flag(
        help:
            "Leave out what cannot be added: files that are not images (instead of stopping), web images that cannot be fetched (instead of adding them as failed)."
    )
    var skipFailed = false

    @OptionGroup var verbosity: VerboseOption

    /// Prepares the images given (downloading web images), with a progress line on a terminal.
    /// The files of a folder that are not images are left out.
    func prepare(_ images: ImageArguments, cache: Bool, thumbnails: Bool = true) async throws -> PreparedImages {
        let needsFetcher = images.sources.contains { if case .web = $0 { true } else { false } }
        return try await verbosity.reporting {
            try await downloads.withFetcher(needed: needsFetcher) { fetcher, progress in
                try await PreparedImages.prepare(
                    images.sources, cache: cache, thumbnails: thumbnails, skippingFailed: skipFailed,
                    optional: Set(images.folders.keys), fetcher: fetcher, progress: progress)
            }
        }
    }

    /// The IIIF manifest in the file or at the http(s) URL `argument`.
    func manifest(at argument: String) async throws -> IIIFManifest {
        if let url = URL(string: argument), ["http", "https"].contains(url.scheme?.lowercased() ?? "") {
            let data = try await downloads.withFetcher(needed: true) { fetcher, _ in
                try await fetcher!.document(at: url, maximumBytes: IIIFManifest.maximumBytes)
            }
            return try IIIFManifest(data, source: argument)
        }
        let url = RawArguments.fileURL(for: argument)
        guard let size = (try? FileManager.default.attributesOfItem(atPath: url.path))?[.size] as? Int64 else {
            throw GalleryError(.fileNotFound, url: url, "no such file")
        }
        guard size <= IIIFManifest.maximumBytes else {
            throw GalleryError(.limitExceeded, url: url, "is larger than a IIIF manifest may be (\(IIIFManifest.maximumBytes >> 20) MiB)")
        }
        let data: Data
        do { data = try Data(contentsOf: url) } catch { throw GalleryError(.ioFailure, url: url, "cannot be read") }
        return try IIIFManifest(data, source: url.pathForDisplay)
    }

    /// Prepares the images of a IIIF manifest (`prepare(_:cache:thumbnails:)`).
    func prepare(_ manifest: IIIFManifest, cache: Bool, thumbnails: Bool = true) async throws -> PreparedImages {
        try await verbosity.reporting {
            try await downloads.withFetcher(needed: !manifest.images.isEmpty) { fetcher, progress in
                try await PreparedImages.prepare(
                    manifest, cache: cache, thumbnails: thumbnails, skippingFailed: skipFailed, fetcher: fetcher, progress: progress)
            }
        }
    }

    /// Lists what could not be had (`FetchReport.finish`), with the library's detail under
    /// `--verbose`; the files of a folder that were left out are one line for each folder.
    func finish(_ failures: [PreparedImages.Failure], of images: ImageArguments? = nil, skipped: Bool, verb: String? = nil) throws {
        let leftOut = failures.filter { images?.folders[$0.position] != nil }
        for (folder, files) in Dictionary(grouping: leftOut, by: { images!.folders[$0.position]! }).sorted(by: { $0.key.path < $1.key.path }
        ) {
            let names = files.map { ($0.source as NSString).lastPathComponent }
            let shown = Output.name(folder).hasSuffix("/") ? Output.name(folder) : Output.name(folder) + "/"
            let line = "gallery: left out of \(shown): \(names.joined(separator: ", ")) (not images)\n"
            FileHandle.standardError.write(Data(line.utf8))
        }
        if verbosity.verbose {
            for failure in leftOut {
                FileHandle.standardError.write(Data("gallery: left out: \(failure.source): \(failure.reason)\n".utf8))
                if let detail = failure.detail { FileHandle.standardError.write(Data("gallery: detail: \(detail)\n".utf8)) }
            }
        }
        let others = failures.filter { images?.folders[$0.position] == nil }
        try FetchReport.finish(others, skipped: skipped, verb: verb, detailed: verbosity.verbose)
    }
}

/// The image cache every command that fetches shares (`ImageCache`): an image downloaded once,
/// or seen in `gallery serve`, is not downloaded again.
struct ImageCacheOptions: ParsableArguments {
    @Option(
        help: ArgumentHelp(
            "The most the shared image cache may hold (suffixes K, M, G; 0 turns it off).",
            discussion:
                "The cache is $XDG_CACHE_HOME/gallery/images (~/.cache/gallery/images); the least recently used images go first. Deleting the folder empties it.",
            valueName: "bytes"))
    var imageCacheSize = ByteCount(value: ImageCache.defaultCapacity)

    /// The cache, or `nil` when turned off.
    var cache: ImageCache? {
        imageCacheSize.value > 0 ? ImageCache(directories: BaseDirectories(), capacity: imageCacheSize.value) : nil
    }
}

/// A byte count with an optional K, M or G suffix (powers of 1024).
struct ByteCount: ExpressibleByArgument {
    var value: Int64

    init(value: Int64) { self.value = value }

    init?(argument: String) {
        let units: [Character: Int64] = ["K": 1 << 10, "M": 1 << 20, "G": 1 << 30]
        var text = argument.uppercased()
        if text.hasSuffix("B") { text.removeLast() }
        let unit = text.last.flatMap { units[$0] }
        if unit != nil { text.removeLast() }
        guard let number = Int64(text), number >= 0 else { return nil }
        let (product, overflow) = number.multipliedReportingOverflow(by: unit ?? 1)
        guard !overflow else { return nil }
        value = product
    }

    var defaultValueDescription: String {
        value >= 1 << 30 && value % (1 << 30) == 0 ? "\(value >> 30)G" : value % (1 << 20) == 0 ? "\(value >> 20)M" : "\(value)"
    }
}

/// Lists what could not be fetched on stderr, one line each, and says whether all went well.
enum FetchReport {
    /// Prints one line per failure and, if there were any, ends with `ExitStatus.someImagesFailed`.
    static func finish(_ failures: [PreparedImages.Failure], skipped: Bool, verb: String? = nil, detailed: Bool = false) throws {
        for failure in failures {
            let what = verb ?? (skipped ? "skipped" : "added as failed")
            FileHandle.standardError.write(Data("gallery: \(what): \(failure.source): \(failure.reason)\n".utf8))
            if detailed, let detail = failure.detail { FileHandle.standardError.write(Data("gallery: detail: \(detail)\n".utf8)) }
        }
        if !failures.isEmpty { throw ExitCode(ExitStatus.someImagesFailed) }
    }
}
