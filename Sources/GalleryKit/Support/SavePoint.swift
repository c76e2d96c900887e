import Foundation

/// Named moments of a save (a document's, or a listing's write to the browse index), where a
/// crash test can stop it exactly instead of killing it after a random delay and hoping to land
/// mid-save.
///
/// With `GALLERYKIT_PAUSE_AT` naming a point and `GALLERYKIT_PAUSED` a path, a process that
/// reaches that point creates the file at the path (the signal to the test) and waits there until
/// the test kills it, or removes the file to let it go on. Without them it is one comparison per
/// point, a handful per save.
enum SavePoint: String {
    /// The temporary file exists, empty.
    case temporaryCreated = "temporary-created"
    /// The temporary file holds the whole new document, synced; the target is untouched.
    case temporaryWritten = "temporary-written"
    /// The new document is in place; its folder is not yet synced.
    case renamed
    /// A listing has written its rows to the browse index, inside its transaction, not committed.
    case indexRowsWritten = "index-rows-written"
    /// A first listing's index, built aside and synced, is about to be put in place.
    case indexInstalling = "index-installing"

    /// Two `getenv`s, not `ProcessInfo`'s dictionary of the whole environment: every browse that
    /// writes the index and every save passes a point.
    private static let requested: (point: String, signal: String)? = {
        guard let point = getenv("GALLERYKIT_PAUSE_AT"), let signal = getenv("GALLERYKIT_PAUSED") else { return nil }
        return (String(cString: point), String(cString: signal))
    }()

    /// Waits here, if a test asked for this point, until the test removes the signal file.
    func reached() {
        guard let requested = Self.requested, requested.point == rawValue else { return }
        close(open(requested.signal, O_WRONLY | O_CREAT | O_CLOEXEC, 0o600))
        while access(requested.signal, F_OK) == 0 { usleep(2_000) }
    }
}
