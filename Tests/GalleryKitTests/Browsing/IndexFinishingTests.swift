import Foundation
import Testing
@testable import GalleryKit

/// The index's last steps: run in the background, or by the thread that waits for them.
@Suite struct IndexFinishingTests {
    @Test func waitingGivesWhatTheStepsReturn() {
        #expect(IndexFinishing { true }.wait())
        #expect(!IndexFinishing { false }.wait())
        #expect(IndexFinishing(isIndexed: true).wait())
        let finishing = IndexFinishing { true }
        #expect(finishing.wait() && finishing.wait(), "a second wait gives the same")
    }

    /// A listing made on Dispatch's global threads (as `gallery serve` makes them) does not wait
    /// for one of them to run its index's last steps while every one of them is busy, maybe
    /// waiting too: the waiting thread runs the steps itself.
    @Test func theWaitingThreadRunsTheStepsWhenNoOtherThreadIsFree() {
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
        #expect(IndexFinishing { true }.wait())
        #expect(ContinuousClock.now - start < .seconds(2), "the steps waited for a free thread")
        for _ in 0..<holders { release.signal() }
    }
}
