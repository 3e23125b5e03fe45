/// Rows of fields from delimited text, each with the line it starts on.
public enum DelimitedText {
  public struct Row: Sendable, Equatable {
    public var line: Int
    public var fields: [String]
    /// The line it ends on, when a quoted field runs over several.
    public var lastLine: Int? = nil
  }

  /// Star-separated lines: every `*` separates a field, nothing is quoted. Blank lines are
  /// left out; a trailing `\r` is dropped.
  public static func starRows(_ text: String) -> [Row] {
    var rows: [Row] = []
    var number = 0
    for line in text.utf8.split(separator: UInt8(ascii: "\n"), omittingEmptySubsequences: false) {
      number += 1
      var bytes = line[...]
      if bytes.last == UInt8(ascii: "\r") { bytes = bytes.dropLast() }
      if bytes.allSatisfy({ $0 == 0x20 || $0 == 0x09 }) { continue }
      let fields = bytes.split(separator: UInt8(ascii: "*"), omittingEmptySubsequences: false).map {
        String(decoding: $0, as: UTF8.self)
      }
      rows.append(Row(line: number, fields: fields))
    }
    return rows
  }

  /// RFC 4180 CSV: fields separated by commas; a field that starts with a double quote
  /// (after any blanks) may hold commas, line breaks (CRLF kept as LF) and doubled quotes
  /// (`""`). A quote anywhere else is an ordinary character (`6'2" tall`), as Python's
  /// `csv` reads it. Rows end at CRLF, LF or a lone CR at the very end; blank lines are
  /// left out. A quoted field left open at the end of the text ends there (its row keeps the
  /// line it started on). Text after a closing quote is kept as it is (`"a"b` is `ab`).
  public static func csvRows(_ text: String) -> [Row] {
    let bytes = Array(text.utf8)
    var rows: [Row] = []
    var fields: [String] = []
    var field: [UInt8] = []
    var line = 1
    var rowLine = 1
    var inQuotes = false
    var rowHasContent = false
    var i = 0
    func isSpecial(_ b: UInt8) -> Bool { b == UInt8(ascii: ",") || b == UInt8(ascii: "\"") || b == 0x0A || b == 0x0D }
    func endField() {
      fields.append(String(decoding: field, as: UTF8.self))
      field.removeAll(keepingCapacity: true)
    }
    func endRow() {
      endField()
      if rowHasContent || fields.count > 1 {
        rows.append(Row(line: rowLine, fields: fields, lastLine: line > rowLine ? line : nil))
      }
      fields.removeAll(keepingCapacity: true)
      rowHasContent = false
    }
    while i < bytes.count {
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
    if rowHasContent || !field.isEmpty || !fields.isEmpty { endRow() }
    return rows
  }
}
