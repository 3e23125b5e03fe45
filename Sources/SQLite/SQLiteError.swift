import CSQLite

/// One of SQLite's result codes, extended codes included (`busyRecovery`, 261, is a kind of
/// `busy`, 5): https://www.sqlite.org/rescode.html.
public struct ResultCode: RawRepresentable, Hashable, Sendable, CustomStringConvertible {
  public var rawValue: Int32

  public init(rawValue: Int32) { self.rawValue = rawValue }
  public init(_ rawValue: Int32) { self.rawValue = rawValue }

  /// The primary code, the low eight bits: `SQLITE_BUSY_SNAPSHOT`'s is `SQLITE_BUSY`.
  public var primary: ResultCode { ResultCode(rawValue & 0xff) }

  /// SQLite's English words for it (`database is locked`).
  public var description: String { String(cString: sqlite3_errstr(rawValue)) }

  public static let ok = ResultCode(SQLITE_OK)
  public static let error = ResultCode(SQLITE_ERROR)
  public static let permission = ResultCode(SQLITE_PERM)
  public static let abort = ResultCode(SQLITE_ABORT)
  public static let busy = ResultCode(SQLITE_BUSY)
  public static let locked = ResultCode(SQLITE_LOCKED)
  public static let noMemory = ResultCode(SQLITE_NOMEM)
  public static let readOnly = ResultCode(SQLITE_READONLY)
  public static let interrupt = ResultCode(SQLITE_INTERRUPT)
  public static let ioError = ResultCode(SQLITE_IOERR)
  public static let corrupt = ResultCode(SQLITE_CORRUPT)
  public static let full = ResultCode(SQLITE_FULL)
  public static let cantOpen = ResultCode(SQLITE_CANTOPEN)
  public static let schema = ResultCode(SQLITE_SCHEMA)
  public static let tooBig = ResultCode(SQLITE_TOOBIG)
  public static let constraint = ResultCode(SQLITE_CONSTRAINT)
  public static let mismatch = ResultCode(SQLITE_MISMATCH)
  public static let misuse = ResultCode(SQLITE_MISUSE)
  public static let range = ResultCode(SQLITE_RANGE)
  public static let notADatabase = ResultCode(SQLITE_NOTADB)
  public static let row = ResultCode(SQLITE_ROW)
  public static let done = ResultCode(SQLITE_DONE)
}

/// What SQLite said when something failed: its result code (extended) and its message
/// (`no such table: setting`), with the statement if there was one.
public struct SQLiteError: Error, Sendable, Equatable, CustomStringConvertible {
  public var code: ResultCode
  public var message: String
  /// The SQL being prepared or run, when the error came from a statement.
  public var sql: String?
  /// The operating system's error number behind an I/O error (`EFBIG` when a write passed
  /// the file size limit, `ENOSPC`), or 0.
  public var systemErrno: Int32

  public init(code: ResultCode, message: String, sql: String? = nil, systemErrno: Int32 = 0) {
    self.code = code
    self.message = message
    self.sql = sql
    self.systemErrno = systemErrno
  }

  /// Whether its primary code is `code` (`error.is(.busy)` for every kind of busy).
  public func `is`(_ code: ResultCode) -> Bool { self.code.primary == code.primary }

  public var description: String {
    "\(message) (SQLite \(code.rawValue))" + (sql.map { " in \($0)" } ?? "")
  }

  /// The error a connection reports for `code`, with the connection's own message.
  static func last(_ connection: OpaquePointer?, code: Int32, sql: String? = nil) -> SQLiteError {
    let message = connection.flatMap { sqlite3_errmsg($0) }.map { String(cString: $0) }
    let extended = connection.map { sqlite3_extended_errcode($0) } ?? code
    // The connection's last error is this one unless something else ran since: trust it only
    // when its primary code is the one returned.
    let same = extended & 0xff == code & 0xff
    return SQLiteError(
      code: ResultCode(same ? extended : code),
      message: same ? message ?? ResultCode(code).description : ResultCode(code).description,
      sql: sql, systemErrno: same ? connection.map { sqlite3_system_errno($0) } ?? 0 : 0)
  }
}
