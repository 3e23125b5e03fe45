import CSQLite

/// One prepared SQL statement: bind its parameters, step through its rows, read typed columns.
///
/// Used by one thread at a time, like its connection. `bind` starts it over (a cached
/// statement is used again and again); the helpers that run it to its end (`run`, `all`,
/// `first`) reset it afterwards, so that a read never holds its snapshot open.
public final class Statement {
  let handle: OpaquePointer
  public let sql: String

  init(connection: OpaquePointer, sql: String, persistent: Bool) throws(SQLiteError) {
    var handle: OpaquePointer?
    let flags = persistent ? UInt32(SQLITE_PREPARE_PERSISTENT) : 0
    // The tail points into the C string given to SQLite: read it while that string lives
    // (the one Swift makes for a call lasts only as long as the call).
    let (code, rest) = sql.withCString { text -> (Int32, String) in
      var tail: UnsafePointer<CChar>?
      let code = sqlite3_prepare_v3(connection, text, -1, flags, &handle, &tail)
      return (code, tail.map { String(cString: $0) } ?? "")
    }
    guard code == SQLITE_OK else {
      sqlite3_finalize(handle)
      throw SQLiteError.last(connection, code: code, sql: sql)
    }
    // One statement: anything but spaces and semicolons after it would be quietly ignored.
    if !rest.allSatisfy({ $0 == ";" || $0.isWhitespace }) {
      sqlite3_finalize(handle)
      throw SQLiteError(code: .misuse, message: "more than one statement (use execute for a script)", sql: sql)
    }
    guard let handle else {
      throw SQLiteError(code: .misuse, message: "no statement", sql: sql)
    }
    self.handle = handle
    self.sql = sql
  }

  deinit { sqlite3_finalize(handle) }

  var connection: OpaquePointer { sqlite3_db_handle(handle) }

  /// Starts the statement over and binds `values` to its parameters, in order; there must be
  /// as many values as parameters.
  public func bind<each V: SQLiteValue>(_ values: repeat each V) throws(SQLiteError) {
    sqlite3_reset(handle)
    sqlite3_clear_bindings(handle)
    var count: Int32 = 0
    for _ in repeat each values { count += 1 }
    let expected = sqlite3_bind_parameter_count(handle)
    guard count == expected else {
      throw SQLiteError(code: .range, message: "\(count) values for \(expected) parameters", sql: sql)
    }
    var index: Int32 = 0
    for value in repeat each values {
      index += 1
      let code = value.bind(to: handle, at: index)
      guard code == SQLITE_OK else { throw SQLiteError.last(connection, code: code, sql: sql) }
    }
  }

  /// Binds one value to parameter `index` (from 1), leaving the others as they are.
  public func bind(_ value: some SQLiteValue, at index: Int) throws(SQLiteError) {
    let code = value.bind(to: handle, at: Int32(index))
    guard code == SQLITE_OK else { throw SQLiteError.last(connection, code: code, sql: sql) }
  }

  /// Runs the statement to its next row: true when it stands on one, false when it is done.
  /// An error resets it.
  public func step() throws(SQLiteError) -> Bool {
    switch sqlite3_step(handle) {
    case SQLITE_ROW: return true
    case SQLITE_DONE: return false
    case let code:
      let error = SQLiteError.last(connection, code: code, sql: sql)
      sqlite3_reset(handle)
      throw error
    }
  }

  /// Ends the current run (releasing what it holds, such as a read snapshot); the bindings stay.
  public func reset() { sqlite3_reset(handle) }

  /// Runs the statement to its end, ignoring any rows.
  public func run() throws(SQLiteError) {
    defer { sqlite3_reset(handle) }
    while try step() {}
  }

  /// Every row, made into values by `row`.
  public func all<T>(_ row: (Row) throws(SQLiteError) -> T) throws(SQLiteError) -> [T] {
    defer { sqlite3_reset(handle) }
    var rows: [T] = []
    while try step() { rows.append(try row(Row(statement: self))) }
    return rows
  }

  /// Gives each row to `body` as it is read, until `body` returns false or the rows end; then
  /// resets. An error met part-way is thrown after the rows before it were given (so that
  /// what could be read of a damaged table is not lost with the rest).
  public func forEachRow(_ body: (Row) throws(SQLiteError) -> Bool) throws(SQLiteError) {
    defer { sqlite3_reset(handle) }
    while try step() {
      guard try body(Row(statement: self)) else { return }
    }
  }

  /// The first row, made into a value by `row`; nil when there is none.
  public func first<T>(_ row: (Row) throws(SQLiteError) -> T) throws(SQLiteError) -> T? {
    defer { sqlite3_reset(handle) }
    return try step() ? try row(Row(statement: self)) : nil
  }

  /// How many columns a row has, and their names.
  public var columnCount: Int { Int(sqlite3_column_count(handle)) }
  public func columnName(_ column: Int) -> String {
    sqlite3_column_name(handle, Int32(column)).map { String(cString: $0) } ?? ""
  }
}

/// The row a statement stands on: typed reads of its columns, by index from 0.
///
/// Valid only until the statement steps again (it is not kept: map it into values).
public struct Row {
  let statement: Statement

  /// Column `column`, as `T`. NULL is an error unless `T` takes it (an optional).
  public subscript<T: SQLiteValue>(_ column: Int) -> T {
    get throws(SQLiteError) {
      guard column >= 0, column < statement.columnCount else {
        throw SQLiteError(
          code: .range, message: "no column \(column) in a row of \(statement.columnCount)", sql: statement.sql)
      }
      let index = Int32(column)
      if sqlite3_column_type(statement.handle, index) == SQLITE_NULL {
        guard let null = T.readFromNull else {
          throw SQLiteError(
            code: .mismatch, message: "column \(column) (\(statement.columnName(column))) is NULL", sql: statement.sql)
        }
        return null
      }
      return T.column(of: statement.handle, at: index)
    }
  }

  /// Whether column `column` is NULL.
  public func isNull(_ column: Int) -> Bool { sqlite3_column_type(statement.handle, Int32(column)) == SQLITE_NULL }

  /// Column `column` as text the way `sqlite3` prints it (NULL as nothing), for dumps and tests.
  public func text(_ column: Int) -> String {
    isNull(column) ? "" : String.column(of: statement.handle, at: Int32(column))
  }

  public var count: Int { statement.columnCount }
}
