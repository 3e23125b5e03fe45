import ReckonCore

/// `profile`: the profiles; `profile NAME`: switch to one (created if new), with its settings.
struct ProfileCommand: Command {
  static let help = CommandHelp(
    name: "profile", usage: "profile [NAME]", summary: "show the profiles, or switch to NAME",
    details: """
      profile          the profiles, with the current one marked
      profile ada      switch to ada (created if new): her own settings and progress
      Reckon starts with the profile of your login name (reckon --profile NAME to
      choose another). A name is up to 32 letters, digits, '-', '_' or '.'.
      """)

  static func completions(after words: [Substring], in state: SessionState) -> [String]? {
    words.isEmpty ? ((try? state.store?.profiles()) ?? []).map(\.name) : nil
  }

  /// Nil: list them.
  let name: String?

  init(parsing arguments: Arguments, in state: SessionState) throws(Diagnostic) {
    let words = arguments.words
    guard let word = words.first else {
      name = nil
      return
    }
    if words.count > 1 {
      throw Diagnostic("a profile name is one word", at: words[1].span, hint: "for example: profile ada")
    }
    if let problem = Profiles.problem(with: word.text) {
      throw Diagnostic(problem, at: word.span, hint: "for example: profile ada")
    }
    name = word.text
  }

  func run(in state: inout SessionState) -> ModeStep {
    guard let typed = name else { return .stay(ProfileCommand.list(state)) }
    // Names match whatever their case: Ada and ada are one child.
    func same(_ a: String, _ b: String) -> Bool { a.lowercased() == b.lowercased() }
    if same(typed, state.profile) { return .stay(Reply([.note("Already using profile \(state.profile).")])) }
    var existing: ProfileSummary?
    if let store = state.store {
      do {
        existing = try store.profiles().first { same($0.name, typed) }
        if existing == nil {
          state.prepareStore()
          try store.addProfile(typed, at: state.clock.nowMilliseconds())
        }
      } catch {
        state.notices.append(.warning("the profiles could not be read or saved: \(error.message)"))
      }
    }
    let name = existing?.name ?? typed
    state.profile = name
    state.loadSettings()
    let what: String
    if let existing, let last = existing.lastDay {
      what = "Profile \(name): \(Wording.count(existing.answers, "answer")), the last on \(last.iso)."
    } else if existing != nil {
      what = "Profile \(name)."
    } else {
      what = "New profile \(name). Its progress and settings are kept apart from the others."
    }
    // Notices (a damaged database found while switching) come first, as everywhere.
    return .stay(Reply([.note(what)]))
  }

  static func list(_ state: SessionState) -> Reply {
    var list: [ProfileSummary] = []
    if let store = state.store {
      do {
        list = try store.profiles()
      } catch {
        return Reply([.note("Profile: \(state.profile)"), .warning("the profiles could not be read: \(error.message)")])
      }
    }
    if !list.contains(where: { $0.name == state.profile }) {
      list.append(ProfileSummary(name: state.profile, answers: 0, lastDay: nil))
    }
    var rows = [["profile", "answers", "last practised"]]
    for p in list {
      rows.append([(p.name == state.profile ? "* " : "  ") + p.name, p.answers.grouped, p.lastDay?.iso ?? "–"])
    }
    return Reply([.note("Using profile \(state.profile). Switch with: profile NAME"), .table(rows)])
  }
}
