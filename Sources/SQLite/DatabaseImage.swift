import CSQLite

/// A whole database file held in memory that SQLite allocated, for `Database.reading(_:)`,
/// which gives it to SQLite to read where it is: a collection inflated from an Anki package
/// is never copied (a 250 MiB one took 520 MB when it was copied twice).
///
/// C code that fills one allocates with `reallocate` and frees with `release`; the image owns
/// its memory until `Database.reading` takes it, and frees it if nothing does.
public final class DatabaseImage {
  public private(set) var base: UnsafeMutableRawPointer?
  public private(set) var count: Int

  /// SQLite's allocator: `reallocate(nil, n)` allocates n bytes, `reallocate(p, n)` makes p n
  /// bytes long (nil when there is no room, p as it was).
  public static let reallocate: @convention(c) (UnsafeMutableRawPointer?, Int) -> UnsafeMutableRawPointer? = {
    sqlite3_realloc64($0, UInt64($1))
  }
  /// Frees what `reallocate` gave.
  public static let release: @convention(c) (UnsafeMutableRawPointer?) -> Void = { sqlite3_free($0) }

  /// Takes `base`, of `count` bytes, which `reallocate` allocated.
  public init(adopting base: UnsafeMutableRawPointer?, count: Int) {
    self.base = base
    self.count = count
  }

  /// A copy of `bytes`; nil when there is no room for one.
  public convenience init?(copying bytes: UnsafeRawBufferPointer) {
    guard let base = sqlite3_malloc64(UInt64(max(bytes.count, 1))) else { return nil }
    if let from = bytes.baseAddress { base.copyMemory(from: from, byteCount: bytes.count) }
    self.init(adopting: base, count: bytes.count)
  }

  /// The bytes, while the image has them.
  public var bytes: UnsafeRawBufferPointer { UnsafeRawBufferPointer(start: base, count: base == nil ? 0 : count) }

  /// The memory, which the caller now owns (the image is empty).
  func take() -> (base: UnsafeMutableRawPointer?, count: Int) {
    defer {
      base = nil
      count = 0
    }
    return (base, count)
  }

  deinit { sqlite3_free(base) }
}
