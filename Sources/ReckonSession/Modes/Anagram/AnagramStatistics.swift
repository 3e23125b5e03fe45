import ReckonCore

/// `stats anagram`: the rounds of the current profile.
enum AnagramStatistics {
  static func report(for state: SessionState) -> [Output] {
    guard let store = state.store else {
      return [.note("Progress is not being saved in this session, so there are no statistics.")]
    }
    let rounds: [AnagramRecord]
    do {
      rounds = try store.anagramRounds(profile: state.profile)
    } catch {
      return [.warning("the statistics could not be read: \(error.message)")]
    }
    guard !rounds.isEmpty else { return [.note("No anagram rounds yet for \(state.profile). Start with: anagram")] }
    let solved = rounds.reduce(0) { $0 + $1.solved }
    let played = rounds.reduce(0) { $0 + $1.played }
    var outputs: [Output] = [
      .note(
        "Anagrams for \(state.profile): \(Wording.count(rounds.count, "round")), \(solved.grouped) of "
          + "\(Wording.count(played, "word")) solved (\(Wording.percent(solved, of: played))).")
    ]
    // The usual levels first, then any others (from the user's table) by name.
    let known = AnagramLevels.defaults.map(\.name)
    let levels =
      known.filter { name in rounds.contains { $0.level == name } }
      + Set(rounds.map(\.level)).subtracting(known).sorted()
    var rows = [["level", "rounds", "best", "average", "solved"]]
    for level in levels {
      let mine = rounds.filter { $0.level == level }
      let total = mine.reduce(0) { $0 + $1.score }
      let (s, p) = (mine.reduce(0) { $0 + $1.solved }, mine.reduce(0) { $0 + $1.played })
      rows.append([
        level, "\(mine.count)", "\(mine.map(\.score).max()!)", "\((total + mine.count / 2) / mine.count)",
        Wording.percent(s, of: p),
      ])
    }
    outputs.append(.table(rows))
    outputs.append(.note("Last rounds:"))
    var recent = [["date", "level", "score", "solved"]]
    for round in rounds.suffix(10).reversed() {
      let state = round.finished ? "" : " (left)"
      recent.append([round.day.shortLabel, round.level, "\(round.score)", "\(round.solved) of \(round.played)\(state)"])
    }
    outputs.append(.table(recent))
    return outputs
  }
}
