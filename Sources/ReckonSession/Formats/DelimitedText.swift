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
    var text = text
    text.makeContiguousUTF8()
    return text.utf8.withContiguousStorageIfAvailable { starRows($0, limits: limits) }!
  }

  static func starRows(_ all: UnsafeBufferPointer<UInt8>, limits: Limits) -> Result<[Row], TooManyFields> {
    let (star, newline) = (UInt8(ascii: "*"), UInt8(ascii: "\n"))
    var rows: [Row] = []
    var kept = 0
    var number = 0
    var start = 0
    // Line by line without cutting the whole text into lines first (an array of 20 million
    // empty lines was 640 MB).
    while start < all.count || number == 0 {
      var end = start
      while end < all.count && all[end] != newline { end += 1 }
      number += 1
      var last = end
      if last > start && all[last - 1] == UInt8(ascii: "\r") { last -= 1 }
      let next = end + 1
      defer { start = next }
      if all[start..<last].allSatisfy({ $0 == 0x20 || $0 == 0x09 }) {
        if end == all.count { break }
        continue
      }
      var row = Row(line: number, fields: [])
      var fieldStart = start
      for index in start...last where index == last || all[index] == star {
        if row.fields.count < limits.fieldsPerRow {
          row.fields.append(String(decoding: UnsafeBufferPointer(rebasing: all[fieldStart..<index]), as: UTF8.self))
        } else {
          row.dropped += 1
        }
        fieldStart = index + 1
      }
      kept += row.fields.count
      if kept > limits.fields { return .failure(TooManyFields(line: number)) }
      rows.append(row)
      if end == all.count { break }
    }
    return .success(rows)
  }

  /// RFC 4180 CSV: fields separated by commas; a field that starts with a double quote
  /// (after any blanks) may hold commas, line breaks (CRLF kept as LF) and doubled quotes
  /// (`""`). A quote anywhere else is an ordinary character (`6'2" tall`), as Python's
  /// `csv` reads it. Rows end at CRLF, LF or a lone CR at the very end; blank lines are
  /// left out. A quoted field left open at the end of the text ends there (its row keeps the
  /// line it started on). Text after a closing quote is kept as it is (`"a"b` is `ab`).
  public static func csvRows(_ text: String, limits: Limits = .none) -> Result<[Row], TooManyFields> {
    let bytes = Array(text.utf8)
    var rows: [Row] = []
    var fields: [String] = []
    var dropped = 0
    var kept = 0
    var tooMany: Int?  // the line of the row that passed `limits.fields`
    var field: [UInt8] = []
    var line = 1
    var rowLine = 1
    var inQuotes = false
    var rowHasContent = false
    var i = 0
    func isSpecial(_ b: UInt8) -> Bool { b == UInt8(ascii: ",") || b == UInt8(ascii: "\"") || b == 0x0A || b == 0x0D }
    func endField() {
      if fields.count < limits.fieldsPerRow {
        fields.append(String(decoding: field, as: UTF8.self))
      } else {
        dropped += 1
      }
      field.removeAll(keepingCapacity: true)
    }
    func endRow() {
      endField()
      if rowHasContent || fields.count + dropped > 1 {
        kept += fields.count
        if kept > limits.fields { tooMany = rowLine }
        rows.append(Row(line: rowLine, fields: fields, lastLine: line > rowLine ? line : nil, dropped: dropped))
      }
      fields.removeAll(keepingCapacity: true)
      dropped = 0
      rowHasContent = false
    }
    while i < bytes.count && tooMany == nil {
      let b = bytes[i]
      if inQuotes {
        if b == UInt8(ascii: "\"") {
          if i + 1 < bytes.count && bytes[i + 1] == UInt8(ascii: "\"") {
            field.append(b)
            i += 2
            continue
          }
          inQuotes = false
        } else if b == 0x0D && i + 1 < bytes.count && bytes[i + 1] == 0x0A {
          // CRLF inside a field (a spreadsheet's line break in a cell) is a plain LF.
        } else if b == 0x0A {
          line += 1
          field.append(b)
        } else {
          // A run of ordinary bytes at once, up to the next quote or line break.
          var j = i
          repeat {
            j += 1
          } while j < bytes.count && bytes[j] != UInt8(ascii: "\"") && bytes[j] != 0x0D && bytes[j] != 0x0A
          field.append(contentsOf: bytes[i..<j])
          i = j
          continue
        }
        i += 1
        continue
      }
      switch b {
      case UInt8(ascii: "\"") where field.allSatisfy({ $0 == 0x20 || $0 == 0x09 }):
        field.removeAll(keepingCapacity: true)
        inQuotes = true
        rowHasContent = true
      case UInt8(ascii: ","):
        endField()
        rowHasContent = true
      case 0x0D where i + 1 < bytes.count && bytes[i + 1] == 0x0A:
        break  // the LF ends the row
      case 0x0D where i + 1 == bytes.count:
        break  // a last line ending in CR alone
      case 0x0A:
        endRow()
        line += 1
        rowLine = line
      default:
        // A run of ordinary bytes at once (at least this one), up to the next separator,
        // quote or line break.
        var j = i
        repeat { j += 1 } while j < bytes.count && !isSpecial(bytes[j])
        if !rowHasContent && bytes[i..<j].contains(where: { $0 != 0x20 && $0 != 0x09 }) { rowHasContent = true }
        field.append(contentsOf: bytes[i..<j])
        i = j
        continue
      }
      i += 1
    }
    if tooMany == nil && (rowHasContent || !field.isEmpty || !fields.isEmpty || dropped > 0) { endRow() }
    return tooMany.map { .failure(TooManyFields(line: $0)) } ?? .success(rows)
  }
}
