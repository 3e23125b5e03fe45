/// The unit of a quantity: a product of named units, each to a whole power, kept as the user
/// wrote them (`km/h` is km¹·h⁻¹), with the dimension they make. A plain number has the
/// empty unit.
///
/// (The design step of issue 26: every number is a quantity. The unit table, prefixes and
/// conversions build on this type.)
public struct Unit: Sendable, Hashable {
  /// The unit's factors in the order written; none for a plain number.
  public internal(set) var terms: [Term]

  /// One named unit to a power (never 0).
  public struct Term: Sendable, Hashable {
    public var name: String
    public var power: Int
  }

  /// The unit of a plain number.
  public static let none = Unit(terms: [])

  /// Whether this is the unit of a plain number.
  public var isNone: Bool { terms.isEmpty }
}

extension Unit {
  /// This unit times `other`: the terms of both, a unit's powers added where it appears in
  /// both, and dropped where they come to 0.
  public func multiplied(by other: Unit) -> Unit {
    var terms = self.terms
    for term in other.terms {
      if let i = terms.firstIndex(where: { $0.name == term.name }) {
        terms[i].power += term.power
        if terms[i].power == 0 { terms.remove(at: i) }
      } else {
        terms.append(term)
      }
    }
    return Unit(terms: terms)
  }

  /// This unit divided by `other`.
  public func divided(by other: Unit) -> Unit { multiplied(by: other.power(-1)) }

  /// This unit to the power `n`.
  public func power(_ n: Int) -> Unit {
    n == 0 ? .none : Unit(terms: terms.map { Term(name: $0.name, power: $0.power * n) })
  }
}

extension Unit: CustomStringConvertible {
  /// The unit as Reckon writes it: `km/h`, `m²`, `kg·m/s²`.
  public var description: String {
    func power(_ n: Int) -> String {
      guard n != 1 else { return "" }
      let superscripts: [Character] = ["⁰", "¹", "²", "³", "⁴", "⁵", "⁶", "⁷", "⁸", "⁹"]
      return String(String(n).map { $0 == "-" ? "⁻" : superscripts[Int(String($0))!] })
    }
    let above = terms.filter { $0.power > 0 }.map { $0.name + power($0.power) }
    let below = terms.filter { $0.power < 0 }.map { $0.name + power(-$0.power) }
    if above.isEmpty && below.isEmpty { return "" }
    let top = above.isEmpty ? "1" : above.joined(separator: "·")
    if below.isEmpty { return top }
    return top + "/" + (below.count == 1 ? below[0] : "(" + below.joined(separator: "·") + ")")
  }
}
