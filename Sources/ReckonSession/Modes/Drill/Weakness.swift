/// How weak a fact is, from its whole record: what `drill weak`, `drill review` and the
/// `Weakest:` line of `stats` rank by.
///
/// The rule: a fact's weakness is the share of its answers that were wrong, counting each
/// time its answer was shown as one more wrong answer, and smoothed as if it had one more
/// right and one more wrong, so that one answer is not a verdict:
/// (wrong + shown + 1) / (answers + shown + 2). The weakest come first; between equals, the
/// one in the lower Leitner box, then the one answered more slowly on average.
///
/// A fact with no record scores 1/2; one answered right once, 1/3. The box is a tie-break
/// only: it says when a fact was last missed or shown, not how often.
public struct FactRecord: Sendable, Hashable {
  public var right: Int
  public var wrong: Int
  /// How often the answer was shown instead of given.
  public var shown: Int
  /// The Leitner box (1 when none is saved).
  public var box: Int
  /// All its answers' time together.
  public var milliseconds: Int64

  public init(right: Int, wrong: Int, shown: Int, box: Int, milliseconds: Int64 = 0) {
    self.right = right
    self.wrong = wrong
    self.shown = shown
    self.box = box
    self.milliseconds = milliseconds
  }

  /// A fact's record from what the store keeps: its answers and showings, and its box.
  public init(_ totals: ItemTotals?, _ state: FactState?) {
    let totals = totals ?? ItemTotals(answered: 0, right: 0, milliseconds: 0)
    self.init(
      right: totals.right, wrong: totals.answered - totals.right, shown: totals.shown, box: state?.box ?? 1,
      milliseconds: totals.milliseconds)
  }

  public var answered: Int { right + wrong }

  /// The weakness as a fraction: (wrong + shown + 1) / (answers + shown + 2).
  public var weakness: (numerator: Int, denominator: Int) {
    (wrong + shown + 1, answered + shown + 2)
  }

  /// Whether this record is weaker than `other` by the rule (false for equals).
  public func isWeaker(than other: FactRecord) -> Bool {
    let (a, b) = (weakness, other.weakness)
    let (left, right) = (a.numerator * b.denominator, b.numerator * a.denominator)
    if left != right { return left > right }
    if box != other.box { return box < other.box }
    // Slower on average: milliseconds / answered, compared without dividing. A fact never
    // answered has no time, and is slower than none.
    guard answered > 0 else { return false }
    guard other.answered > 0 else { return milliseconds > 0 }
    return milliseconds * Int64(other.answered) > other.milliseconds * Int64(answered)
  }

  /// Whether `stats` names it among the weakest: weaker than a fact answered right once (1/3),
  /// that is, missed or shown at least once for every two right answers.
  public var isWorthNaming: Bool {
    3 * weakness.numerator > weakness.denominator
  }
}
