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

  /// Whether the column holds `value` as Reckon writes it: an integer column integers (Reckon
  /// never writes a fraction there, and SQLite keeps a whole real in one as an integer), a
  /// real column reals or whole numbers (which SQLite may keep as integers), text columns
  /// text. The test that tells one table's rows from another's, with the indexes.
  func takes(_ value: DatabaseValue) -> Bool {
    switch value {
    case .null: return isRowid || !notNull
    case .integer: return !isRowid && affinity != .text
    case .real: return !isRowid && affinity != .text && affinity != .integer
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
  /// Each page's kind as the census found it: a b-tree page's first byte when the page holds
  /// together as one, 0 otherwise (index 0 unused).
  var kinds: [UInt8] = []
  /// The children of each table interior page the census found.
  var children: [Int: [Int]] = [:]
  /// Every entry of every index page of the file but the freelist's (the values of its columns
  /// and the rowid it names, hashed: `SalvageHash`): what tells a row of one table from a row
  /// of another with the same columns (`SalvageOwners`).
  var indexEntries = Set<Int>()
  /// Pages on the freelist (trunks and leaves): no table's, though they may still hold rows
  /// deleted long ago. (A page a table's tree leads to, whose rowids are those its parent
  /// says, is the table's all the same: a number in a trunk's list may be the damage.)
  var freelist = Set<Int>()
  /// Rows of the leaves read whose rowids are out of their leaf's order (`rows(of:in:)`),
  /// until the caller takes them.
  var outOfOrder: [(Int64, [DatabaseValue])] = []

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
        let bytes = read(number),
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
  mutating func rows(of number: Int, in range: Range?) -> [(Int64, [DatabaseValue])]? {
    guard let bytes = read(number), let page = BTreePage(bytes, number: number, usableSize: file.usableSize),
      page.kind == .tableLeaf
    else { return nil }
    var payloads: [(index: Int, payload: BTreePage.Payload)] = []
    var extents: [Swift.Range<Int>] = []
    for index in page.cells.indices {
      guard let payload = page.payload(index) else { continue }
      payloads.append((index, payload))
      extents.append(page.extent(index, payload))
    }
    // Two cells that overlap cannot both be right (a cell pointer was damaged, and points
    // into another cell): both are read, but neither takes its rowid's place before the
    // table's other rows have theirs (`outOfOrder`); a pointer into the middle of a cell seldom
    // reads as a record that fits the table at all.
    // (By start, with the position in the low 16 bits: a plain sort of integers.)
    var overlapping = Set<Int>()
    let byStart = extents.indices.map { extents[$0].lowerBound << 16 | $0 }.sorted().map { $0 & 0xffff }
    for i in byStart.indices.dropFirst() where extents[byStart[i]].overlaps(extents[byStart[i - 1]]) {
      overlapping.insert(byStart[i])
      overlapping.insert(byStart[i - 1])
    }
    let candidates = Array(payloads.indices)
    rejected += page.cells.count - candidates.count + page.lostCells
    // A leaf's cells are in rowid order: one out of it had its rowid damaged (it may now be
    // another row's). Those in order (the longest run that rises) are the leaf's rows; the
    // others are kept aside (`outOfOrder`), to go in after their table's own, so that a row
    // whose rowid a changed byte made another's never takes that row's place.
    // (A rowid outside the range the leaf's parents give it is out of order too.)
    let sound = candidates.indices.filter {
      !overlapping.contains(candidates[$0]) && range?.holds(payloads[candidates[$0]].payload.rowid) ?? true
    }
    let inOrder = Set(PageSalvage.rising(sound.map { payloads[candidates[$0]].payload.rowid }).map { sound[$0] })
    var rows: [(Int64, [DatabaseValue])] = []
    for (place, position) in candidates.enumerated() {
      let payload = payloads[position].payload
      guard let bytes = payloadBytes(page, payload), let values = DatabaseFile.record(bytes)
      else {
        rejected += 1
        continue
      }
      if inOrder.contains(place) {
        rows.append((payload.rowid, values))
      } else {
        outOfOrder.append((payload.rowid, values))
      }
    }
    return rows
  }

  /// The places of the longest strictly rising run (not necessarily side by side) of
  /// `keys`: patience sorting, n log n. Of two equal keys the first is in it (a row read first
  /// is the one `.dump` keeps too).
  static func rising(_ keys: [Int64]) -> Set<Int> {
    guard keys.count > 1 else { return Set(keys.indices) }
    var tails: [Int] = []  // the place of the smallest last key of a run of each length
    var previous = [Int](repeating: -1, count: keys.count)
    for (place, key) in keys.enumerated() {
      var low = 0
      var high = tails.count
      while low < high {
        let middle = (low + high) / 2
        if keys[tails[middle]] < key { low = middle + 1 } else { high = middle }
      }
      if low < tails.count && keys[tails[low]] == key { continue }
      previous[place] = low > 0 ? tails[low - 1] : -1
      if low == tails.count { tails.append(place) } else { tails[low] = place }
    }
    var kept = Set<Int>()
    var place = tails.last ?? -1
    while place >= 0 {
      kept.insert(place)
      place = previous[place]
    }
    return kept
  }

  /// Page `number`, counted as a unit of the salvage's work.
  func read(_ number: Int) -> [UInt8]? {
    limits.spend()
    return file.page(number)
  }

  /// A cell's whole payload (`DatabaseFile.payloadBytes`), its overflow pages counted as work.
  func payloadBytes(_ page: BTreePage, _ payload: BTreePage.Payload) -> [UInt8]? {
    if payload.overflow != 0 { limits.spend(1 + payload.size / max(file.usableSize - 4, 1)) }
    return file.payloadBytes(page, payload)
  }

  /// Reads every page once: its kind, a table interior page's children, every index entry
  /// (`indexEntries`), and the freelist (from the header, or where it cannot be trusted, the
  /// pages that read as freelist trunks). Stops early, with what it found, when the limits say.
  mutating func census() {
    kinds = [UInt8](repeating: 0, count: file.pageCount + 1)
    markFreelist()
    var entries: [Int: [Int]] = [:]  // the index entries each page holds, hashed
    for number in 1...max(1, file.pageCount) where number <= file.pageCount {
      if number % 64 == 0, limits.stop != nil { break }
      guard let bytes = read(number), let page = BTreePage(bytes, number: number, usableSize: file.usableSize)
      else {
        continue
      }
      kinds[number] = page.kind.rawValue
      switch page.kind {
      case .tableInterior:
        var list = [page.rightChild]
        for index in page.cells.indices { list.append(DatabaseFile.int(page.bytes, page.cells[index])) }
        children[number] = list
      case .indexInterior, .indexLeaf:
        var hashes: [Int] = []
        for index in page.cells.indices {
          guard let payload = page.payload(index), let bytes = file.payloadBytes(page, payload),
            let values = DatabaseFile.record(bytes), let last = values.last, case .integer(let rowid) = last
          else { continue }
          hashes.append(SalvageHash.of(values.dropLast(), rowid: rowid))
        }
        entries[number] = hashes
      case .tableLeaf:
        break
      }
    }
    // Where the header cannot be trusted, no freelist is known: a page that reads as a trunk
    // (a next trunk, a count, and as many distinct pages that are no b-tree interior pages)
    // is taken for one, so that rows deleted long ago do not come back.
    if !file.headerIsValid {
      for number in 2...max(2, file.pageCount) where number <= file.pageCount && kinds[number] == 0 {
        guard let bytes = file.page(number) else { continue }
        let next = DatabaseFile.int(bytes, 0)
        let count = DatabaseFile.int(bytes, 4)
        guard next == 0 || (next >= 2 && next <= file.pageCount && kinds[next] == 0), count >= 1,
          count <= file.usableSize / 4 - 2
        else { continue }
        var listed = Set<Int>()
        for index in 0..<count {
          let leaf = DatabaseFile.int(bytes, 8 + 4 * index)
          guard leaf >= 2, leaf <= file.pageCount, leaf != number, kinds[leaf] != BTreePage.Kind.tableInterior.rawValue,
            kinds[leaf] != BTreePage.Kind.indexInterior.rawValue, listed.insert(leaf).inserted
          else {
            listed = []
            break
          }
        }
        if !listed.isEmpty {
          freelist.insert(number)
          freelist.formUnion(listed)
        }
      }
    }
    for (page, hashes) in entries where !freelist.contains(page) { indexEntries.formUnion(hashes) }
  }

  /// The schema, read from the first page's b-tree (`sqlite_master`): each table and index
  /// with its root page. Rows that cannot be read are left out. When the first page is lost,
  /// the schema's other leaves (a schema of many pages) are found among the table leaves no
  /// tree reaches, by their rows (`schemaRow`), once the census has run.
  mutating func schema() -> [SchemaRow] {
    let tree = walkTable(1, of: "sqlite_master")
    var rows: [SchemaRow] = []
    for leaf in tree.leaves {
      for (_, values) in (self.rows(of: leaf.page, in: leaf) ?? []) + outOfOrder {
        if let row = PageSalvage.schemaRow(values, pageCount: file.pageCount) { rows.append(row) }
      }
      outOfOrder = []
    }
    guard rows.isEmpty, !kinds.isEmpty else { return rows }
    for number in 2...max(2, file.pageCount)
    where number <= file.pageCount && kinds[number] == BTreePage.Kind.tableLeaf.rawValue && !reached.contains(number)
      && !freelist.contains(number)
    {
      guard let read = self.rows(of: number, in: nil) else { continue }
      let found = read + outOfOrder
      outOfOrder = []
      guard !found.isEmpty else { continue }
      let schemaRows = found.compactMap { PageSalvage.schemaRow($0.1, pageCount: file.pageCount) }
      guard schemaRows.count == found.count else { continue }
      reached.insert(number)
      leafOwners[number] = "sqlite_master"
      rows += schemaRows
    }
    return rows
  }

  /// A row of `sqlite_master` (type, name, table, root page, SQL), if `values` is one.
  static func schemaRow(_ values: [DatabaseValue], pageCount: Int) -> SchemaRow? {
    guard values.count == 5, case .text(let type) = values[0], case .text(let name) = values[1],
      case .text(let table) = values[2], case .integer(let root) = values[3], root >= 0, root <= pageCount
    else { return nil }
    let kind = String(decoding: type, as: UTF8.self)
    guard kind == "table" || kind == "index" || kind == "view" || kind == "trigger" else { return nil }
    var sql = ""
    if case .text(let text) = values[4] {
      sql = String(decoding: text, as: UTF8.self)
    } else if case .null = values[4] {
    } else {
      return nil
    }
    return SchemaRow(
      type: kind, name: String(decoding: name, as: UTF8.self), table: String(decoding: table, as: UTF8.self),
      root: Int(root), sql: sql)
  }

  /// Marks the freelist's pages (trunks and leaves) as met: a page there is no table's, and
  /// may still hold rows deleted long ago.
  mutating func markFreelist() {
    var trunk = file.freelistTrunk
    while trunk >= 2, trunk <= file.pageCount, !freelist.contains(trunk), let bytes = read(trunk) {
      freelist.insert(trunk)
      let count = DatabaseFile.int(bytes, 4)
      guard count <= file.usableSize / 4 - 2 else { break }
      for index in 0..<count {
        let leaf = DatabaseFile.int(bytes, 8 + 4 * index)
        if leaf >= 2, leaf <= file.pageCount { freelist.insert(leaf) }
      }
      trunk = DatabaseFile.int(bytes, 0)
    }
  }

  /// The table pages no tree walked reached (nor the freelist), gathered into the trees they
  /// still make: the subtree of each such interior page that no other such page points at,
  /// and each leaf under none. Their leaves are in `leaves`; a tree found this way has no
  /// owner yet (`SalvageOwners` finds one for it by its rows).
  mutating func orphanTrees() -> [Tree] {
    guard file.pageCount >= 1, kinds.count == file.pageCount + 1 else { return [] }
    let interior = BTreePage.Kind.tableInterior.rawValue
    let leaf = BTreePage.Kind.tableLeaf.rawValue
    var pointedAt = Set<Int>()
    for number in 1...file.pageCount
    where kinds[number] == interior && !reached.contains(number) && !freelist.contains(number) {
      pointedAt.formUnion(children[number] ?? [])
    }
    var trees: [Tree] = []
    // Roots first; then what is left (pages that point at each other in a loop), each alone.
    for pass in 0..<2 {
      for number in 1...file.pageCount
      where (kinds[number] == interior || kinds[number] == leaf) && !reached.contains(number)
        && !freelist.contains(number)
        && (pass == 1 || !pointedAt.contains(number))
      {
        if number % 64 == 0, limits.stop != nil { return trees }
        let tree = walkTable(number, of: "")
        if !tree.leaves.isEmpty { trees.append(tree) }
      }
    }
    return trees
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
        !freelist.contains(number),
        let bytes = read(number), let page = BTreePage(bytes, number: number, usableSize: file.usableSize),
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
  /// Also each entry, hashed (its values and rowid: `SalvageHash`), by rowid, so that the
  /// caller can check the entries against the rows kept.
  mutating func indexRowids(_ root: Int, key: [SalvageColumn]) -> (
    [Int64: Int], complete: Bool
  ) {
    var rowids: [Int64: Int] = [:]
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
        // A rowid named twice: a page of the index copied over another.
        if rowids.updateValue(SalvageHash.of(values.dropLast(), rowid: rowid), forKey: rowid) != nil {
          entriesHold = false
        }
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

/// Index entries hashed, to tell which table a row read from a page is: an index's entry is
/// the values of its columns and the rowid, so a row of a table has, for each index of the
/// table, an entry made of its own values (`entry`). (Swift's `Hasher`: the same within one
/// process, which is all a salvage needs.)
enum SalvageHash {
  static func of(_ values: some Swift.Collection<DatabaseValue>, rowid: Int64) -> Int {
    var hasher = Hasher()
    hasher.combine(values.count)
    for value in values {
      switch value {
      case .null: hasher.combine(0)
      case .integer(let n):
        hasher.combine(1)
        hasher.combine(n)
      case .real(let x):
        // A whole real may be kept as an integer in one record and a real in another.
        if x == x.rounded(), abs(x) < 9.0e18 {
          hasher.combine(1)
          hasher.combine(Int64(x))
        } else {
          hasher.combine(2)
          hasher.combine(x.bitPattern)
        }
      case .text(let bytes):
        hasher.combine(3)
        hasher.combine(bytes)
      case .blob(let bytes):
        hasher.combine(4)
        hasher.combine(bytes)
      }
    }
    hasher.combine(rowid)
    return hasher.finalize()
  }

  /// Whether two values are the same, a whole real and an integer alike (as `of` hashes them).
  static func same(_ a: DatabaseValue, _ b: DatabaseValue) -> Bool {
    switch (a, b) {
    case (.integer(let m), .real(let r)), (.real(let r), .integer(let m)): Double(m) == r
    default: a == b
    }
  }

  /// The hash of the entry a row would have in an index on `columns` (places in the table's
  /// columns; the rowid's own column is the rowid); nil when the row lacks one of them (a
  /// column added since it was written, whose default is not known here).
  static func entry(_ rowid: Int64, _ values: [DatabaseValue], index columns: [Int], _ table: [SalvageColumn]) -> Int? {
    var key: [DatabaseValue] = []
    key.reserveCapacity(columns.count)
    for column in columns {
      guard column >= 0, column < table.count else { return nil }
      if table[column].isRowid {
        key.append(.integer(rowid))
      } else {
        guard column < values.count else { return nil }
        key.append(values[column])
      }
    }
    return of(key, rowid: rowid)
  }
}
