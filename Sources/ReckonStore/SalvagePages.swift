import SQLite

/// Rowids the salvage could not read through SQLite: those after `after` and, unless it is
/// nil, before `before`.
struct RowidGap: Equatable, Sendable {
  var after: Int64
  var before: Int64?

  func contains(_ rowid: Int64) -> Bool { rowid > after && before.map { rowid < $0 } ?? true }
}

/// A column of one of Reckon's tables, as the page reader checks a row against it.
struct SalvageColumn: Sendable {
  enum Affinity: Sendable { case integer, text, real, numeric, blob }
  var name: String
  var affinity: Affinity
  var notNull: Bool
  var hasDefault: Bool
  /// The INTEGER PRIMARY KEY, which is the rowid: SQLite stores NULL in the row for it.
  var isRowid: Bool
  /// Its place in the primary key, from 1 (0: not in it).
  var key: Int = 0

  /// SQLite's rules for a column's affinity from its declared type.
  static func affinity(of type: String) -> Affinity {
    let type = type.uppercased()
    if type.holds("INT") { return .integer }
    if type.holds("CHAR") || type.holds("CLOB") || type.holds("TEXT") { return .text }
    if type.isEmpty || type.holds("BLOB") { return .blob }
    if type.holds("REAL") || type.holds("FLOA") || type.holds("DOUB") { return .real }
    return .numeric
  }

  func takes(_ value: DatabaseValue) -> Bool {
    switch value {
    case .null: return isRowid || !notNull
    case .integer, .real: return !isRowid && affinity != .text
    case .text: return !isRowid && (affinity == .text || affinity == .blob)
    case .blob: return !isRowid && affinity == .blob
    }
  }

  /// Whether a row read from a page can be one of a table with these columns: no more values
  /// than columns, each of a type the column holds, and the columns it lacks (added since it
  /// was written) nullable or with a default.
  static func fits(_ values: [DatabaseValue], _ columns: [SalvageColumn]) -> Bool {
    guard !values.isEmpty, values.count <= columns.count else { return false }
    for (index, column) in columns.enumerated() {
      if index < values.count {
        guard column.takes(values[index]) else { return false }
      } else if column.notNull && !column.hasDefault {
        return false
      }
    }
    return true
  }
}

/// The rows SQLite could not reach, read from the file's pages (`DatabaseFile`) and put in the
/// fresh database: the leaves of each table that hold rowids in its gaps, found by walking
/// its b-tree from its root as SQLite does; and, where a page on the way is damaged, the
/// leaves no tree reaches any more (not on the freelist either), each given to the one table
/// whose damaged range holds all its rowids and whose columns fit all its rows.
///
/// Also counts what could not be kept: every table's indexes list its rowids, so those in a
/// gap that are in no row kept were lost.
struct PageSalvage {
  let file: DatabaseFile
  let limits: SalvageLimits
  /// The pages met so far: b-tree pages of every table walked, the freelist, overflow chains.
  /// An interior page met twice is damage (a cycle, or two parents), never read again.
  var reached: Set<Int> = []
  /// The table whose walk reached each leaf first. A leaf two tables reach is given to the
  /// one whose columns fit its rows (a pointer damaged to point at another table's leaf).
  var leafOwners: [Int: String] = [:]
  /// The root page of every table and index in the schema: under another table, one is damage.
  var roots: Set<Int> = []
  /// Cells of the leaves read that did not hold together.
  var rejected = 0

  struct SchemaRow {
    var type: String
    var name: String
    var table: String
    var root: Int
    var sql: String
  }

  /// The rowids under a b-tree page: after `after` (nil: any) and up to `upTo` (nil: any).
  struct Range {
    var page: Int
    var after: Int64?
    var upTo: Int64?

    func holds(_ rowid: Int64) -> Bool {
      (after.map { rowid > $0 } ?? true) && (upTo.map { rowid <= $0 } ?? true)
    }
  }

  struct Tree {
    /// The leaves reached, with the rowids their parents say they hold.
    var leaves: [Range] = []
    /// The subtrees that could not be read (a page that is not a b-tree page of a table, a
    /// page met before, keys out of order), with the rowids their parents say they hold.
    var damaged: [Range] = []
  }

  init(file: DatabaseFile, limits: SalvageLimits) {
    self.file = file
    self.limits = limits
  }

  /// Walks `table`'s b-tree from `root`, depth first (left to right), without reading the
  /// rows: every page is checked, each interior page met once, each leaf once in this tree.
  mutating func walkTable(_ root: Int, of table: String) -> Tree {
    var tree = Tree()
    var stack: [(Range, depth: Int)] = [(Range(page: root, after: nil, upTo: nil), 0)]
    while let (range, depth) = stack.popLast() {
      if limits.stop != nil { break }
      let number = range.page
      let twice = reached.contains(number) && leafOwners[number].map { $0 == table } ?? true
      guard number >= 1, number <= file.pageCount, number != 1 || depth == 0, depth < 64, !twice,
        depth == 0 || !roots.contains(number),
        let bytes = file.page(number),
        let page = BTreePage(bytes, number: number, usableSize: file.usableSize), page.kind.isTable
      else {
        tree.damaged.append(range)
        continue
      }
      if page.kind == .tableLeaf {
        // A leaf whose rowids are not those its parent says (a pointer to another leaf): the
        // damage is here, and the leaf is left to be reached where it belongs.
        if let first = page.cells.indices.first.flatMap(page.payload), let last = page.payload(page.cells.count - 1),
          !range.holds(first.rowid) || !range.holds(last.rowid)
        {
          tree.damaged.append(range)
          continue
        }
        reached.insert(number)
        if leafOwners[number] == nil { leafOwners[number] = table }
        tree.leaves.append(range)
        continue
      }
      guard !reached.contains(number) else {
        tree.damaged.append(range)
        continue
      }
      reached.insert(number)
      var children: [Range] = []
      var after = range.after
      var keysHold = true
      for index in page.cells.indices {
        guard let (child, key) = page.tableInteriorCell(index), after.map({ key > $0 }) ?? true,
          range.upTo.map({ key <= $0 }) ?? true
        else {
          keysHold = false
          break
        }
        children.append(Range(page: child, after: after, upTo: key))
        after = key
      }
      guard keysHold else {
        tree.damaged.append(range)
        continue
      }
      children.append(Range(page: page.rightChild, after: after, upTo: range.upTo))
      stack += children.reversed().map { ($0, depth + 1) }
    }
    return tree
  }

  /// The rows of a table leaf that hold together: each cell inside the page and overlapping no
  /// other, its rowid among those `range` allows and not among those `skipped` gives (asked
  /// once, with every rowid the page holds, before any row is read: those already kept),
  /// its payload whole (overflow pages included) and a record whose sizes add up. Nil for a
  /// page that is not a table leaf.
  mutating func rows(of number: Int, in range: Range?, skipping skipped: ([Int64]) -> Set<Int64> = { _ in [] })
    -> [(Int64, [DatabaseValue])]?
  {
    guard let bytes = file.page(number), let page = BTreePage(bytes, number: number, usableSize: file.usableSize),
      page.kind == .tableLeaf
    else { return nil }
    var payloads: [(index: Int, payload: BTreePage.Payload)] = []
    var extents: [Swift.Range<Int>] = []
    for index in page.cells.indices {
      guard let payload = page.payload(index) else { continue }
      payloads.append((index, payload))
      extents.append(page.extent(index, payload))
    }
    // Two cells that overlap cannot both be right (a cell pointer was damaged): neither is kept.
    // (By start, with the position in the low 16 bits: a plain sort of integers.)
    var overlapping = Set<Int>()
    let byStart = extents.indices.map { extents[$0].lowerBound << 16 | $0 }.sorted().map { $0 & 0xffff }
    for i in byStart.indices.dropFirst() where extents[byStart[i]].overlaps(extents[byStart[i - 1]]) {
      overlapping.insert(byStart[i])
      overlapping.insert(byStart[i - 1])
    }
    let candidates = payloads.indices.filter {
      !overlapping.contains($0) && range?.holds(payloads[$0].payload.rowid) ?? true
    }
    rejected += page.cells.count - candidates.count + page.lostCells
    let skip = skipped(candidates.map { payloads[$0].payload.rowid })
    var rows: [(Int64, [DatabaseValue])] = []
    for position in candidates where !skip.contains(payloads[position].payload.rowid) {
      let payload = payloads[position].payload
      guard let bytes = file.payloadBytes(page, payload), let values = DatabaseFile.record(bytes)
      else {
        rejected += 1
        continue
      }
      rows.append((payload.rowid, values))
    }
    return rows
  }

  /// The schema, read from the first page's b-tree (`sqlite_master`): each table and index
  /// with its root page. Rows that cannot be read are left out.
  mutating func schema() -> [SchemaRow] {
    let tree = walkTable(1, of: "sqlite_master")
    var rows: [SchemaRow] = []
    for leaf in tree.leaves {
      for (_, values) in self.rows(of: leaf.page, in: leaf) ?? [] {
        guard values.count >= 4, case .text(let type) = values[0], case .text(let name) = values[1],
          case .text(let table) = values[2], case .integer(let root) = values[3], root > 0, root <= file.pageCount
        else { continue }
        var sql = ""
        if values.count >= 5, case .text(let text) = values[4] { sql = String(decoding: text, as: UTF8.self) }
        rows.append(
          SchemaRow(
            type: String(decoding: type, as: UTF8.self), name: String(decoding: name, as: UTF8.self),
            table: String(decoding: table, as: UTF8.self), root: Int(root), sql: sql))
      }
    }
    return rows
  }

  /// Marks the freelist's pages (trunks and leaves) as met: a page there is no table's, and
  /// may still hold rows deleted long ago.
  mutating func markFreelist() {
    var trunk = file.freelistTrunk
    while trunk >= 2, trunk <= file.pageCount, !reached.contains(trunk), let bytes = file.page(trunk) {
      reached.insert(trunk)
      let count = DatabaseFile.int(bytes, 4)
      guard count <= file.usableSize / 4 - 2 else { break }
      for index in 0..<count {
        let leaf = DatabaseFile.int(bytes, 8 + 4 * index)
        if leaf >= 2, leaf <= file.pageCount { reached.insert(leaf) }
      }
      trunk = DatabaseFile.int(bytes, 0)
    }
  }

  /// The table leaves that nothing met: neither a tree walked nor the freelist. (A page whose
  /// first byte says table leaf; overflow pages start with a page number's high byte.)
  func unreachedLeaves() -> [Int] {
    guard file.pageCount >= 2 else { return [] }
    var found: [Int] = []
    for number in 2...file.pageCount where !reached.contains(number) {
      if number % 256 == 0, limits.stop != nil { break }
      if let bytes = file.page(number), bytes[0] == BTreePage.Kind.tableLeaf.rawValue { found.append(number) }
    }
    return found
  }

  /// The entries of an index, page by page: `body` is given each page's cells (interior and
  /// leaf: both hold entries). Whether every page could be read.
  mutating func walkIndex(_ root: Int, _ body: (BTreePage) -> Void) -> Bool {
    var complete = true
    var seen = Set<Int>()
    var stack: [(Int, Int)] = [(root, 0)]
    while let (number, depth) = stack.popLast() {
      if limits.stop != nil { return false }
      guard number >= 2, number <= file.pageCount, depth < 64, !seen.contains(number), !reached.contains(number),
        let bytes = file.page(number), let page = BTreePage(bytes, number: number, usableSize: file.usableSize),
        !page.kind.isTable
      else {
        complete = false
        continue
      }
      seen.insert(number)
      body(page)
      guard page.kind == .indexInterior else { continue }
      for index in page.cells.indices {
        guard let payload = page.payload(index) else {
          complete = false
          continue
        }
        stack.append((payload.child, depth + 1))
      }
      stack.append((page.rightChild, depth + 1))
    }
    return complete
  }

  /// How many entries an index has (one per row of its table), without reading them; and
  /// whether every page could be read.
  mutating func indexEntryCount(_ root: Int) -> (Int, complete: Bool) {
    var count = 0
    let complete = walkIndex(root) { count += $0.cells.count }
    return (count, complete)
  }

  /// The rowids an index's entries name, each entry checked against the index's columns
  /// (`key`: as many values, of their types, and a rowid); and whether every page and entry
  /// could be read (then they are all of the table's rowids).
  mutating func indexRowids(_ root: Int, key: [SalvageColumn]) -> (Set<Int64>, complete: Bool) {
    var rowids = Set<Int64>()
    var entriesHold = true
    let file = self.file
    let pagesHold = walkIndex(root) { page in
      for index in page.cells.indices {
        guard let payload = page.payload(index), let bytes = file.payloadBytes(page, payload),
          let values = DatabaseFile.record(bytes), values.count == key.count + 1,
          case .integer(let rowid) = values.last, zip(key, values).allSatisfy({ $0.takes($1) })
        else {
          entriesHold = false
          continue
        }
        rowids.insert(rowid)
      }
    }
    return (rowids, pagesHold && entriesHold)
  }
}

extension String {
  /// Whether `part` is in the string, byte for byte. (`String.contains(String)` is the
  /// string-processing library's, and one call of it links its regex engine: 1.3 MB.)
  func holds(_ part: String) -> Bool {
    let bytes = Array(utf8)
    let needle = Array(part.utf8)
    guard !needle.isEmpty else { return true }
    guard bytes.count >= needle.count else { return false }
    for start in 0...(bytes.count - needle.count) where bytes[start..<(start + needle.count)].elementsEqual(needle) {
      return true
    }
    return false
  }
}
