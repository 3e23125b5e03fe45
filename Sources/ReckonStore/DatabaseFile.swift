import Glibc
import SQLite

/// An SQLite database file read page by page, the way its file format describes it
/// (https://www.sqlite.org/fileformat2.html), without SQLite: what the salvage reads when
/// SQLite cannot, because a page on the way to the rows is damaged (an interior page of a
/// table, the first page, the header).
///
/// Every page is read through the WAL as SQLite would: a page with a committed frame in the
/// `-wal` file (one whose salt and running checksum hold, up to the last commit) is that
/// frame's, any other the main file's. Nothing is written. Every number read from the file is
/// checked before it is used (a page number against the file's size, an offset against the
/// page, a chain of pages against the pages already seen), so that no bytes make the reader
/// loop or read out of bounds.
final class DatabaseFile {
  let pageSize: Int
  /// The bytes of a page that hold b-tree content (the page less its reserved bytes).
  let usableSize: Int
  /// How many pages there are: those of the main file, or more if the WAL says so.
  let pageCount: Int
  /// The first freelist trunk page, from the header (0 when the header cannot be trusted).
  let freelistTrunk: Int
  /// Whether the header's first 100 bytes are as SQLite writes them (a page size that
  /// matches, the magic string).
  let headerIsValid: Bool
  /// Whether SQLite reads the file as it is: the header valid, its page size and reserved
  /// bytes the ones the pages hold together under, and its text UTF-8. Otherwise SQLite reads
  /// every page from the wrong place (or every text garbled), and what it gives is not the
  /// file's rows.
  let headerIsTrusted: Bool
  /// `PRAGMA user_version`, from the header (nil when it cannot be trusted).
  let userVersion: Int32?
  /// The last page when the file ends part-way through it (0 if none), and how many of its
  /// bytes there are: it reads as SQLite reads it, the rest as zeros, but nothing that lies
  /// in those zeros is taken for data.
  let partialPage: Int
  let partialBytes: Int
  private let fd: Int32
  /// The latest committed frame of each page in the WAL.
  private let walPages: [Int: [UInt8]]

  /// Opens the database at `path` (and its `-wal`) for reading; nil when the main file cannot
  /// be read, holds less than a page, or has no page size under which its pages read as
  /// b-tree pages. `stop` is asked between frames of the WAL.
  ///
  /// The page size is not taken on trust: two bytes of the header say it, and a damaged
  /// header can say 65,536 for a file of 4,096-byte pages, under which the first page still
  /// reads as a b-tree page (its first 4,096 bytes are) while every other page starts in the
  /// middle of one. Each possible size (and the header's reserved bytes, or none) is scored by
  /// how many of the pages the file's own pointers name are b-tree pages of the kind they
  /// should be (`consistency`); the header's is taken at once when none is wrong.
  init?(path: String, stop: () -> Bool = { false }) {
    // Never closed (see KeptOpen): this process may have SQLite connections to the file.
    guard let fd = KeptOpen.descriptor(path) else { return nil }
    var info = stat()
    guard fstat(fd, &info) == 0, info.st_size >= 512 else { return nil }
    let fileSize = Int(info.st_size)
    var header = [UInt8](repeating: 0, count: 100)
    guard DatabaseFile.read(fd, into: &header, at: 0) == 100 else { return nil }
    let stated = DatabaseFile.pageSize(UInt32(header[16]) << 8 | UInt32(header[17]))
    let reserved = Int(header[20])
    let valid = DatabaseFile.validHeader(header) != nil
    let wal = DatabaseFile.readWAL(path + "-wal", stop: stop)
    // The candidates: the header's size with its reserved bytes first, then the WAL's, then
    // every size with none (Reckon never reserves bytes at the end of a page).
    var candidates: [(size: Int, reserved: Int)] = []
    if valid, let stated { candidates.append((stated, reserved)) }
    if let size = wal?.pageSize { candidates.append((size, valid && size == stated ? reserved : 0)) }
    for size in [4096, 1024, 2048, 8192, 16384, 32768, 65536, 512]
    where !candidates.contains(where: { $0.size == size && $0.reserved == 0 }) {
      candidates.append((size, 0))
    }
    var chosen: (size: Int, reserved: Int)?
    // The best so far: whether most of the pages read are b-tree pages (under a page size
    // too small, few are), then the pointers that hold less twice those that do not.
    var best = (readsWell: 0, pointers: Int.min)
    for (index, candidate) in candidates.enumerated()
    where candidate.size <= fileSize || wal?.pageSize == candidate.size {
      let frames = wal?.pageSize == candidate.size ? wal?.pages ?? [:] : [:]
      let score = DatabaseFile.consistency(
        fd, pageSize: candidate.size, usableSize: candidate.size - candidate.reserved, fileSize: fileSize,
        frames: frames)
      // The header's own size, when nothing it leads to is wrong: no other is tried.
      if index == 0, valid, score.bad == 0, score.beyond == 0, score.good > 1 {
        chosen = candidate
        break
      }
      // Ties go to the earlier candidate (the header's, the WAL's, then the usual sizes), and
      // the header's size is taken unless another has more pointers that hold: where the
      // schema is cut off (a file cut short), a damaged pointer or two is all there is.
      let header = index == 0 && valid ? 3 : 0
      let this = (readsWell: score.pages * 2 >= score.sampled ? 1 : 0, pointers: score.good - 2 * score.bad + header)
      if score.good > 0 || score.pages > 0, this > best {
        best = this
        chosen = candidate
      }
    }
    guard let (pageSize, reservedBytes) = chosen else { return nil }
    self.fd = fd
    self.pageSize = pageSize
    usableSize = pageSize - reservedBytes
    headerIsValid = valid && stated == pageSize && reservedBytes == reserved
    // Reckon writes UTF-8 only: SQLite reads a file whose header says UTF-16 as UTF-16, and
    // every text it gives is garbled.
    headerIsTrusted = headerIsValid && header[56...59].elementsEqual([0, 0, 0, 1])
    walPages = wal?.pageSize == pageSize ? wal?.pages ?? [:] : [:]
    // The pages there are: the main file's and the WAL's, no more than the WAL's last commit
    // says (a number read from the file: never trusted past what is there).
    // (A last page cut short is read as SQLite reads it: the rest as zeros.)
    let available = max((fileSize + pageSize - 1) / pageSize, walPages.keys.max() ?? 0)
    let committed = wal?.pageSize == pageSize ? wal?.pageCount ?? 0 : 0
    pageCount = committed > 0 ? min(committed, available) : available
    let cut = fileSize % pageSize
    partialPage = cut != 0 && walPages[fileSize / pageSize + 1] == nil ? fileSize / pageSize + 1 : 0
    partialBytes = cut
    freelistTrunk = headerIsValid ? DatabaseFile.int(header, 32) : 0
    userVersion = headerIsValid ? Int32(bitPattern: UInt32(DatabaseFile.int(header, 60))) : nil
  }

  /// How well a file reads under a page size: of the pages its pointers name (the roots the
  /// schema on the first page gives; and when that gives none, the children of the interior
  /// pages among the first 256), how many are b-tree pages of the kind they should be
  /// (`good`: a table's root a table page, an index's an index page, a child of its parent's
  /// kind) and how many are not (`bad`), and how many lie past the end (`beyond`: a file cut
  /// short, or a page size too large); and how many pages read as b-tree pages at all, for a
  /// file with no pointers to follow.
  static func consistency(
    _ fd: Int32, pageSize: Int, usableSize: Int, fileSize: Int, frames: [Int: [UInt8]]
  ) -> (good: Int, bad: Int, beyond: Int, pages: Int, sampled: Int) {
    // (A last page cut short counts as past the end: it reads as zeros.)
    let count = max(fileSize / pageSize, frames.keys.max() ?? 0)
    func page(_ number: Int) -> BTreePage? {
      guard number >= 1, number <= count else { return nil }
      var bytes = frames[number] ?? [UInt8](repeating: 0, count: pageSize)
      if frames[number] == nil, read(fd, into: &bytes, at: (number - 1) * pageSize) <= 0 { return nil }
      return BTreePage(bytes, number: number, usableSize: usableSize)
    }
    var good = 0
    var bad = 0
    var beyond = 0
    var pages = 0
    /// Whether `child` is a b-tree page of `table`'s kind (a table's or an index's).
    func expect(_ child: Int, table: Bool) {
      if child > count {
        beyond += 1
      } else if let page = page(child), page.kind.isTable == table {
        good += 1
      } else {
        bad += 1
      }
    }
    if let first = page(1), first.kind.isTable {
      pages += 1
      // The schema's leaves: the first page, or its children (a schema of many pages).
      var leaves: [BTreePage] = []
      if first.kind == .tableLeaf {
        leaves = [first]
      } else {
        for index in first.cells.indices.prefix(32) {
          guard let (child, _) = first.tableInteriorCell(index) else { continue }
          if child > count {
            beyond += 1
          } else if let leaf = page(child), leaf.kind == .tableLeaf {
            good += 1
            leaves.append(leaf)
          } else {
            bad += 1
          }
        }
      }
      var roots = 0
      for leaf in leaves {
        let before = roots
        for index in leaf.cells.indices where roots < 64 {
          // Only what the page holds (a schema row's SQL may go on to overflow pages, but
          // its type and root come first).
          guard let payload = leaf.payload(index), payload.overflow == 0,
            let values = DatabaseFile.record(Array(leaf.bytes[payload.start..<(payload.start + payload.local)])),
            values.count >= 4, case .text(let type) = values[0], case .integer(let root) = values[3], root > 0
          else { continue }
          let kind = String(decoding: type, as: UTF8.self)
          guard kind == "table" || kind == "index" else { continue }
          roots += 1
          expect(Int(clamping: root), table: kind == "table")
        }
        // A leaf of the schema that holds no row of it is another page read in its place.
        if roots == before, roots < 64, leaf.number != 1 { bad += 1 }
      }
      if roots > 0 { return (good, bad, beyond, pages, 1) }
    }
    // No schema to follow: the interior pages among the first 256, and their children.
    var sampled = 1
    for number in 2...max(2, min(count, 257)) where number <= count {
      sampled += 1
      guard let interior = page(number) else { continue }
      pages += 1
      guard !interior.kind.isLeaf else { continue }
      var children = [interior.rightChild]
      for index in interior.cells.indices.prefix(3) {
        children.append(DatabaseFile.int(interior.bytes, interior.cells[index]))
      }
      for child in children { expect(child, table: interior.kind.isTable) }
    }
    return (good, bad, beyond, pages, sampled)
  }

  /// The page size and reserved bytes a database header states, when its first 100 bytes
  /// are as SQLite writes them (the magic string, a page size, the payload fractions, UTF-8
  /// text); nil otherwise.
  static func validHeader(_ header: [UInt8]) -> (pageSize: Int, reserved: Int)? {
    guard header.count >= 100, header[0..<16].elementsEqual("SQLite format 3\0".utf8),
      let size = pageSize(UInt32(header[16]) << 8 | UInt32(header[17])), header[20] < 32, header[21] == 64,
      header[22] == 32, header[23] == 32, header[56] == 0 || header[56] == 1
    else { return nil }
    return (size, Int(header[20]))
  }

  /// Page `number` (from 1), as SQLite would read it now; nil past the end of the file.
  func page(_ number: Int) -> [UInt8]? {
    guard number >= 1, number <= pageCount else { return nil }
    if let frame = walPages[number] { return frame }
    var bytes = [UInt8](repeating: 0, count: pageSize)
    guard DatabaseFile.read(fd, into: &bytes, at: (number - 1) * pageSize) > 0 else { return nil }
    return bytes
  }

  static func pageSize(_ field: UInt32) -> Int? {
    let size = field == 1 ? 65536 : Int(field)
    return size >= 512 && size <= 65536 && size & (size - 1) == 0 ? size : nil
  }

  /// A big-endian 32-bit number at `offset`.
  static func int(_ bytes: [UInt8], _ offset: Int) -> Int {
    Int(bytes[offset]) << 24 | Int(bytes[offset + 1]) << 16 | Int(bytes[offset + 2]) << 8 | Int(bytes[offset + 3])
  }

  /// Reads up to `buffer.count` bytes at `offset`; how many were read.
  static func read(_ fd: Int32, into buffer: inout [UInt8], at offset: Int) -> Int {
    let count = buffer.count
    return buffer.withUnsafeMutableBytes { raw in
      var done = 0
      while done < count {
        let n = pread(fd, raw.baseAddress! + done, count - done, off_t(offset + done))
        if n < 0 && errno == EINTR { continue }
        guard n > 0 else { break }
        done += n
      }
      return done
    }
  }

  // MARK: The WAL

  struct WAL {
    var pageSize: Int
    var pages: [Int: [UInt8]]
    /// The database's size in pages after the last commit.
    var pageCount: Int
  }

  /// The committed frames of the WAL at `path`: read frame by frame while each one's salt
  /// matches the header's and the running checksum holds, and kept up to the last commit, as
  /// SQLite's recovery of a WAL does. Nil when there is no WAL or its header is not valid.
  static func readWAL(_ path: String, stop: () -> Bool) -> WAL? {
    let fd = open(path, O_RDONLY | O_CLOEXEC)
    guard fd >= 0 else { return nil }
    defer { close(fd) }
    var header = [UInt8](repeating: 0, count: 32)
    guard read(fd, into: &header, at: 0) == 32 else { return nil }
    let magic = int(header, 0)
    guard magic == 0x377f_0682 || magic == 0x377f_0683, let pageSize = pageSize(UInt32(int(header, 8))) else {
      return nil
    }
    let bigEndian = magic & 1 == 1
    var sums = (UInt32(0), UInt32(0))
    checksum(header[0..<24], bigEndian: bigEndian, &sums)
    guard sums.0 == UInt32(int(header, 24)), sums.1 == UInt32(int(header, 28)) else { return nil }
    let salts = header[16..<24]
    var committed: [Int: [UInt8]] = [:]
    var pending: [Int: [UInt8]] = [:]
    var pageCount = 0
    var frame = [UInt8](repeating: 0, count: 24 + pageSize)
    var offset = 32
    while !stop(), read(fd, into: &frame, at: offset) == frame.count {
      guard frame[8..<16].elementsEqual(salts) else { break }
      checksum(frame[0..<8], bigEndian: bigEndian, &sums)
      checksum(frame[24...], bigEndian: bigEndian, &sums)
      guard sums.0 == UInt32(int(frame, 16)), sums.1 == UInt32(int(frame, 20)) else { break }
      let number = int(frame, 0)
      guard number >= 1 else { break }
      pending[number] = Array(frame[24...])
      let commit = int(frame, 4)
      if commit > 0 {
        committed.merge(pending) { $1 }
        pending = [:]
        pageCount = commit
      }
      offset += frame.count
    }
    // A commit that shrank the database: the pages past its end are gone.
    if pageCount > 0 { committed = committed.filter { $0.key <= pageCount } }
    return WAL(pageSize: pageSize, pages: committed, pageCount: pageCount)
  }

  /// SQLite's WAL checksum over `bytes` (a multiple of 8), carried on from `sums`.
  static func checksum(_ bytes: ArraySlice<UInt8>, bigEndian: Bool, _ sums: inout (UInt32, UInt32)) {
    var (s0, s1) = sums
    var i = bytes.startIndex
    func word(_ at: Int) -> UInt32 {
      let (a, b, c, d) = (UInt32(bytes[at]), UInt32(bytes[at + 1]), UInt32(bytes[at + 2]), UInt32(bytes[at + 3]))
      return bigEndian ? a << 24 | b << 16 | c << 8 | d : d << 24 | c << 16 | b << 8 | a
    }
    while i + 8 <= bytes.endIndex {
      s0 = s0 &+ word(i) &+ s1
      s1 = s1 &+ word(i + 4) &+ s0
      i += 8
    }
    sums = (s0, s1)
  }
}

/// One b-tree page: its kind, where its cells start, and (interior pages) its right child.
/// Nil for bytes that are not a b-tree page whose header and cell pointers hold together.
struct BTreePage {
  enum Kind: UInt8 {
    case indexInterior = 2
    case tableInterior = 5
    case indexLeaf = 10
    case tableLeaf = 13

    var isLeaf: Bool { self == .indexLeaf || self == .tableLeaf }
    var isTable: Bool { self == .tableInterior || self == .tableLeaf }
  }

  let kind: Kind
  let number: Int
  let bytes: [UInt8]
  let usableSize: Int
  /// Each cell's offset in the page, in the order of the cell pointers (key order).
  let cells: [Int]
  /// Cells whose pointer leads out of the page (left out of `cells`).
  private(set) var lostCells = 0
  let rightChild: Int

  init?(_ bytes: [UInt8], number: Int, usableSize: Int) {
    let start = number == 1 ? 100 : 0
    guard bytes.count >= usableSize, usableSize >= 480, let kind = Kind(rawValue: bytes[start]) else { return nil }
    let headerSize = kind.isLeaf ? 8 : 12
    var count = Int(bytes[start + 3]) << 8 | Int(bytes[start + 4])
    let pointers = start + headerSize
    let content = Int(bytes[start + 5]) << 8 | Int(bytes[start + 6])
    let contentStart = content == 0 ? 65536 : content
    // Every cell lies between the end of the pointer array and the end of the usable bytes. A
    // leaf whose count of cells was damaged upward, so that its pointers would run into its
    // cells, keeps the pointers that fit (the rest are lost cells): its rows are still there.
    var lost = 0
    if kind.isLeaf, pointers + 2 * count > contentStart, contentStart <= usableSize, contentStart >= pointers {
      lost = count - (contentStart - pointers) / 2
      count -= lost
    }
    guard pointers + 2 * count <= contentStart, contentStart <= usableSize, count > 0 || kind.isLeaf else {
      return nil
    }
    var cells: [Int] = []
    cells.reserveCapacity(count)
    lostCells = lost
    for i in 0..<count {
      let offset = Int(bytes[pointers + 2 * i]) << 8 | Int(bytes[pointers + 2 * i + 1])
      // A pointer out of the page loses its cell (a leaf's other cells are still read); an
      // interior page is damage as a whole (the ranges of its children would be wrong).
      guard offset >= contentStart, offset + 4 <= usableSize else {
        guard kind.isLeaf else { return nil }
        lostCells += 1
        continue
      }
      cells.append(offset)
    }
    self.kind = kind
    self.number = number
    self.bytes = bytes
    self.usableSize = usableSize
    self.cells = cells
    rightChild = kind.isLeaf ? 0 : DatabaseFile.int(bytes, start + 8)
  }

  /// A varint at `offset` (1 to 9 bytes) and the offset after it; nil past `limit`.
  static func varint(_ bytes: [UInt8], _ offset: Int, limit: Int) -> (Int64, Int)? {
    var value: UInt64 = 0
    for i in 0..<9 {
      guard offset + i < limit else { return nil }
      let byte = bytes[offset + i]
      if i == 8 { return (Int64(bitPattern: value << 8 | UInt64(byte)), offset + 9) }
      value = value << 7 | UInt64(byte & 0x7f)
      if byte & 0x80 == 0 { return (Int64(bitPattern: value), offset + i + 1) }
    }
    return nil
  }

  /// An interior table page's cell: its left child and its key (the largest rowid under it).
  func tableInteriorCell(_ index: Int) -> (child: Int, key: Int64)? {
    let offset = cells[index]
    guard let (key, _) = BTreePage.varint(bytes, offset + 4, limit: usableSize) else { return nil }
    return (DatabaseFile.int(bytes, offset), key)
  }

  /// A cell's payload as it lies in the page: its full size, where the part kept in the page
  /// starts and how long it is, the first overflow page (0 if none), and the rowid (for a
  /// table leaf) or child page (for an interior index page).
  struct Payload {
    var size: Int
    var start: Int
    var local: Int
    var overflow: Int
    var rowid: Int64
    var child: Int
  }

  func payload(_ index: Int) -> Payload? {
    var offset = cells[index]
    var child = 0
    if kind == .indexInterior {
      child = DatabaseFile.int(bytes, offset)
      offset += 4
    }
    guard kind != .tableInterior, let (size, afterSize) = BTreePage.varint(bytes, offset, limit: usableSize),
      size >= 0, size < 1 << 31
    else { return nil }
    offset = afterSize
    var rowid: Int64 = 0
    if kind == .tableLeaf {
      guard let (id, afterRowid) = BTreePage.varint(bytes, offset, limit: usableSize) else { return nil }
      rowid = id
      offset = afterRowid
    }
    // How much of the payload the page keeps (the file format's "X", "M" and "K").
    let u = usableSize
    let most = kind == .tableLeaf ? u - 35 : (u - 12) * 64 / 255 - 23
    let least = (u - 12) * 32 / 255 - 23
    let size32 = Int(size)
    var local = size32
    if size32 > most {
      let k = least + (size32 - least) % (u - 4)
      local = k <= most ? k : least
    }
    let overflowAt = offset + local
    guard overflowAt + (local < size32 ? 4 : 0) <= usableSize else { return nil }
    let overflow = local < size32 ? DatabaseFile.int(bytes, overflowAt) : 0
    return Payload(size: size32, start: offset, local: local, overflow: overflow, rowid: rowid, child: child)
  }

  /// The bytes the cell takes in the page (from its offset), for finding cells that overlap.
  func extent(_ index: Int, _ payload: Payload) -> Swift.Range<Int> {
    cells[index]..<(payload.start + payload.local + (payload.overflow != 0 ? 4 : 0))
  }
}

extension DatabaseFile {
  /// A cell's whole payload: the part in the page and the rest from its chain of overflow
  /// pages (each page met once, the chain no longer than the payload needs); nil when the
  /// chain breaks, or reaches past the end of a file cut short.
  func payloadBytes(_ page: BTreePage, _ payload: BTreePage.Payload) -> [UInt8]? {
    var seen = Set<Int>()
    guard page.number != partialPage || payload.start + payload.local <= partialBytes else { return nil }
    var bytes = Array(page.bytes[payload.start..<(payload.start + payload.local)])
    var next = payload.overflow
    let perPage = usableSize - 4
    while bytes.count < payload.size {
      guard next >= 2, next <= pageCount, !seen.contains(next), let overflow = self.page(next) else { return nil }
      seen.insert(next)
      let take = min(perPage, payload.size - bytes.count)
      guard next != partialPage || 4 + take <= partialBytes else { return nil }
      bytes += overflow[4..<(4 + take)]
      next = DatabaseFile.int(overflow, 0)
    }
    return bytes
  }

  /// The values of a record (a payload); nil when its header and body do not hold together
  /// (the sizes its types give do not add up to the payload, a type SQLite never writes).
  static func record(_ payload: [UInt8]) -> [DatabaseValue]? {
    guard let (headerSize64, afterSize) = BTreePage.varint(payload, 0, limit: payload.count), headerSize64 >= 1,
      headerSize64 <= payload.count
    else { return nil }
    let headerSize = Int(headerSize64)
    var types: [Int64] = []
    var offset = afterSize
    while offset < headerSize {
      guard let (type, next) = BTreePage.varint(payload, offset, limit: headerSize) else { return nil }
      types.append(type)
      offset = next
    }
    guard offset == headerSize else { return nil }
    var values: [DatabaseValue] = []
    values.reserveCapacity(types.count)
    var at = headerSize
    for type in types {
      guard let length = serialLength(type, limit: payload.count), at + length <= payload.count else { return nil }
      switch type {
      case 0: values.append(.null)
      case 8, 9, 1...6: values.append(.integer(integer(payload, type: type, at: at)))
      case 7:
        var bits: UInt64 = 0
        for byte in payload[at..<(at + 8)] { bits = bits << 8 | UInt64(byte) }
        values.append(.real(Double(bitPattern: bits)))
      default:
        let bytes = Array(payload[at..<(at + length)])
        values.append(type % 2 == 0 ? .blob(bytes) : .text(bytes))
      }
      at += length
    }
    return at == payload.count ? values : nil
  }

  /// How many bytes a record's value of serial `type` takes; nil for a type SQLite never
  /// writes, or text or a blob longer than `limit`.
  static func serialLength(_ type: Int64, limit: Int) -> Int? {
    switch type {
    case 0, 8, 9: return 0
    case 1, 2, 3, 4: return Int(type)
    case 5: return 6
    case 6, 7: return 8
    case 10, 11: return nil
    default:
      guard type >= 12, type < Int64(limit) * 2 + 14 else { return nil }
      return Int((type - 12) / 2)
    }
  }

  /// The integer of serial `type` (1 to 6, 8 or 9) at `at`: big-endian, two's complement.
  static func integer(_ bytes: [UInt8], type: Int64, at: Int) -> Int64 {
    if type == 8 || type == 9 { return type - 8 }
    let length = serialLength(type, limit: 0) ?? 0
    var n: Int64 = bytes[at] & 0x80 != 0 ? -1 : 0
    for byte in bytes[at..<(at + length)] { n = n << 8 | Int64(byte) }
    return n
  }
}
