import ReckonCore

/// `stats personality`: the results of the current profile.
enum PersonalityStatistics {
  static func report(for state: SessionState) -> [Output] {
    guard let store = state.store else {
      return [.note("Progress is not being saved in this session, so there are no results.")]
    }
    let results: [PersonalityRecord]
    do {
      results = try store.personalityResults(profile: state.profile)
    } catch {
      return [.warning("the results could not be read: \(error.message)")]
    }
    guard !results.isEmpty else {
      return [.note("No personality results yet for \(state.profile). Start with: personality")]
    }
    var rows = [["date", "quiz", "title", "result", "runner-up"]]
    for result in results.suffix(20).reversed() {
      rows.append([
        result.day.shortLabel, result.quiz, result.title, "\(result.outcome) \(result.symbol)",
        result.runnerUp.isEmpty ? "–" : result.runnerUp,
      ])
    }
    let more = results.count > 20 ? " (the last 20)" : ""
    return [.note("Personality results for \(state.profile), newest first\(more):"), .table(rows)]
  }
}
