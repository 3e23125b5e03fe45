/// A personality quiz: questions whose answers each point to one outcome; the outcome
/// pointed to most often is the result.
public struct PersonalityQuiz: Sendable, Hashable {
  /// What a user types to start it (`animal`): lowercase letters, digits and `-`.
  public var name: String
  public var title: String
  /// A sentence shown before the first question; may be empty.
  public var description: String
  /// In the order declared: a tie goes to the outcome declared first.
  public var outcomes: [Outcome]
  public var questions: [Question]

  public struct Outcome: Sendable, Hashable {
    public var id: String
    public var name: String
    public var symbol: String
    public var description: String
  }

  /// How a question is answered: one answer by its number, any number of answers (or
  /// none), or a point on a scale from 1 to `steps`.
  public enum Kind: String, Sendable, Hashable, CaseIterable {
    case single, multiple, scale
  }

  /// A slider between two labelled ends. Its points are spread evenly over the question's
  /// answers, which are in order from the low end to the high end.
  public struct Scale: Sendable, Hashable {
    public var steps: Int
    public var low: String
    public var high: String

    /// The answer (an index) that point `step` (1…steps) of the scale picks, for `count`
    /// answers: the points are cut into `count` runs as even as they can be.
    public func answer(at step: Int, of count: Int) -> Int {
      min(count - 1, (step - 1) * count / steps)
    }
  }

  public struct Answer: Sendable, Hashable {
    public var text: String
    /// An index into `outcomes`.
    public var outcome: Int
  }

  public struct Question: Sendable, Hashable {
    public var text: String
    public var kind: Kind
    /// Set for `.scale` questions only.
    public var scale: Scale?
    public var answers: [Answer]
  }

  /// The outcomes ranked by how many answers pointed to them, most first; equal counts
  /// keep the order declared. `counts` has one entry per outcome.
  public func ranking(_ counts: [Int]) -> [Int] {
    outcomes.indices.sorted { counts[$0] != counts[$1] ? counts[$0] > counts[$1] : $0 < $1 }
  }
}
