import CSQLite

/// A Swift type that is bound to a statement's parameters and read from its columns.
///
/// `Int64`, `Int`, `Int32`, `Bool` (0 or 1), `Double`, `String` (UTF-8 text), `TextBytes`
/// (text as the bytes it is), `Blob` and `DatabaseValue` (any of SQLite's types) are; an
/// `Optional` of any of them binds `nil` as NULL and reads NULL as `nil`; `Null` is NULL.
/// Reading NULL into a type that is not optional is an error (`SQLITE_MISMATCH`), never a
/// quiet 0 or empty string. Otherwise SQLite's own conversions apply (text read as a number
/// is what `sqlite3_column_int64` makes of it).
public protocol SQLiteValue {
  /// Binds the value to parameter `index` (from 1) of `statement`; returns SQLite's code.
  func bind(to statement: OpaquePointer, at index: Int32) -> Int32
  /// Reads column `column` (from 0) of the row `statement` stands on, known not to be NULL.
  static func column(of statement: OpaquePointer, at column: Int32) -> Self
  /// Whether NULL reads as a value of this type (only `Optional`, `Null` and `DatabaseValue`).
  static var acceptsNull: Bool { get }
  /// The value NULL reads as, when `acceptsNull`.
  static var readFromNull: Self? { get }
}

extension SQLiteValue {
  public static var acceptsNull: Bool { false }
  public static var readFromNull: Self? { nil }
}

extension Int64: SQLiteValue {
  public func bind(to statement: OpaquePointer, at index: Int32) -> Int32 {
    sqlite3_bind_int64(statement, index, self)
  }
  public static func column(of statement: OpaquePointer, at column: Int32) -> Int64 {
    sqlite3_column_int64(statement, column)
  }
}

extension Int: SQLiteValue {
  public func bind(to statement: OpaquePointer, at index: Int32) -> Int32 {
    sqlite3_bind_int64(statement, index, Int64(self))
  }
  public static func column(of statement: OpaquePointer, at column: Int32) -> Int {
    Int(sqlite3_column_int64(statement, column))
  }
}

extension Int32: SQLiteValue {
  public func bind(to statement: OpaquePointer, at index: Int32) -> Int32 {
    sqlite3_bind_int(statement, index, self)
  }
  public static func column(of statement: OpaquePointer, at column: Int32) -> Int32 {
    sqlite3_column_int(statement, column)
  }
}

extension Bool: SQLiteValue {
  public func bind(to statement: OpaquePointer, at index: Int32) -> Int32 {
    sqlite3_bind_int(statement, index, self ? 1 : 0)
  }
  public static func column(of statement: OpaquePointer, at column: Int32) -> Bool {
    sqlite3_column_int64(statement, column) != 0
  }
}

extension Double: SQLiteValue {
  public func bind(to statement: OpaquePointer, at index: Int32) -> Int32 {
    sqlite3_bind_double(statement, index, self)
  }
  public static func column(of statement: OpaquePointer, at column: Int32) -> Double {
    sqlite3_column_double(statement, column)
  }
}

extension String: SQLiteValue {
  public func bind(to statement: OpaquePointer, at index: Int32) -> Int32 {
    var text = self
    return text.withUTF8 { bytes in
      // An empty buffer may have no address, and a NULL pointer would bind NULL: "" is text.
      guard let start = bytes.baseAddress, bytes.count > 0 else {
        return sqlite3_bind_text(statement, index, "", 0, nil)
      }
      return start.withMemoryRebound(to: CChar.self, capacity: bytes.count) {
        sqlite3_bind_text64(statement, index, $0, UInt64(bytes.count), reckon_sqlite_transient(), UInt8(SQLITE_UTF8))
      }
    }
  }
  public static func column(of statement: OpaquePointer, at column: Int32) -> String {
    // sqlite3_column_text before sqlite3_column_bytes: the count is then of the UTF-8 text.
    guard let text = sqlite3_column_text(statement, column) else { return "" }
    let count = Int(sqlite3_column_bytes(statement, column))
    return String(decoding: UnsafeBufferPointer(start: text, count: count), as: UTF8.self)
  }
}

extension Optional: SQLiteValue where Wrapped: SQLiteValue {
  public func bind(to statement: OpaquePointer, at index: Int32) -> Int32 {
    switch self {
    case .some(let value): value.bind(to: statement, at: index)
    case .none: sqlite3_bind_null(statement, index)
    }
  }
  public static func column(of statement: OpaquePointer, at column: Int32) -> Wrapped? {
    Wrapped.column(of: statement, at: column)
  }
  public static var acceptsNull: Bool { true }
  public static var readFromNull: Wrapped?? { .some(nil) }
}

/// SQL's NULL, as a parameter.
public struct Null: SQLiteValue, Sendable, Equatable {
  public init() {}
  public func bind(to statement: OpaquePointer, at index: Int32) -> Int32 { sqlite3_bind_null(statement, index) }
  public static func column(of statement: OpaquePointer, at column: Int32) -> Null { Null() }
  public static var acceptsNull: Bool { true }
  public static var readFromNull: Null? { Null() }
}

/// Text as the bytes it is, unchecked: what a `String` would repair (invalid UTF-8, say) goes
/// in and comes out unchanged, so that a value can be copied byte for byte.
public struct TextBytes: SQLiteValue, Sendable, Equatable {
  public var bytes: [UInt8]
  public init(_ bytes: [UInt8]) { self.bytes = bytes }

  public func bind(to statement: OpaquePointer, at index: Int32) -> Int32 {
    bytes.withUnsafeBufferPointer { buffer in
      guard let start = buffer.baseAddress, buffer.count > 0 else {
        return sqlite3_bind_text(statement, index, "", 0, nil)
      }
      return start.withMemoryRebound(to: CChar.self, capacity: buffer.count) {
        sqlite3_bind_text64(statement, index, $0, UInt64(buffer.count), reckon_sqlite_transient(), UInt8(SQLITE_UTF8))
      }
    }
  }
  public static func column(of statement: OpaquePointer, at column: Int32) -> TextBytes {
    guard let text = sqlite3_column_text(statement, column) else { return TextBytes([]) }
    return TextBytes(Array(UnsafeBufferPointer(start: text, count: Int(sqlite3_column_bytes(statement, column)))))
  }
}

/// A BLOB: bytes that are not text.
public struct Blob: SQLiteValue, Sendable, Equatable {
  public var bytes: [UInt8]
  public init(_ bytes: [UInt8]) { self.bytes = bytes }

  public func bind(to statement: OpaquePointer, at index: Int32) -> Int32 {
    bytes.withUnsafeBytes { buffer in
      // A NULL pointer would bind NULL: an empty blob is zeroblob(0).
      guard let start = buffer.baseAddress, buffer.count > 0 else { return sqlite3_bind_zeroblob(statement, index, 0) }
      return sqlite3_bind_blob64(statement, index, start, UInt64(buffer.count), reckon_sqlite_transient())
    }
  }
  public static func column(of statement: OpaquePointer, at column: Int32) -> Blob {
    // sqlite3_column_blob before sqlite3_column_bytes; an empty blob may give NULL.
    guard let bytes = sqlite3_column_blob(statement, column) else { return Blob([]) }
    let count = Int(sqlite3_column_bytes(statement, column))
    return Blob(Array(UnsafeRawBufferPointer(start: bytes, count: count)))
  }
}

/// A value of any of SQLite's storage classes, as it is stored: read from a column whatever
/// its type, and bound as the same type, so that a row can be copied from one database to
/// another unchanged.
public enum DatabaseValue: SQLiteValue, Sendable, Equatable {
  case null
  case integer(Int64)
  case real(Double)
  /// Text as its bytes (not checked as UTF-8).
  case text([UInt8])
  case blob([UInt8])

  public func bind(to statement: OpaquePointer, at index: Int32) -> Int32 {
    switch self {
    case .null: sqlite3_bind_null(statement, index)
    case .integer(let value): value.bind(to: statement, at: index)
    case .real(let value): value.bind(to: statement, at: index)
    case .text(let bytes): TextBytes(bytes).bind(to: statement, at: index)
    case .blob(let bytes): Blob(bytes).bind(to: statement, at: index)
    }
  }

  public static func column(of statement: OpaquePointer, at column: Int32) -> DatabaseValue {
    switch sqlite3_column_type(statement, column) {
    case SQLITE_INTEGER: .integer(Int64.column(of: statement, at: column))
    case SQLITE_FLOAT: .real(Double.column(of: statement, at: column))
    case SQLITE_TEXT: .text(TextBytes.column(of: statement, at: column).bytes)
    case SQLITE_BLOB: .blob(Blob.column(of: statement, at: column).bytes)
    default: .null
    }
  }

  public static var acceptsNull: Bool { true }
  public static var readFromNull: DatabaseValue? { .null }
}
