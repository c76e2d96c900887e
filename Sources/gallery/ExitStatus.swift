import ArgumentParser
import Foundation
import GalleryKit

/// The documented exit statuses (sysexits.h), in one place.
enum ExitStatus {
    /// The document was saved, but some web images could not be fetched (each is listed on stderr).
    static let someImagesFailed: Int32 = 2
    static let usage: Int32 = 64
    static let dataError: Int32 = 65
    static let noInput: Int32 = 66
    static let cannotCreate: Int32 = 73
    static let ioError: Int32 = 74
    static let busy: Int32 = 75

    static func status(for code: GalleryError.Code) -> Int32 {
        switch code {
        case .invalidArgument: usage
        case .fileNotFound: noInput
        case .alreadyExists, .cannotCreate: cannotCreate
        case .ioFailure: ioError
        case .busy, .documentChanged: busy
        default: dataError
        }
    }

    /// Prints `gallery: error: <file>: <reason>` on stderr and exits with the error's status.
    /// With `showingDetail`, what the library underneath said follows on a line of its own,
    /// `gallery: detail: <message>` (`--verbose`).
    static func fail(with error: GalleryError, showingDetail: Bool = false) -> Never {
        FileHandle.standardError.write(Data("gallery: error: \(error)\n".utf8))
        if showingDetail, let detail = error.detail { FileHandle.standardError.write(Data("gallery: detail: \(detail)\n".utf8)) }
        exit(status(for: error.code))
    }

    /// Ends the program for an error ArgumentParser reports: `--help`, `--version` and the like
    /// print their full text on stdout and exit 0; a parse or validation error is one line,
    /// `gallery: error: <message> (see 'gallery create --help')`, with ArgumentParser's status
    /// (64 for usage errors); an `ExitCode`, thrown after its own report, just exits.
    static func fail(with error: any Error, parsing command: any ParsableCommand.Type) -> Never {
        let code = command.exitCode(for: error)
        if code == .success { command.exit(withError: error) }
        let message = usageMessage(for: error, of: command)
        guard !message.isEmpty else { exit(code.rawValue) }
        let hint = helpCommand(for: error, of: command).map { " (see '\($0)')" } ?? ""
        FileHandle.standardError.write(Data("gallery: error: \(message)\(hint)\n".utf8))
        exit(code.rawValue)
    }

    /// ArgumentParser's message for `error` as one line a sentence can continue: newlines joined
    /// with "; ", the first letter lowered unless it starts an acronym or a name ("Missing
    /// expected argument '<text>'" → "missing expected argument '<text>'").
    static func usageMessage(for error: any Error, of command: any ParsableArguments.Type) -> String {
        let lines = command.message(for: error).split(whereSeparator: \.isNewline)
            .map { $0.trimmingCharacters(in: .whitespaces) }.filter { !$0.isEmpty }
        let message = lines.joined(separator: "; ")
        guard let first = message.first, first.isUppercase, message.dropFirst().first?.isLowercase == true else { return message }
        return first.lowercased() + message.dropFirst()
    }

    /// The help command ArgumentParser's usage block ends with ("  See 'gallery create --help'
    /// for more information."): it names the subcommand that failed to parse, which the error
    /// itself does not make public.
    private static func helpCommand(for error: any Error, of command: any ParsableCommand.Type) -> String? {
        let lines = command.fullMessage(for: error).split(separator: "\n")
        guard let line = lines.last(where: { $0.contains("See '") }) else { return nil }
        let parts = line.split(separator: "'", omittingEmptySubsequences: false)
        return parts.count >= 3 ? String(parts[1]) : nil
    }
}
