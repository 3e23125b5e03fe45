import Glibc
import ReckonSession
import SQLite

extension SQLiteStore {
  /// A profile's settings read from the database file's pages without SQLite: the `setting`
  /// table's b-tree, found from `sqlite_master` on the first page, walked from its root.
  /// SQLite's first query parses every table's `CREATE` (a third of a millisecond of a
  /// start-up); this reads three pages.
  ///
  /// Only for the case `quickSettings` reads as `immutable` (no -wal, or an empty one: every
  /// change is in the file), and only while everything is as Reckon writes it: a valid
  /// header, one `setting` table created as `Schema.settingTable` says, every page on the way
  /// a table b-tree page whose cells lie inside it, every row three texts kept in its page
  /// (none long enough to need overflow pages). Anything else gives nil, and SQLite reads it.
  static func settingsFromPages(path: String, profile: String) -> SavedSettings? {
    guard let file = SettingsPages(path: path) else { return nil }
    var root: Int?
    let schemaRead = file.eachRecord(root: 1) { (bytes, fields) in
      guard fields.count == 15, SettingsPages.text(bytes, fields, 0, is: "table"),
        SettingsPages.text(bytes, fields, 1, is: "setting")
      else { return fields.count == 15 }
      guard root == nil, let page = SettingsPages.integer(bytes, fields, 3),
        SettingsPages.text(bytes, fields, 4, is: Schema.settingTable)
      else { return false }
      root = Int(page)
      return true
    }
    guard schemaRead, let root else { return nil }
    var settings = SavedSettings()
    let wanted = Array(profile.utf8)
    let read = file.eachRecord(root: root) { (bytes, fields) in
      guard fields.count == 9, (0..<3).allSatisfy({ SettingsPages.isText(fields[3 * $0]) }) else { return false }
      if bytes[fields[1]..<fields[2]].elementsEqual(wanted) {
        settings[String(decoding: bytes[fields[4]..<fields[5]], as: UTF8.self)] = String(
          decoding: bytes[fields[7]..<fields[8]], as: UTF8.self)
      }
      return true
    }
    return read ? settings : nil
  }
}

/// A database file read for one small table (the settings at start-up), page by page as the
/// file format describes it (https://www.sqlite.org/fileformat2.html), with the header checks
/// and record decoding of `DatabaseFile`, the salvage's reader. Lean on purpose: byte arrays
/// and integers only, since every other generic type a start-up meets first costs the Swift
/// runtime some 10,000 instructions to build (`DatabaseFile`'s reading through the WAL, its
/// sets and its `[DatabaseValue]` rows cost this read 0.25 million).
struct SettingsPages {
  let fd: Int32
  let pageSize: Int
  let usableSize: Int
  let pageCount: Int

  /// The file at `path`, when its header is valid and it is a whole number of pages.
  init?(path: String) {
    // Never closed (see KeptOpen): this process may have SQLite connections to the file.
    guard let fd = KeptOpen.descriptor(path) else { return nil }
    var info = stat()
    var header = [UInt8](repeating: 0, count: 100)
    guard fstat(fd, &info) == 0, DatabaseFile.read(fd, into: &header, at: 0) == 100,
      let (pageSize, reserved) = DatabaseFile.validHeader(header), info.st_size > 0,
      Int(info.st_size) % pageSize == 0
    else { return nil }
    self.fd = fd
    self.pageSize = pageSize
    usableSize = pageSize - reserved
    pageCount = Int(info.st_size) / pageSize
  }

  /// Reads page `number` (from 1) into `bytes`; false past the end of the file or when it
  /// cannot be read. (One buffer for every page: each fresh one is a page fault more.)
  func read(_ number: Int, into bytes: inout [UInt8]) -> Bool {
    guard number >= 1, number <= pageCount, bytes.count == pageSize else { return false }
    return DatabaseFile.read(fd, into: &bytes, at: (number - 1) * pageSize) == pageSize
  }

  /// Calls `body` with each record of the table b-tree at `root`, in rowid order: its page's
  /// bytes and its fields as `fields(of:)` gives them. False when a page on the way is not a
  /// table b-tree page whose cells lie inside it, the walk meets more pages than the file has
  /// (a cycle), a record is not whole in its page, or `body` returns false.
  func eachRecord(root: Int, _ body: (_ bytes: [UInt8], _ fields: [Int]) -> Bool) -> Bool {
    var pending = [root]
    var met = 0
    var bytes = [UInt8](repeating: 0, count: pageSize)
    while let number = pending.popLast() {
      met += 1
      guard met <= pageCount, number != 1 || met == 1, read(number, into: &bytes) else { return false }
      let start = number == 1 ? 100 : 0
      let leaf = bytes[start] == 13
      guard leaf || bytes[start] == 5 else { return false }
      let count = Int(bytes[start + 3]) << 8 | Int(bytes[start + 4])
      let pointers = start + (leaf ? 8 : 12)
      guard pointers + 2 * count <= usableSize else { return false }
      var cells: [Int] = []
      for i in 0..<count {
        let offset = Int(bytes[pointers + 2 * i]) << 8 | Int(bytes[pointers + 2 * i + 1])
        guard offset >= pointers + 2 * count, offset + 4 <= usableSize else { return false }
        cells.append(offset)
      }
      if !leaf {
        // Children pushed right to left, so that they are read left to right.
        pending.append(DatabaseFile.int(bytes, start + 8))
        for offset in cells.reversed() { pending.append(DatabaseFile.int(bytes, offset)) }
        continue
      }
      for offset in cells {
        // The payload's size and the rowid; a payload over usableSize - 35 continues on
        // overflow pages (the file format's "X").
        guard let (size, afterSize) = BTreePage.varint(bytes, offset, limit: usableSize),
          let (_, payload) = BTreePage.varint(bytes, afterSize, limit: usableSize), size >= 0,
          size <= usableSize - 35, payload + Int(size) <= usableSize,
          let fields = SettingsPages.fields(of: bytes, payload, Int(size)), body(bytes, fields)
        else { return false }
      }
    }
    return true
  }

  /// A record's fields where they lie: for each, its serial type, start and end, one after the
  /// other (`[type₀, start₀, end₀, type₁, …]`); nil when its header and body do not add up.
  static func fields(of bytes: [UInt8], _ start: Int, _ size: Int) -> [Int]? {
    let end = start + size
    guard let (headerSize, afterSize) = BTreePage.varint(bytes, start, limit: end), headerSize >= 1,
      headerSize <= size
    else { return nil }
    var fields: [Int] = []
    var offset = afterSize
    var at = start + Int(headerSize)
    while offset < start + Int(headerSize) {
      guard let (type, next) = BTreePage.varint(bytes, offset, limit: start + Int(headerSize)),
        let length = DatabaseFile.serialLength(type, limit: size), at + length <= end
      else { return nil }
      fields.append(Int(type))
      fields.append(at)
      fields.append(at + length)
      at += length
      offset = next
    }
    return offset == start + Int(headerSize) && at == end ? fields : nil
  }

  /// Whether a serial type is text's (odd, from 13).
  static func isText(_ type: Int) -> Bool { type >= 13 && type % 2 == 1 }

  /// Whether field `index` is the text `expected`.
  static func text(_ bytes: [UInt8], _ fields: [Int], _ index: Int, is expected: String) -> Bool {
    isText(fields[3 * index]) && bytes[fields[3 * index + 1]..<fields[3 * index + 2]].elementsEqual(expected.utf8)
  }

  /// Field `index` when it is an integer.
  static func integer(_ bytes: [UInt8], _ fields: [Int], _ index: Int) -> Int64? {
    let type = fields[3 * index]
    guard (1...6).contains(type) || type == 8 || type == 9 else { return nil }
    return DatabaseFile.integer(bytes, type: Int64(type), at: fields[3 * index + 1])
  }
}
