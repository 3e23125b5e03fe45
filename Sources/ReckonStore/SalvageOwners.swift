import SQLite

/// Which table rows read from the file's pages belong to, by what they hold: the evidence
/// that keeps one table's rows out of another's when a pointer is damaged, or when the schema
/// is lost and the trees must be told apart by their rows.
///
/// A table is a candidate for a leaf's rows when most of them fit its columns as Reckon
/// writes them (`SalvageColumn.fits`). Among candidates the rows' own indexes decide: a row of
/// a table has, in each index of the table, an entry made of its values and its rowid, and
/// the census hashed every entry of every index page (`PageSalvage.indexEntries`). Two tables
/// with the same columns have different indexes (the flashcards' FSRS weights and the drill's
/// Leitner boxes: a key of two columns, and of three). Where the indexes are lost too, the
/// values decide: the table whose columns the values fill exactly (a real in a real column, an
/// integer in an integer one) wins. The profiles and the modes' bookkeeping (`modeTables`, a
/// name and a number) look alike in every way: the names the other tables' rows give as their
/// profile, and the modes' names, tell them apart. Rows that are SQLite's own (the schema,
/// `sqlite_sequence`) or the bookkeeping belong to no table of the copy.
struct SalvageOwners {
  /// The tables of the copy: their columns and their indexes.
  let tables: [TableCopy]
  let entries: Set<Int>
  /// The names of every table (what `sqlite_sequence` holds).
  let tableNames: Set<String>
  /// The modes' names (`modeTables`' rows).
  let modeNames: Set<String>
  /// The profiles the rows kept so far name.
  var profilesNamed: Set<[UInt8]> = []

  enum Owner: Equatable {
    case table(Int)
    /// SQLite's own rows, or the modes' bookkeeping: no table of the copy.
    case none
  }

  /// How well rows fit a table: how many have entries in its indexes, then how many values
  /// are exactly of their columns' kind, then how many rows fit at all.
  struct Score: Comparable {
    var evidence: Int
    var exact: Int
    var fitting: Int

    static func < (a: Score, b: Score) -> Bool {
      (a.evidence, a.exact, a.fitting) < (b.evidence, b.exact, b.fitting)
    }
  }

  /// The score of `rows` for `table`; nil when most of them do not fit it.
  func score(_ rows: [(Int64, [DatabaseValue])], _ table: TableCopy) -> Score? {
    var score = Score(evidence: 0, exact: 0, fitting: 0)
    for (rowid, values) in rows where SalvageColumn.fits(values, table.columns) {
      score.fitting += 1
      if table.indexes.contains(where: { index in
        SalvageHash.entry(rowid, values, index: index, table.columns).map(entries.contains) ?? false
      }) {
        score.evidence += 1
      }
      for (column, value) in zip(table.columns, values) where column.isExactly(value) { score.exact += 1 }
    }
    guard score.fitting > 0, score.fitting * 2 >= rows.count else { return nil }
    return score
  }

  /// How many of `table`'s indexes have an entry made of the row's values (a byte of a row
  /// damaged in an indexed column takes it out of that index).
  func namedBy(_ rowid: Int64, _ values: [DatabaseValue], _ table: TableCopy) -> Int {
    table.indexes.filter { index in
      SalvageHash.entry(rowid, values, index: index, table.columns).map(entries.contains) ?? false
    }.count
  }

  /// The table `rows` (a leaf's, or an orphan tree's) belong to; nil when it cannot be told.
  func owner(of rows: [(Int64, [DatabaseValue])]) -> Owner? {
    guard !rows.isEmpty else { return nil }
    if SQLiteStore.isSequence(rows, names: tableNames) { return Owner.none }
    if rows.allSatisfy({ PageSalvage.schemaRow($0.1, pageCount: Int.max) != nil }) { return Owner.none }
    var best: (score: Score, tables: [Int])?
    for (index, table) in tables.enumerated() {
      guard let score = score(rows, table) else { continue }
      if best == nil || best!.score < score {
        best = (score, [index])
      } else if best!.score == score {
        best!.tables.append(index)
      }
    }
    guard let best else { return isBookkeeping(rows) ? Owner.none : nil }
    // The profiles, and the modes' bookkeeping, which has the same columns and index.
    if let profile = tables.firstIndex(where: { $0.name == "profile" }), best.tables.contains(profile) {
      let names = rows.compactMap { row -> [UInt8]? in
        guard case .text(let name) = row.1.first else { return nil }
        return name
      }
      if isBookkeeping(rows), !names.contains(where: profilesNamed.contains) { return Owner.none }
      if best.tables.count == 1 { return .table(profile) }
    }
    return best.tables.count == 1 ? .table(best.tables[0]) : nil
  }

  /// Whether rows are `modeTables`' (a mode's name and its version).
  func isBookkeeping(_ rows: [(Int64, [DatabaseValue])]) -> Bool {
    rows.allSatisfy { row in
      guard row.1.count == 2, case .text(let name) = row.1[0], case .integer(let version) = row.1[1] else {
        return false
      }
      return version >= 0 && version < 10_000 && modeNames.contains(String(decoding: name, as: UTF8.self))
    }
  }
}

extension SalvageColumn {
  /// Whether `value` is exactly of the column's kind: an integer in an integer column, a real
  /// in a real one, text in a text one (a whole real kept as an integer in a real column fits
  /// it, but not exactly).
  func isExactly(_ value: DatabaseValue) -> Bool {
    switch (value, affinity) {
    case (.null, _): return !notNull
    case (.integer, .integer), (.real, .real), (.text, .text), (.integer, .numeric), (.real, .numeric), (_, .blob):
      return true
    default: return false
    }
  }
}
