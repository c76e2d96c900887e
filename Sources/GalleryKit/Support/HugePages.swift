import Foundation

/// Advice to Linux to back a large buffer with 2 MiB pages ("transparent huge pages", which
/// Debian leaves to programs' advice) instead of 4 KiB ones.
///
/// Memory is handed over a page at a time, at its first touch: filling a 27 MB manifest and the
/// image arrays of 100,000 images took about 20,000 page faults, a fifth of opening such a
/// gallery. A 2 MiB page needs one.
enum HugePages {
    static let size = 2 << 20

    /// Advises the whole 2 MiB pages within `count` bytes from `start`, memory the caller owns
    /// (allocated, touched or not). A hint only: where it is not taken, nothing changes.
    static func advise(_ start: UnsafeRawPointer, count: Int) {
        #if os(Linux)
            let first = (UInt(bitPattern: start) + UInt(size - 1)) & ~UInt(size - 1)
            let end = (UInt(bitPattern: start) + UInt(count)) & ~UInt(size - 1)
            guard end > first, let address = UnsafeMutableRawPointer(bitPattern: first) else { return }
            _ = madvise(address, Int(end - first), MADV_HUGEPAGE)
        #endif
    }

    /// `count` bytes of new memory in a mapping of their own, advised as huge pages. The advice
    /// ends with the mapping (`deallocate`); on heap memory it would outlive `free` and apply to
    /// whatever is allocated there next. Nil if the memory cannot be had.
    static func allocate(count: Int) -> UnsafeMutableRawPointer? {
        #if os(Linux)
            guard let memory = mmap(nil, count, PROT_READ | PROT_WRITE, MAP_PRIVATE | MAP_ANONYMOUS, -1, 0),
                memory != UnsafeMutableRawPointer(bitPattern: -1)
            else { return nil }
            advise(memory, count: count)
            return memory
        #else
            return malloc(count)
        #endif
    }

    /// Gives back memory from `allocate(count:)`, with the same `count`.
    static func deallocate(_ memory: UnsafeMutableRawPointer, count: Int) {
        #if os(Linux)
            munmap(memory, count)
        #else
            free(memory)
        #endif
    }

    /// Advises the capacity of `array`, which holds at least one element: the storage past its
    /// elements is the array's own, reserved for those to come.
    static func advise<Element>(capacityOf array: inout [Element]) {
        let bytes = array.capacity * MemoryLayout<Element>.stride
        guard bytes >= size else { return }
        array.withUnsafeBufferPointer { elements in
            guard let base = elements.baseAddress else { return }
            advise(UnsafeRawPointer(base), count: bytes)
        }
    }
}
