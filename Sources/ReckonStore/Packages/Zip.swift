import CDecompress
import Glibc
import ReckonCore
import SQLite

/// A zip archive held in memory, read through its central directory: the names of its
/// entries, and an entry's bytes (stored, or deflated and inflated by zlib), checked against
/// their CRC-32. Zip64 archives (over 4 GiB) and encrypted entries are refused. An entry's
/// bytes are had in memory SQLite allocated (a `DatabaseImage`: what Reckon reads from a
/// package is an SQLite collection, read where it was inflated), and inflating hears Ctrl-C.
struct Zip {
  struct Entry {
    var name: String
    var method: UInt16
    var flags: UInt16
    var crc: UInt32
    var compressedSize: Int
    var size: Int
    var localHeader: Int
  }

  struct Problem: Error {
    var message: String
    /// Ctrl-C stopped the reading.
    var interrupted = false
    /// It would be more than the limit.
    var tooLarge = false
    init(_ message: String) { self.message = message }
    static let interrupted: Problem = {
      var problem = Problem("interrupted")
      problem.interrupted = true
      return problem
    }()
  }

  let bytes: [UInt8]
  private(set) var entries: [Entry] = []

  /// The most entries an archive may list (an Anki package has a few, and its media files).
  static let maxEntries = 1_000_000

  init(_ bytes: [UInt8]) throws(Problem) {
    self.bytes = bytes
    // The end-of-central-directory record: 22 bytes and a comment of at most 65,535, last.
    guard bytes.count >= 22 else { throw Problem("it is not a zip archive (too short)") }
    var end = -1
    var at = bytes.count - 22
    while at >= max(0, bytes.count - 22 - 65_535) {
      if read32(at) == 0x0605_4B50 {
        end = at
        break
      }
      at -= 1
    }
    guard end >= 0 else { throw Problem("it is not a zip archive (no central directory)") }
    let count = Int(read16(end + 10))
    let directorySize = Int(read32(end + 12))
    let directory = Int(read32(end + 16))
    if count == 0xFFFF || directorySize == 0xFFFF_FFFF || directory == 0xFFFF_FFFF {
      throw Problem("it is a zip64 archive, which Reckon does not read")
    }
    guard directory + directorySize <= end else { throw Problem("its central directory is damaged") }
    var offset = directory
    for _ in 0..<min(count, Zip.maxEntries) {
      guard offset + 46 <= end, read32(offset) == 0x0201_4B50 else {
        throw Problem("its central directory is damaged")
      }
      let nameLength = Int(read16(offset + 28))
      let extraLength = Int(read16(offset + 30))
      let commentLength = Int(read16(offset + 32))
      guard offset + 46 + nameLength <= end else { throw Problem("its central directory is damaged") }
      let entry = Entry(
        name: String(decoding: bytes[offset + 46..<offset + 46 + nameLength], as: UTF8.self),
        method: read16(offset + 10), flags: read16(offset + 8), crc: read32(offset + 16),
        compressedSize: Int(read32(offset + 20)), size: Int(read32(offset + 24)),
        localHeader: Int(read32(offset + 42)))
      if entry.compressedSize == 0xFFFF_FFFF || entry.size == 0xFFFF_FFFF || entry.localHeader == 0xFFFF_FFFF {
        throw Problem("it is a zip64 archive, which Reckon does not read")
      }
      entries.append(entry)
      offset += 46 + nameLength + extraLength + commentLength
    }
  }

  func entry(named name: String) -> Entry? { entries.first { $0.name == name } }

  /// An entry's bytes, of at most `limit`; Ctrl-C (`interruption`) is heard while they are
  /// inflated.
  func contents(of entry: Entry, limit: Int, interruption: Interruption = .never) throws(Problem) -> DatabaseImage {
    let at = entry.localHeader
    guard at + 30 <= bytes.count, read32(at) == 0x0403_4B50 else {
      throw Problem("\(entry.name) is damaged (its header is not where the directory says)")
    }
    if entry.flags & 1 != 0 { throw Problem("\(entry.name) is encrypted") }
    let start = at + 30 + Int(read16(at + 26)) + Int(read16(at + 28))
    guard start + entry.compressedSize <= bytes.count else { throw Problem("\(entry.name) is cut short") }
    guard entry.size <= limit else {
      throw Problem("\(entry.name) is \(entry.size / 1_048_576) MiB, more than the \(limit >> 20) MiB Reckon reads")
    }
    let out: DatabaseImage
    switch entry.method {
    case 0:
      guard
        let copy = bytes.withUnsafeBytes({
          DatabaseImage(copying: UnsafeRawBufferPointer(rebasing: $0[start..<start + entry.compressedSize]))
        })
      else { throw Problem("there is not enough memory to read \(entry.name)") }
      out = copy
    case 8:
      // No more than the directory says: more is damage (or a bomb), found at once.
      let inflated = bytes.withUnsafeBytes { all in
        Result { () throws(Problem) in
          try Zip.decompress(
            UnsafeRawBufferPointer(rebasing: all[start..<start + entry.compressedSize]), zstd: false,
            limit: entry.size + 1, name: entry.name, interruption: interruption)
        }
      }
      do {
        out = try inflated.get()
      } catch let problem where problem.tooLarge {
        throw Problem("\(entry.name) is damaged (it is longer than the archive's directory says)")
      }
      if out.count > entry.size {
        throw Problem("\(entry.name) is damaged (it is longer than the archive's directory says)")
      }
    default: throw Problem("\(entry.name) is compressed in a way Reckon does not read (method \(entry.method))")
    }
    guard out.count == entry.size, Zip.crc32(out.bytes) == entry.crc else {
      throw Problem("\(entry.name) is damaged (its check sum does not match)")
    }
    return out
  }

  /// `data` inflated (a raw deflate stream) or, with `zstd`, decoded from Zstandard frames, of
  /// at most `limit` bytes; Ctrl-C (`interruption`) is heard after each mebibyte.
  static func decompress(
    _ data: UnsafeRawBufferPointer, zstd: Bool, limit: Int, name: String, interruption: Interruption = .never
  ) throws(Problem) -> DatabaseImage {
    var output: UnsafeMutablePointer<UInt8>?
    var length = 0
    var why = [CChar](repeating: 0, count: 200)
    var interruption = interruption
    let status = withUnsafeMutablePointer(to: &interruption) { context in
      reckon_decompress(
        zstd ? 1 : 0, data.baseAddress?.assumingMemoryBound(to: UInt8.self), data.count, limit,
        DatabaseImage.reallocate, DatabaseImage.release,
        { context in context!.assumingMemoryBound(to: Interruption.self).pointee.isRequested ? 1 : 0 },
        context, &output, &length, &why, why.count)
    }
    let image = DatabaseImage(adopting: output.map { UnsafeMutableRawPointer($0) }, count: length)
    let reason = String(decoding: why.prefix { $0 != 0 }.map { UInt8(bitPattern: $0) }, as: UTF8.self)
    switch status {
    case RECKON_DECOMPRESS_OK: return image
    case RECKON_DECOMPRESS_STOPPED: throw Problem.interrupted
    case RECKON_DECOMPRESS_TOO_LARGE:
      var problem = Problem("\(name) is more than the \(limit >> 20) MiB Reckon reads")
      problem.tooLarge = true
      throw problem
    case RECKON_DECOMPRESS_NO_MEMORY: throw Problem("there is not enough memory to read \(name)")
    case RECKON_DECOMPRESS_NO_LIBRARY: throw Problem("\(name) cannot be read: \(reason)")
    default: throw Problem("\(name) is damaged (\(reason))")
    }
  }

  /// CRC-32 (the zip and PNG polynomial, reflected), eight bytes at a time ("slicing by
  /// eight": a table for each byte's place in the eight), then a byte at a time: about 2 GB
  /// a second, where a byte at a time checked a 45 MB collection in 0.15 s.
  static func crc32(_ bytes: [UInt8]) -> UInt32 { bytes.withUnsafeBytes { crc32($0) } }

  static func crc32(_ buffer: UnsafeRawBufferPointer) -> UInt32 {
    let table = Zip.crcTables
    var crc: UInt32 = 0xFFFF_FFFF
    table.withUnsafeBufferPointer { t in
      var at = 0
      let count = buffer.count
      while count - at >= 8 {
        let one =
          crc
          ^ (UInt32(buffer[at]) | UInt32(buffer[at + 1]) << 8 | UInt32(buffer[at + 2]) << 16
            | UInt32(buffer[at + 3]) << 24)
        let two =
          UInt32(buffer[at + 4]) | UInt32(buffer[at + 5]) << 8 | UInt32(buffer[at + 6]) << 16
          | UInt32(buffer[at + 7]) << 24
        crc =
          t[7 * 256 + Int(one & 0xFF)] ^ t[6 * 256 + Int(one >> 8 & 0xFF)] ^ t[5 * 256 + Int(one >> 16 & 0xFF)]
          ^ t[4 * 256 + Int(one >> 24)] ^ t[3 * 256 + Int(two & 0xFF)] ^ t[2 * 256 + Int(two >> 8 & 0xFF)]
          ^ t[256 + Int(two >> 16 & 0xFF)] ^ t[Int(two >> 24)]
        at += 8
      }
      while at < count {
        crc = t[Int((crc ^ UInt32(buffer[at])) & 0xFF)] ^ (crc >> 8)
        at += 1
      }
    }
    return crc ^ 0xFFFF_FFFF
  }

  /// The eight tables of `crc32`, one after the other: the first is a byte's CRC, and each
  /// next one that of the byte followed by one more zero byte.
  static let crcTables: [UInt32] = {
    var table = [UInt32](repeating: 0, count: 8 * 256)
    for n in 0..<256 {
      var c = UInt32(n)
      for _ in 0..<8 { c = c & 1 != 0 ? 0xEDB8_8320 ^ (c >> 1) : c >> 1 }
      table[n] = c
    }
    for k in 1..<8 {
      for n in 0..<256 {
        let previous = table[(k - 1) * 256 + n]
        table[k * 256 + n] = (previous >> 8) ^ table[Int(previous & 0xFF)]
      }
    }
    return table
  }()

  private func read16(_ at: Int) -> UInt16 { UInt16(bytes[at]) | UInt16(bytes[at + 1]) << 8 }
  private func read32(_ at: Int) -> UInt32 {
    UInt32(bytes[at]) | UInt32(bytes[at + 1]) << 8 | UInt32(bytes[at + 2]) << 16 | UInt32(bytes[at + 3]) << 24
  }
}
