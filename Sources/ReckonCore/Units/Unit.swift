/// The unit of a quantity: a product of units of the table, each with its prefix and a whole
/// power, kept as the user wrote them (`km/h` is km¹·h⁻¹); a plain number has none.
///
/// It is a small value with no references (up to `capacity` terms in place), so copying a
/// quantity costs no reference counting: the quick path for plain arithmetic stays as fast
/// with every number a quantity.
public struct Unit: Sendable, Hashable {
  /// One unit of the table, with its prefix, to a power (never 0).
  public struct Term: Sendable, Hashable {
    /// Its index in `UnitTable.units`.
    public var unit: UInt16
    /// 0 for none, else 1 + its index in `UnitTable.prefixes`.
    public var prefix: UInt8
    public var power: Int8

    public init(unit: UInt16, prefix: UInt8, power: Int8) {
      self.unit = unit
      self.prefix = prefix
      self.power = power
    }

    /// The same unit and prefix (whatever the power).
    func isSameUnit(as other: Term) -> Bool { unit == other.unit && prefix == other.prefix }
  }

  /// The most terms a unit holds (kg·m²·s⁻³·A⁻¹ is four).
  public static let capacity = 6

  public private(set) var count: Int8 = 0
  /// The terms, in place (a tuple: InlineArray's layout inside an enum's payload crashed a
  /// debug build's reference counting of the values around it).
  private var storage: (Term, Term, Term, Term, Term, Term) = (
    Unit.empty, Unit.empty, Unit.empty, Unit.empty, Unit.empty, Unit.empty
  )
  private static let empty = Term(unit: 0, prefix: 0, power: 0)

  /// Term `i` of the storage (read and write).
  private var terms: Terms {
    get { Terms(storage: storage) }
    set { storage = newValue.storage }
  }

  /// Indexed access to the six places.
  private struct Terms {
    var storage: (Term, Term, Term, Term, Term, Term)
    subscript(i: Int) -> Term {
      get {
        switch i {
        case 0: storage.0
        case 1: storage.1
        case 2: storage.2
        case 3: storage.3
        case 4: storage.4
        default: storage.5
        }
      }
      set {
        switch i {
        case 0: storage.0 = newValue
        case 1: storage.1 = newValue
        case 2: storage.2 = newValue
        case 3: storage.3 = newValue
        case 4: storage.4 = newValue
        default: storage.5 = newValue
        }
      }
    }
  }

  /// The unit of a plain number.
  public static let none = Unit()

  public init() {}

  /// One term.
  public init(_ term: Term) {
    terms[0] = term
    count = 1
  }

  public var isNone: Bool { count == 0 }

  public subscript(i: Int) -> Term { terms[i] }

  /// The terms in order.
  public var termList: [Term] { (0..<Int(count)).map { terms[$0] } }

  /// This unit times `other`: a term's powers added where it appears in both (and dropped at
  /// 0); nil when it would hold more than `capacity` terms, or a power past 60.
  public func multiplied(by other: Unit) -> Unit? {
    var result = self
    for i in 0..<Int(other.count) {
      guard result.add(other.terms[i]) else { return nil }
    }
    return result
  }

  /// This unit divided by `other`.
  public func divided(by other: Unit) -> Unit? { other.power(-1).flatMap(multiplied) }

  /// This unit to the power `n`; nil past a power of 60.
  public func power(_ n: Int) -> Unit? {
    if n == 0 { return Unit.none }
    var result = self
    for i in 0..<Int(count) {
      let p = Int(terms[i].power) * n
      guard Swift.abs(p) <= 60 else { return nil }
      result.terms[i].power = Int8(p)
    }
    return result
  }

  /// Adds a term (merging it with the same unit and prefix); false when full or too large.
  private mutating func add(_ term: Term) -> Bool {
    for i in 0..<Int(count) where terms[i].isSameUnit(as: term) {
      let p = Int(terms[i].power) + Int(term.power)
      guard Swift.abs(p) <= 60 else { return false }
      if p == 0 {
        remove(at: i)
      } else {
        terms[i].power = Int8(p)
      }
      return true
    }
    guard Int(count) < Unit.capacity else { return false }
    terms[Int(count)] = term
    count += 1
    return true
  }

  private mutating func remove(at index: Int) {
    for i in index..<(Int(count) - 1) { terms[i] = terms[i + 1] }
    count -= 1
  }

  public static func == (a: Unit, b: Unit) -> Bool {
    guard a.count == b.count else { return false }
    for i in 0..<Int(a.count) where a.terms[i] != b.terms[i] { return false }
    return true
  }

  public func hash(into hasher: inout Hasher) {
    hasher.combine(count)
    for i in 0..<Int(count) { hasher.combine(terms[i]) }
  }
}

extension Unit: CustomStringConvertible {
  /// The unit as Reckon writes it, with the built-in table's symbols: `km/h`, `m²`, `kg·m/s²`.
  public var description: String { text(in: .standard) }

  /// The unit written with `table`'s symbols.
  public func text(in table: UnitTable) -> String {
    func power(_ n: Int) -> String {
      guard n != 1 else { return "" }
      let superscripts: [Character] = ["⁰", "¹", "²", "³", "⁴", "⁵", "⁶", "⁷", "⁸", "⁹"]
      return String(String(n).map { $0 == "-" ? "⁻" : superscripts[Int(String($0))!] })
    }
    let list = termList
    let above = list.filter { $0.power > 0 }.map { table.symbol(of: $0) + power(Int($0.power)) }
    let below = list.filter { $0.power < 0 }.map { table.symbol(of: $0) + power(-Int($0.power)) }
    if above.isEmpty && below.isEmpty { return "" }
    // Only negative powers: s⁻¹, kg⁻¹·m⁻³ (a leading "1/" would not read back after a number).
    if above.isEmpty {
      return list.map { table.symbol(of: $0) + power(Int($0.power)) }.joined(separator: "·")
    }
    let top = above.joined(separator: "·")
    if below.isEmpty { return top }
    return top + "/" + (below.count == 1 ? below[0] : "(" + below.joined(separator: "·") + ")")
  }
}
