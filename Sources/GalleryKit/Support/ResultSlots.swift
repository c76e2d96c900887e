import Foundation

/// Results written by concurrent workers, one slot each (also the CLI's, hence `package`).
package final class ResultSlots<Value: Sendable>: @unchecked Sendable {
    private var slots: [Result<Value, any Error>?]
    private let lock = NSLock()

    package init(count: Int) { slots = Array(repeating: nil, count: count) }

    package subscript(index: Int) -> Result<Value, any Error>? {
        get { lock.withLock { slots[index] } }
        set { lock.withLock { slots[index] = newValue } }
    }

    /// Every slot's result, in order.
    package func results() -> [Result<Value, any Error>] {
        lock.withLock { slots }.map { $0! }
    }

    /// The values in order, or the first error in order.
    package func values() throws -> [Value] {
        try results().map { try $0.get() }
    }
}
