/// Rows of fields from delimited text, each with the line it starts on.
///
/// What is kept is bounded (`Limits`): a row's fields past a number are counted, not made
/// into strings (a line of 20 million `*` is one row with too many columns, not 20 million
/// strings: it took 1.1 GB), and past a number of fields in all the reading stops
/// (`TooManyFields`), so a file of 10 million short lines is refused rather than held.
public enum DelimitedText {
  public struct Row: Sendable, Equatable {
    public var line: Int
    /// The row's fields, at most `Limits.fieldsPerRow` of them.
    public var fields: [String]
    /// The line it ends on, when a quoted field runs over several.
    public var lastLine: Int? = nil
    /// Fields past `Limits.fieldsPerRow`, counted and not kept.
    public var dropped = 0
    /// The row was longer than a row may be: its fields were not kept.
    public var tooLong = false

    /// The same row, too long to read.
    func markedTooLong() -> Row {
      var row = self
      row.tooLong = true
      return row
    }

    /// How many fields the row has, kept or not.
    public var fieldCount: Int { fields.count + dropped }
  }

  /// How much of a text is kept.
  public struct Limits: Sendable {
    /// Fields kept in one row; the rest are only counted.
    public var fieldsPerRow: Int
    /// Fields kept in all: past this, reading stops.
    public var fields: Int

    public init(fieldsPerRow: Int, fields: Int) {
      self.fieldsPerRow = fieldsPerRow
      self.fields = fields
    }

    public static let none = Limits(fieldsPerRow: .max, fields: .max)
  }

  /// The text has more fields than `Limits.fields`: reading stopped at `line`.
  public struct TooManyFields: Error, Sendable, Equatable {
    public var line: Int
  }

  /// Star-separated lines: every `*` separates a field, nothing is quoted. Blank lines are
  /// left out; a trailing `\r` is dropped.
  public static func starRows(_ text: String, limits: Limits = .none) -> Result<[Row], TooManyFields> {
    var lines = TextLines(bytes: Array(text.utf8), lineLimit: .max - 1)
    var star = StarRows(limits: limits)
    var rows: [Row] = []
    do throws(TooManyFields) {
      while case .text(let line)? = try? lines.next() {
        if let row = try star.row(line, number: lines.number) { rows.append(row) }
      }
    } catch {
      return .failure(error)
    }
    return .success(rows)
  }

  /// RFC 4180 CSV: fields separated by commas; a field that starts with a double quote
  /// (after any blanks) may hold commas, line breaks (CRLF kept as LF) and doubled quotes
  /// (`""`). A quote anywhere else is an ordinary character (`6'2" tall`), as Python's
  /// `csv` reads it. Rows end at CRLF, LF or a lone CR at the very end; blank lines are
  /// left out. A quoted field left open at the end of the text ends there (its row keeps the
  /// line it started on). Text after a closing quote is kept as it is (`"a"b` is `ab`).
  public static func csvRows(_ text: String, limits: Limits = .none, separator: UInt8 = UInt8(ascii: ","))
    -> Result<[Row], TooManyFields>
  {
    csvRows(text, limits: limits, separator: separator, comments: false).map(\.rows)
  }

  /// The same, and with `comments`, a line that starts with `#` outside a quoted field is a
  /// comment (as Anki reads its text files): left out of the rows and given with its line.
  public static func csvRows(_ text: String, limits: Limits = .none, separator: UInt8, comments: Bool)
    -> Result<(rows: [Row], comments: [(line: Int, text: String)]), TooManyFields>
  {
    var lines = TextLines(bytes: Array(text.utf8), lineLimit: .max - 1)
    var csv = CSVRows(limits: limits, rowLimit: .max, separator: separator)
    var rows: [Row] = []
    var found: [(line: Int, text: String)] = []
    do throws(TooManyFields) {
      while case .text(let line)? = try? lines.next() {
        if comments, !csv.inQuotes, line.first == UInt8(ascii: "#") {
          found.append((lines.number, String(decoding: line, as: UTF8.self)))
          continue
        }
        if let row = try csv.row(after: line, number: lines.number) { rows.append(row) }
      }
      if let row = try csv.finish() { rows.append(row) }
    } catch {
      return .failure(error)
    }
    return .success((rows, found))
  }

  /// Star-separated rows, read a line at a time.
  public struct StarRows {
    let limits: Limits
    /// Fields kept so far, in all rows.
    var kept = 0

    public init(limits: Limits) { self.limits = limits }

    /// The row of one line (nil for a blank line), or the line at which the file passed
    /// `limits.fields`.
    public mutating func row(_ line: ArraySlice<UInt8>, number: Int) throws(TooManyFields) -> Row? {
      if line.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { return nil }
      var row = Row(line: number, fields: [])
      var fieldStart = line.startIndex
      for index in line.startIndex...line.endIndex where index == line.endIndex || line[index] == UInt8(ascii: "*") {
        if row.fields.count < limits.fieldsPerRow {
          row.fields.append(String(decoding: line[fieldStart..<index], as: UTF8.self))
        } else {
          row.dropped += 1
        }
        fieldStart = index + 1
      }
      kept += row.fields.count
      if kept > limits.fields { throw TooManyFields(line: number) }
      return row
    }
  }

  /// CSV rows, read a line at a time: a row ends at the end of a line that is not inside a
  /// quoted field. What a row keeps is bounded: past `rowLimit` bytes its fields are no longer
  /// kept (only its quotes are followed, to find where it ends), and it is given as
  /// `tooLong`.
  public struct CSVRows {
    let limits: Limits
    let rowLimit: Int
    /// What separates fields: a comma, or another byte (a tab in Anki's text export).
    let separator: UInt8
    var kept = 0
    var fields: [String] = []
    var field: [UInt8] = []
    var dropped = 0
    var inQuotes = false
    var rowHasContent = false
    var rowLine = 0
    var rowBytes = 0
    var tooLong = false
    var line = 0

    public init(limits: Limits, rowLimit: Int, separator: UInt8 = UInt8(ascii: ",")) {
      self.limits = limits
      self.rowLimit = rowLimit
      self.separator = separator
    }

    /// Takes a line; returns the row it ends, if it ends one (not a blank line, nor a line
    /// that ends inside a quoted field).
    public mutating func row(after bytes: ArraySlice<UInt8>, number: Int) throws(TooManyFields) -> Row? {
      line = number
      if !inQuotes { rowLine = number }
      var i = bytes.startIndex
      func keep(_ run: ArraySlice<UInt8>) {
        guard !tooLong else { return }
        rowBytes += run.count
        if rowBytes > rowLimit {
          tooLong = true
          (fields, field) = ([], [])
        } else {
          field.append(contentsOf: run)
        }
      }
      while i < bytes.endIndex {
        let b = bytes[i]
        if inQuotes {
          if b == UInt8(ascii: "\"") {
            if i + 1 < bytes.endIndex && bytes[i + 1] == UInt8(ascii: "\"") {
              keep(bytes[i..<i + 1])
              i += 2
              continue
            }
            inQuotes = false
            i += 1
            continue
          }
          // A run of ordinary bytes at once, up to the next quote.
          let j = bytes[i...].firstIndex(of: UInt8(ascii: "\"")) ?? bytes.endIndex
          keep(bytes[i..<j])
          i = j
          continue
        }
        switch b {
        case UInt8(ascii: "\"") where field.allSatisfy({ $0 == 0x20 || $0 == 0x09 }):
          field.removeAll(keepingCapacity: true)
          inQuotes = true
          rowHasContent = true
          i += 1
        case separator:
          endField()
          rowHasContent = true
          i += 1
        default:
          // A run of ordinary bytes at once (at least this one), up to the next separator or quote.
          var j = i
          repeat { j += 1 } while j < bytes.endIndex && bytes[j] != separator && bytes[j] != UInt8(ascii: "\"")
          if !rowHasContent && bytes[i..<j].contains(where: { $0 != 0x20 && $0 != 0x09 }) { rowHasContent = true }
          keep(bytes[i..<j])
          i = j
        }
      }
      if inQuotes {
        keep([0x0A])  // the line break inside a quoted field
        return nil
      }
      return try endRow()
    }

    /// A line too long to read, which ends the row it is part of (given as `tooLong`): the
    /// quotes in it are not known, so the next line starts a new row.
    public mutating func rowOfLineTooLong(number: Int) throws(TooManyFields) -> Row {
      if !inQuotes { rowLine = number }
      line = number
      inQuotes = false
      tooLong = true
      rowHasContent = true
      return try endRow()!
    }

    /// The row left open at the end of the text (a quoted field never closed), if any.
    public mutating func finish() throws(TooManyFields) -> Row? {
      guard inQuotes else { return nil }
      inQuotes = false
      if !tooLong && field.last == 0x0A {
        field.removeLast()  // the line break after the last line, which the text did not have
      }
      return try endRow()
    }

    private mutating func endField() {
      if tooLong { return }
      if fields.count < limits.fieldsPerRow {
        fields.append(String(decoding: field, as: UTF8.self))
      } else {
        dropped += 1
      }
      field.removeAll(keepingCapacity: true)
    }

    private mutating func endRow() throws(TooManyFields) -> Row? {
      endField()
      defer {
        fields.removeAll(keepingCapacity: true)
        field.removeAll(keepingCapacity: true)
        (dropped, rowHasContent, rowBytes, tooLong) = (0, false, 0, false)
      }
      guard rowHasContent || fields.count + dropped > 1 else { return nil }
      kept += fields.count
      if kept > limits.fields { throw TooManyFields(line: rowLine) }
      var row = Row(
        line: rowLine, fields: tooLong ? [] : fields, lastLine: line > rowLine ? line : nil, dropped: dropped)
      row.tooLong = tooLong
      return row
    }
  }
}
