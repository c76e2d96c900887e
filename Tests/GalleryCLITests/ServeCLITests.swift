import Foundation
import GalleryTestSupport
import Testing

/// `gallery serve` as a user starts it: its help, its refusals, and the whole app in headless
/// Chromium (Debian's, driven by Playwright) — drag and drop, two tabs, the browser page.
@Suite struct ServeCLITests {
    let folder = TemporaryFolder()

    @Test func helpTeachesTheAppAndItsSafety() throws {
        let help = try Command.gallery(["serve", "--help"], in: folder.url)
        #expect(help.status == 0)
        for text in ["--port", "--host", "--open", "127.0.0.1", "token", "Ctrl-C", "gallery serve ~/Galleries --open"] {
            #expect(help.output.contains(text), "\(text)")
        }
    }

    @Test func aFolderThatIsNotThereIsOneLineAndExit66() throws {
        let result = try Command.gallery(["serve", "Nowhere"], in: folder.url)
        #expect(result.status == 66)
        #expect(result.errorOutput == "gallery: error: \(folder.url.path)/Nowhere: no such folder\n" || result.errorOutput.hasSuffix("Nowhere: no such folder\n"), "\(result)")
        #expect(result.output.isEmpty)
    }

    @Test func aPortOutOfRangeIsAUsageError() throws {
        let result = try Command.gallery(["serve", ".", "--port", "70000"], in: folder.url)
        #expect(result.status == 64 && result.errorOutput.contains("--port must be from 0 to 65535"), "\(result)")
    }

    @Test func theAppWorksInHeadlessChromium() throws {
        let checker = Repository.root.appendingPathComponent("Tests/Browser/check_serve.py")
        let python = try #require(Command.which("python3"))
        let images = Array(Repository.sampleImageFiles().prefix(7)).map(\.path)
        let result = try Command.run(python, [checker.path, Command.gallery.path] + images, in: folder.url)
        #expect(result.status == 0, "\(result)")
    }
}
