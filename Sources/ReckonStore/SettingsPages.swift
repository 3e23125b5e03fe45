import ReckonSession
import SQLite

extension SQLiteStore {
  /// A profile's settings read from the database file's pages without SQLite, with the page
  /// reader the salvage uses (`DatabaseFile`, `BTreePage`): the `setting` table's b-tree,
  /// found from `sqlite_master`, walked from its root. Opening SQLite and reading the schema
  /// (every table's `CREATE` parsed) cost start-up a third of a millisecond; this reads three
  /// pages.
  ///
  /// Only for the case `quickSettings` reads as `immutable` (no -wal, or an empty one: every
  /// change is in the file), and only while everything is as Reckon writes it: a valid
  /// header, one `setting` table created as `Schema.settingTable` says, every page on the way
  /// a table b-tree page that holds together, every row three texts kept in its page (none
  /// long enough to need overflow pages). Anything else gives nil, and SQLite reads the file.
  static func settingsFromPages(path: String, profile: String) -> SavedSettings? {
    guard let file = DatabaseFile(path: path), file.headerIsValid, let schema = tableRecords(file, root: 1) else {
      return nil
    }
    var root: Int?
    for row in schema {
      guard row.count == 5, case .text(let type) = row[0], case .text(let name) = row[1] else { return nil }
      guard type.elementsEqual("table".utf8), name.elementsEqual("setting".utf8) else { continue }
      guard root == nil, case .integer(let page) = row[3], case .text(let sql) = row[4],
        sql.elementsEqual(Schema.settingTable.utf8)
      else { return nil }
      root = Int(page)
    }
    guard let root, let rows = tableRecords(file, root: root) else { return nil }
    var settings: SavedSettings = [:]
    for row in rows {
      guard row.count == 3, case .text(let owner) = row[0], case .text(let key) = row[1], case .text(let value) = row[2]
      else { return nil }
      if owner.elementsEqual(profile.utf8) {
        settings[String(decoding: key, as: UTF8.self)] = String(decoding: value, as: UTF8.self)
      }
    }
    return settings
  }

  /// The records of the table b-tree at `root`, in rowid order; nil when a page on the way is
  /// not a table b-tree page whose cells all hold together, the walk meets more pages than the
  /// file has (a cycle), or a record is longer than its page keeps.
  static func tableRecords(_ file: DatabaseFile, root: Int) -> [[DatabaseValue]]? {
    var pending = [root]
    var met = 0
    var records: [[DatabaseValue]] = []
    while let number = pending.popLast() {
      met += 1
      guard met <= file.pageCount, number >= 1, number <= file.pageCount, number != 1 || met == 1,
        number != file.partialPage, let bytes = file.page(number),
        let page = BTreePage(bytes, number: number, usableSize: file.usableSize), page.kind.isTable,
        page.lostCells == 0
      else { return nil }
      if page.kind == .tableInterior {
        // Children pushed right to left, so that they are read left to right.
        pending.append(page.rightChild)
        for index in page.cells.indices.reversed() {
          guard let (child, _) = page.tableInteriorCell(index) else { return nil }
          pending.append(child)
        }
        continue
      }
      for index in page.cells.indices {
        guard let payload = page.payload(index), payload.overflow == 0, payload.local == payload.size,
          let record = DatabaseFile.record(Array(page.bytes[payload.start..<(payload.start + payload.local)]))
        else { return nil }
        records.append(record)
      }
    }
    return records
  }
}
