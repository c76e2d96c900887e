import ArgumentParser
import Foundation
import GalleryKit

struct InstallDesktopFilesCommand: ParsableCommand {
    static let configuration = CommandConfiguration(
        commandName: "install-desktop-files",
        abstract: "Register the .gallery document type with the desktop (shared-mime-info).",
        discussion: """
            Installs the type definition of Specs/mime/gallery.xml (application/vnd.gallery+zip: \
            the *.gallery glob, and the stored mimetype entry as magic, so a renamed document is \
            still recognised) into /usr/share/mime/packages/, or with --user into \
            $XDG_DATA_HOME/mime/packages/ (default ~/.local/share), then runs \
            update-mime-database when it is installed (Debian: shared-mime-info). File managers \
            then show .gallery files as gallery documents. Run it again after an upgrade.

            For file(1), use Specs/mime/gallery.magic: file --magic-file gallery.magic DOC, or \
            append it to /etc/magic.

            Examples:
              gallery install-desktop-files --user
              sudo gallery install-desktop-files
            """
    )

    @Flag(help: "Install for the current user only, in $XDG_DATA_HOME/mime.")
    var user = false

    func run() throws {
        let data = user ? BaseDirectories().data : URL(fileURLWithPath: "/usr/share", isDirectory: true)
        let installation: DesktopFiles.Installation
        do {
            installation = try DesktopFiles.installSharedMimeInfo(inDataFolder: data)
        } catch let error as GalleryError where error.code == .cannotCreate && !user {
            throw GalleryError(error.code, path: error.path, "\(error.reason) (use --user to install for yourself alone)")
        }
        print("Installed \(installation.packageFile.pathForDisplay).")
        if installation.updatedDatabase {
            print("Updated the MIME database: update-mime-database \(installation.databaseFolder.pathForDisplay)")
        } else {
            print(
                "update-mime-database is not installed (Debian: shared-mime-info); run it on \(installation.databaseFolder.pathForDisplay) once it is."
            )
        }
    }
}
