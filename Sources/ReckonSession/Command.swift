/// A command word: reserved, completable, and documented by `help`.
public struct Command: Sendable, Hashable {
  public let name: String
  public let aliases: [String]
  public let usage: String
  public let summary: String
  /// Longer help, shown by `help NAME`.
  public let details: String
  /// Whether anything may follow the command word.
  public var takesArguments: Bool {
    !["vars", "clear", "reset", "mr", "mc", "quit"].contains(name)
  }

  /// Every command, in the order `help` lists them.
  public static let all: [Command] = [
    Command(
      name: "help", aliases: ["?"], usage: "help [topic]", summary: "this list, or help on a command or topic",
      details: """
        Topics: a command or function name, or: functions, operators, percent,
        numbers, variables, keys.
        Examples: help tip, help functions, help percent
        """),
    Command(
      name: "vars", aliases: [], usage: "vars", summary: "list your variables, ans and memory",
      details: "Shows the variables you have set, the last result (ans) and the memory."),
    Command(
      name: "clear", aliases: [], usage: "clear", summary: "clear the screen (keeps everything)",
      details: "Clears the terminal. Variables, ans, memory and settings stay as they are."),
    Command(
      name: "reset", aliases: [], usage: "reset", summary: "forget variables, ans and memory",
      details: "Forgets every variable, the last result and the memory. Settings stay."),
    Command(
      name: "m+", aliases: [], usage: "m+ [expr]", summary: "add ans (or expr) to memory",
      details: "Adds the last result, or the value of expr, to the memory (M+)."),
    Command(
      name: "m-", aliases: [], usage: "m- [expr]", summary: "subtract ans (or expr) from memory",
      details: "Subtracts the last result, or the value of expr, from the memory register."),
    Command(
      name: "mr", aliases: [], usage: "mr", summary: "recall memory (it becomes ans)",
      details: "Shows the memory register; it becomes ans, so '* 2' works next."),
    Command(
      name: "mc", aliases: [], usage: "mc", summary: "clear memory",
      details: "Sets the memory register back to empty."),
    Command(
      name: "full", aliases: [], usage: "full [expr]", summary: "show ans (or expr) in full",
      details: """
        full          ans with every digit, whatever set digits and set format say
        full 1/8      the value of an expression in full (it becomes ans)
        An integer or a decimal that ends: every digit (10000*1.07^30 prints
        76122.55042…, and full then shows all 60 of its decimals). A value
        whose decimals repeat forever: its fraction, and its decimals with the
        repeating part in brackets: full 1/6 is 1/6 = 0.1[6] (up to 10,000
        decimals). A multiple of π or e: its exact form, 2π ≈ 6.283185307.
        An approximation (≈) has no full form: set digits N shows more digits.
        """),
    Command(
      name: "set", aliases: [], usage: "set [setting] [value]", summary: "change a setting",
      details: """
        set                    show the settings
        set digits N           significant digits for results that are cut or
                               approximate (1 to 10,000; default 10)
        set tips P…            the percentages of a tip table (1 to 8; default
                               10 15 18 20)
        set format auto        decimals in full when they fit the digits, else
                               cut with … (the default)
        set format fixed N     N decimals (0 to 1,000), rounded half away from
                               zero; a rounded value is marked ≈ (fixed 2 for
                               money: 1896.2 is 1896.20, 2/3 is ≈ 0.67)
        set format sci         scientific: 1896.2 is 1.896200000e3
        set format eng         engineering: the exponent a multiple of 3,
                               18962.5 is 18.96250000e3
        set separators on|off  group digits in threes: 1,234,567.5 (off by
                               default; results with commas do not read back)
        Integers always print in full, as integers, in every format.
        Settings are saved for your profile.
        """),
    Command(
      name: "tip", aliases: [], usage: "tip [amount] [P%] [split N] [round]",
      summary: "tip table, or tip and total at P%",
      details: """
        tip 50               a table: tip and total at each preset percentage
        tip 50 18%           the tip and the total at 18%
        tip 42.50+17.25 18%  any expression as the amount; without one, ans
        tip 50 18% split 3   …and each person's share, to the cent
        tip 50 18% round     round the total up to a whole unit (and say the %)
        Money is rounded half away from zero to the cent, once: amount + tip =
        total as shown.
        With a percentage, the total (or the largest share) becomes ans.
        """),
    Command(
      name: "split", aliases: [], usage: "split [amount] N", summary: "divide a bill among N people, to the cent",
      details: """
        split 100 3   two pay 33.33, one pays 33.34: shares add up to the amount
        split 4       splits ans four ways: one number is always the number of
                      people, and the reply starts with ans to say so
        The largest share becomes ans.
        """),
    Command(
      name: "factor", aliases: [], usage: "factor [n]", summary: "the prime factors of a whole number",
      details: """
        factor 360    360 = 2^3 × 3^2 × 5
        factor        the prime factors of ans
        Trial division, then Pollard's rho for up to a few seconds' worth of steps:
        a part no factor of which turns up in time is shown as it is, with its
        size. Primes above 2^64 are found by a Baillie–PSW test, which has no
        known counterexample. Also isprime(n) in an expression.
        """),
    Command(
      name: "drill", aliases: [], usage: "drill [tables] [options]", summary: "times-table flashcards",
      details: """
        drill            the drill you did last (at first: tables 2–9, × up to 12,
                         in order, until you quit)
        drill 7          the 7 table;  drill 2-12  tables 2 to 12;  drill all  2–9
        drill 7 8        the 7 and 8 tables (also drill 7,8 or drill 7 and 8);
                         drill 3-5,8  tables 3 to 5 and 8
        max N            the largest second number (at first 12)
        random | order   shuffled (every fact once before any comes again) or in order
        count N          a round of N questions;  endless  until you quit
        + | - | ÷ | ×    add, subtract, divide (range N: up to N) or multiply
        drill review     the facts due for review, weakest first
        drill weak       the ten facts you know least
        The tables on one line are the list drilled. Options you leave out are kept
        from your last drill: drill 7 after drill 2-12 random count 20 asks the
        7 table at random, 20 questions.
        Type the answer; Enter alone shows it (not scored); skip; stats; quit ends
        with a summary. A missed fact comes back 3 to 5 questions later until you
        get it right. Every answer is saved to your profile as you give it.
        Facts move through five Leitner boxes: a right answer on a fact that is due
        moves it up a box (due again 1, 3, 7, then 14 days later); a wrong answer,
        or showing the answer, sends it back to box 1. The weakest facts are those
        missed most for their answers (a shown answer counts as missed).
        """),
    Command(
      name: "quiz", aliases: [], usage: "quiz [level] [category] [count N]",
      summary: "a round of multiple-choice trivia",
      details: """
        quiz                  10 questions, all difficulties and categories mixed
        quiz hard             one level (easy, medium, hard);  quiz geography
        quiz sci easy count 5 a category by the start of its name, 5 questions
        quiz categories       the categories, with how many questions each has
        quiz load FILE        add questions from a file for this session:
                              star-separated (category*difficulty*question*
                              correctAnswer*incorrect1*incorrect2*incorrect3),
                              the same columns as CSV, or Open Trivia DB JSON
        Answer with the letter (a–d) or the answer itself, in any case, with or
        without accents; skip; stats; quit ends with a summary. Every answer is
        saved; you are asked the questions you have seen least first, so none
        comes back before all that match have been asked.
        """),
    Command(
      name: "daily", aliases: [], usage: "daily [easy|medium|hard]", summary: "today's three daily challenges",
      details: """
        daily         today's challenges: open, in progress (with the time so
                      far), or done (right or wrong, and the time taken)
        daily easy    start or resume today's easy one (also medium, hard)
        The same question for everyone on the same date. The clock runs while
        the question is on screen and shows on the prompt; pause hides the
        question and stops it, resume brings both back. Leave (quit, Ctrl-D)
        and come back the same day to carry on where you were. One answer a
        day; 60:00 without one counts as wrong. stats quiz shows your streak.
        """),
    Command(
      name: "personality", aliases: [], usage: "personality [NAME] [shuffle]",
      summary: "which animal are you? and other quizzes",
      details: """
        personality              the quizzes, with your last result in each
        personality animal       take one (a name's start is enough)
        personality animal shuffle
                                 questions and answers in a random order
        personality load FILE    add a quiz of your own from a JSON file for
                                 this session (its format is in the README)
        Answer with numbers: one for most questions, any number (1 3 or 1,3, or
        none) where it says all that apply, one point of a scale for a scale.
        back changes the last answer; quit leaves without a result. The result
        is the outcome your answers chose most (a tie goes to the one the quiz
        lists first), with the runner-up; it is saved (stats personality).
        """),
    Command(
      name: "anagram", aliases: [], usage: "anagram [easy|medium|hard]",
      summary: "unscramble ten words against the clock",
      details: """
        anagram          a round of 10 words at easy (4–5 letters, 60 s a word,
                         10 points a letter); medium: 6, 45 s, 15; hard: 7–8,
                         30 s, 20
        anagram levels   the level table
        Type any word of the list made of exactly the tiles' letters. Right: the
        word's points; wrong: minus half of them (never below 0). hint places the
        next letter (one letter's points); shuffle; skip shows the word (no
        points). The time left shows on the prompt. The score is saved as you
        go; stats anagram shows your best and your rounds.
        Your own levels: a file anagram-levels.txt in Reckon's settings folder
        (anagram levels says where), a line a level: name letters seconds
        points, like  hard 7-9 40 25  (a new name adds a level).
        reckon --words FILE plays with another word list.
        """),
    Command(
      name: "stats", aliases: [], usage: "stats [drill|quiz|…]", summary: "your progress in a game, day by day",
      details: """
        stats (or stats drill), for the current profile: answers and accuracy; a
        2–12 times-table grid of how well each fact is known (● known, ◐ getting
        there, ○ learning, · not practised; in colour on a terminal); answers a
        day over the last 14 days; the streak of days practised; the weakest
        facts; and how many are due for review. Also works inside a drill.
        stats quiz: questions answered, accuracy by difficulty and category, the
        daily streak (days with all three challenges answered), best and median
        daily times, and the last 14 days of daily results.
        stats anagram: rounds, best and average scores by level, the last rounds.
        stats personality: your personality results, newest first.
        """),
    Command(
      name: "profile", aliases: [], usage: "profile [NAME]", summary: "show the profiles, or switch to NAME",
      details: """
        profile          the profiles, with the current one marked
        profile ada      switch to ada (created if new): her own settings and progress
        Reckon starts with the profile of your login name (reckon --profile NAME to
        choose another). A name is up to 32 letters, digits, '-', '_' or '.'.
        """),
    Command(
      name: "quit", aliases: ["exit"], usage: "quit", summary: "leave Reckon (also exit, Ctrl-D)",
      details: "Leaves Reckon. Ctrl-D on an empty line does the same."),
  ]

  /// Every word that starts a command, aliases included.
  public static let words: Set<String> = Set(all.flatMap { [$0.name] + $0.aliases })

  /// What to say when a line typed inside a mode starts with a calculator command: how to get
  /// back to the calculator, then `here` (what the mode wants instead). Nil for other lines.
  static func typedInMode(_ input: String, here: String) -> String? {
    let first = String(input.prefix { $0 != " " }).lowercased()
    guard words.contains(first) else { return nil }
    return "'\(input)' is a calculator command: quit first, then type it at reckon>. \(here)"
  }

  /// The command a word names, if any.
  public static func named(_ word: String) -> Command? {
    all.first { $0.name == word || $0.aliases.contains(word) }
  }
}
