/// Who pays whom so that everyone has paid their share: the fewest transfers.
///
/// With balances (paid less owed, in cents, adding up to zero), a group of people whose
/// balances add up to zero can be squared among themselves with one transfer fewer than its
/// size, and no better; so the fewest transfers is the number of people with a balance less
/// the most groups they can be split into that each add up to zero. For up to
/// `exactLimit` such people that split is found exactly, over every subset (2^12 = 4,096
/// of them, a few microseconds); past it, by pairing the largest debt with the largest
/// credit, which never takes more than one fewer transfers than people.
enum Settlement {
  struct Transfer: Sendable, Equatable {
    /// Indexes of the people, in the bill's order.
    var from: Int
    var to: Int
    var cents: Int
  }

  static let exactLimit = 12

  /// The transfers that bring every balance to zero, in a fixed order: by group (the group of
  /// the first person with a balance first), then the largest debt and credit first.
  static func transfers(balances: [Int]) -> [Transfer] {
    let people = balances.indices.filter { balances[$0] != 0 }
    guard !people.isEmpty else { return [] }
    let groups = people.count <= exactLimit ? zeroSumGroups(people, balances) : [people]
    return groups.flatMap { squared($0, balances) }
  }

  /// The people split into as many groups as can be that each add up to zero: a dynamic
  /// programme over the subsets, where `best[mask]` is the most zero-sum groups that the
  /// people of `mask` can be ordered into so that every prefix ending a group adds up to
  /// zero.
  static func zeroSumGroups(_ people: [Int], _ balances: [Int]) -> [[Int]] {
    let n = people.count
    let full = (1 << n) - 1
    var sum = [Int](repeating: 0, count: 1 << n)
    var best = [Int](repeating: 0, count: 1 << n)
    for mask in 1...full {
      let low = mask.trailingZeroBitCount
      sum[mask] = sum[mask & (mask - 1)] + balances[people[low]]
      var most = 0
      var rest = mask
      while rest != 0 {
        let bit = rest & -rest
        most = max(most, best[mask ^ bit])
        rest ^= bit
      }
      best[mask] = most + (sum[mask] == 0 ? 1 : 0)
    }
    // Back from the whole: take a person off while the count stays reachable; each time the
    // people left add up to zero, a group ends there.
    var groups: [[Int]] = []
    var mask = full
    var group: [Int] = []
    while mask != 0 {
      let needed = best[mask] - (sum[mask] == 0 ? 1 : 0)
      var rest = mask
      var taken = 0
      while rest != 0 {
        let bit = rest & -rest
        if best[mask ^ bit] == needed {
          taken = bit
          break
        }
        rest ^= bit
      }
      group.append(people[taken.trailingZeroBitCount])
      mask ^= taken
      if sum[mask] == 0 {
        groups.append(group.sorted())
        group = []
      }
    }
    return groups.sorted { $0[0] < $1[0] }
  }

  /// Transfers that square one group adding up to zero, one fewer than its size at most: the
  /// largest debt pays the largest credit, as much as it can, and again.
  static func squared(_ group: [Int], _ balances: [Int]) -> [Transfer] {
    var debts = group.filter { balances[$0] < 0 }.map { ($0, -balances[$0]) }
    var credits = group.filter { balances[$0] > 0 }.map { ($0, balances[$0]) }
    var transfers: [Transfer] = []
    while let d = largest(debts), let c = largest(credits) {
      let amount = min(debts[d].1, credits[c].1)
      transfers.append(Transfer(from: debts[d].0, to: credits[c].0, cents: amount))
      debts[d].1 -= amount
      credits[c].1 -= amount
      if debts[d].1 == 0 { debts.remove(at: d) }
      if credits[c].1 == 0 { credits.remove(at: c) }
    }
    return transfers
  }

  /// The index of the largest amount (the earlier of equal ones).
  private static func largest(_ list: [(Int, Int)]) -> Int? {
    list.indices.max { list[$0].1 < list[$1].1 || (list[$0].1 == list[$1].1 && $0 > $1) }
  }
}
