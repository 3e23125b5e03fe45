import ReckonCore

/// What the flashcard decks keep, asked of the store (ReckonStore's `Modes/Cards.swift` runs
/// them): a row a card (its question and answer, and its FSRS schedule) and a row a review,
/// each saved as it is given, with the card's schedule before it, so that `undo` can put it
/// back.
public enum Decks {
  /// Which card: its deck, its note (Anki's guid, or its front's fingerprint), which card of
  /// the note (a cloze number; 1 for a basic note) and whether it asks back to front.
  public struct Key: Sendable, Equatable {
    public var deck: String
    public var note: String
    public var ordinal: Int
    public var reverse: Bool

    public init(deck: String, note: String, ordinal: Int, reverse: Bool) {
      self.deck = deck
      self.note = note
      self.ordinal = ordinal
      self.reverse = reverse
    }

    /// The key as one string, for a dictionary of cards (a key is not `Hashable`: the binary
    /// would pay for it everywhere).
    var id: String { "\(deck)\u{1F}\(note)\u{1F}\(ordinal)\u{1F}\(reverse)" }
  }

  /// A card's FSRS schedule as kept, and how often it was reviewed and forgotten.
  public struct Schedule: Sendable, Equatable {
    public var phase: Int
    public var step: Int?
    public var stability: Double?
    public var difficulty: Double?
    public var due: Int64
    public var lastReview: Int64?
    public var reviews: Int
    public var lapses: Int

    public init(
      phase: Int, step: Int?, stability: Double?, difficulty: Double?, due: Int64, lastReview: Int64?, reviews: Int,
      lapses: Int
    ) {
      self.phase = phase
      self.step = step
      self.stability = stability
      self.difficulty = difficulty
      self.due = due
      self.lastReview = lastReview
      self.reviews = reviews
      self.lapses = lapses
    }
  }

  public struct Card: Sendable {
    public var key: Key
    public var question: String
    public var answer: String
    public var tags: String
    public var schedule: Schedule
    /// A cloze card's note, the text with its `{{cN::…}}` deletions (nil for a basic card):
    /// what `cards export` writes back.
    public var cloze: String?

    /// About what the card takes in the profile: its texts, its deck three times and its
    /// note twice (the table and its two indexes), and 64 bytes for the rest of its row.
    public var storedBytes: Int {
      question.utf8.count + answer.utf8.count + tags.utf8.count + (cloze?.utf8.count ?? 0) + 3 * key.deck.utf8.count
        + 2 * key.note.utf8.count + 64
    }

    public init(key: Key, question: String, answer: String, tags: String, schedule: Schedule, cloze: String? = nil) {
      self.key = key
      self.question = question
      self.answer = answer
      self.tags = tags
      self.schedule = schedule
      self.cloze = cloze
    }
  }

  /// Loads a deck's cards: new ones are added (due now), those of a note already there get
  /// its new text and keep their schedule and history. Answers the counts. `interruption`
  /// (Ctrl-C) is asked every thousand cards: when it says to stop, the write fails and
  /// nothing of it is kept (it is saved with `saveOnce`, never kept to be tried again).
  public struct Load: StoreWrite {
    public typealias Answer = LoadCounts
    public var profile: String
    public var cards: [Card]
    public var at: Int64
    public var interruption = Interruption.never
  }

  public struct LoadCounts: Sendable {
    public var added = 0
    public var updated = 0
    public var unchanged = 0

    public init() {}
  }

  /// The profile's decks with their counts: cards in review due before `dueBefore` (the
  /// start of tomorrow, local time) are due.
  public struct All: StoreRead {
    public typealias Answer = [Summary]
    public var profile: String
    public var dueBefore: Int64
  }

  public struct Summary: Sendable {
    public var deck: String
    public var cards: Int
    /// Never reviewed.
    public var new: Int
    /// In their learning or relearning steps.
    public var learning: Int
    /// In review and due before `dueBefore`.
    public var due: Int

    public init(deck: String, cards: Int, new: Int, learning: Int, due: Int) {
      self.deck = deck
      self.cards = cards
      self.new = new
      self.learning = learning
      self.due = due
    }
  }

  /// A deck's cards, one direction.
  public struct Cards: StoreRead {
    public typealias Answer = [Card]
    public var profile: String
    public var deck: String
    public var reverse: Bool
  }

  /// A review: the rating, when and how long it took, and the card's schedule before and
  /// after, in one transaction.
  public struct Review: StoreWrite {
    public typealias Answer = Void
    public var profile: String
    public var key: Key
    public var rating: Int
    public var at: Int64
    public var milliseconds: Int64
    public var before: Schedule
    public var after: Schedule
  }

  /// Takes back the review given at `at`: the card's schedule goes back to what it was.
  public struct Undo: StoreWrite {
    public typealias Answer = Void
    public var profile: String
    public var key: Key
    public var at: Int64
    public var before: Schedule
  }
}

extension Decks {
  /// Deletes a deck: its cards and their reviews. Answers how many of each went.
  public struct Delete: StoreWrite {
    public typealias Answer = (cards: Int, reviews: Int)
    public var profile: String
    public var deck: String
  }

  /// Every review given (and not taken back), oldest first: of one deck, or of all of them.
  public struct ReviewLog: StoreRead {
    public typealias Answer = [LoggedReview]
    public var profile: String
    public var deck: String?
  }

  public struct LoggedReview: Sendable, Equatable {
    public var key: Key
    public var rating: Int
    public var at: Int64
    public var milliseconds: Int64

    public init(key: Key, rating: Int, at: Int64, milliseconds: Int64) {
      self.key = key
      self.rating = rating
      self.at = at
      self.milliseconds = milliseconds
    }
  }
}

extension Decks {
  /// The FSRS weights `cards DECK optimize` fitted to a deck's reviews; nil while it has
  /// none (the defaults serve).
  public struct Weights: StoreRead {
    public typealias Answer = [Double]?
    public var profile: String
    public var deck: String
    public var nothingSaved: [Double]? { nil }
  }

  /// Keeps a deck's fitted weights, with how many reviews they were fitted to and their log
  /// loss.
  public struct SaveWeights: StoreWrite {
    public typealias Answer = Void
    public var profile: String
    public var deck: String
    public var weights: [Double]
    public var reviews: Int
    public var logLoss: Double
    public var at: Int64
  }
}
