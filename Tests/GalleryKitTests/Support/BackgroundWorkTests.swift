import Foundation
import Testing
@testable import GalleryKit

/// Work run in the background, or by the thread that waits for it.
@Suite struct BackgroundWorkTests {
    @Test func waitingGivesWhatTheWorkReturns() {
        #expect(BackgroundWork { true }.wait())
        #expect(!BackgroundWork { false }.wait())
        #expect(BackgroundWork(done: 7).wait() == 7)
        let work = BackgroundWork { "done" }
        #expect(work.wait() == "done" && work.wait() == "done", "a second wait gives the same")
    }

    /// A listing made on Dispatch's global threads (as `gallery serve` makes them) gets its
    /// work's result while every one of them is busy, maybe waiting too: the work does not wait
    /// for one of them.
    @Test func theWorkEndsWhileEveryDispatchThreadIsBusy() {
        let holders = 64
        let release = DispatchSemaphore(value: 0)
        let started = DispatchSemaphore(value: 0)
        for _ in 0..<holders {
            DispatchQueue.global().async {
                started.signal()
                _ = release.wait(timeout: .now() + 10)
            }
        }
        for _ in 0..<ProcessorCount.active { started.wait() }
        let start = ContinuousClock.now
        #expect(BackgroundWork { true }.wait())
        #expect(ContinuousClock.now - start < .seconds(2), "the work waited for a free thread")
        for _ in 0..<holders { release.signal() }
    }

    /// What the work holds is let go of after its result is out: the thread that waits does not
    /// wait for its release too.
    @Test func whatTheWorkHoldsIsLetGoOfAfterItsResultIsOut() {
        let taken = DispatchSemaphore(value: 0), proceed = DispatchSemaphore(value: 0)
        let resultIsOut = DispatchSemaphore(value: 0), released = DispatchSemaphore(value: 0)
        let holding = Holding {
            _ = resultIsOut.wait(timeout: .now() + 5)
            released.signal()
        }
        let work = BackgroundWork { [holding] in
            taken.signal()
            _ = proceed.wait(timeout: .now() + 5)
            return withExtendedLifetime(holding) { 1 }
        }
        _ = consume holding
        taken.wait()  // a worker thread runs it
        proceed.signal()
        let start = ContinuousClock.now
        #expect(work.wait() == 1)
        #expect(ContinuousClock.now - start < .seconds(2), "the result waited for the work's release")
        resultIsOut.signal()
        #expect(released.wait(timeout: .now() + 5) == .success)
    }
}

/// Calls `whenReleased` from its `deinit`.
private final class Holding: Sendable {
    let whenReleased: @Sendable () -> Void
    init(whenReleased: @escaping @Sendable () -> Void) { self.whenReleased = whenReleased }
    deinit { whenReleased() }
}
