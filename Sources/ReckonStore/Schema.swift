import GRDB

/// The database's shape, one migration per change, from day one. Never edit a migration
/// that has shipped: add the next one.
enum Schema {
  static var migrator: DatabaseMigrator {
    var migrator = DatabaseMigrator()
    migrator.registerMigration("v1: profiles, settings, answers, fact states") { db in
      try db.create(table: "profile") { t in
        t.primaryKey("name", .text)
        t.column("createdAt", .integer).notNull()  // milliseconds since 1970
      }
      try db.create(table: "setting") { t in
        t.column("profile", .text).notNull().references("profile", onDelete: .cascade)
        t.column("key", .text).notNull()
        t.column("value", .text).notNull()
        t.primaryKey(["profile", "key"])
      }
      // Every answer ever given, in any mode.
      try db.create(table: "answer") { t in
        t.autoIncrementedPrimaryKey("id")
        t.column("profile", .text).notNull().references("profile", onDelete: .cascade).indexed()
        t.column("mode", .text).notNull()
        t.column("item", .text).notNull()
        t.column("given", .text).notNull()
        t.column("correct", .boolean).notNull()
        t.column("milliseconds", .integer).notNull()
        t.column("answeredAt", .integer).notNull()
      }
      // Per profile and fact, the learning state (a Leitner box and when it is next due).
      try db.create(table: "factState") { t in
        t.column("profile", .text).notNull().references("profile", onDelete: .cascade)
        t.column("mode", .text).notNull()
        t.column("item", .text).notNull()
        t.column("box", .integer).notNull()
        t.column("dueAt", .integer).notNull()
        t.primaryKey(["profile", "mode", "item"])
      }
    }
    // Streaks and charts count local days, and the day an answer was given is fixed by the
    // clock of the session that gave it: keep it with the answer. Earlier answers get the
    // day SQLite computes in this machine's time zone.
    migrator.registerMigration("v2: the local day of each answer") { db in
      try db.alter(table: "answer") { t in
        t.add(column: "day", .integer).notNull().defaults(to: 0)  // days since 1970-01-01, local time
      }
      try db.execute(
        sql: """
          UPDATE answer SET day =
            CAST(strftime('%s', date(answeredAt / 1000, 'unixepoch', 'localtime')) AS INTEGER) / 86400
          """)
      try db.create(index: "answer_by_day", on: "answer", columns: ["profile", "mode", "day"])
    }
    // The trivia quiz: each answer's category and difficulty, and the daily challenges.
    migrator.registerMigration("v3: trivia answers and daily challenges") { db in
      try db.alter(table: "answer") { t in
        t.add(column: "category", .text)
        t.add(column: "difficulty", .text)
      }
      try db.create(table: "daily") { t in
        t.column("profile", .text).notNull().references("profile", onDelete: .cascade)
        t.column("day", .integer).notNull()  // days since 1970-01-01, local time
        t.column("difficulty", .text).notNull()
        t.column("item", .text).notNull()  // the question's key
        t.column("elapsed", .integer).notNull()  // milliseconds on screen, paused time left out
        t.column("finished", .boolean).notNull()
        t.column("correct", .boolean).notNull()
        t.column("given", .text).notNull()
        t.column("updatedAt", .integer).notNull()
        t.primaryKey(["profile", "day", "difficulty"])
      }
    }
    // Personality quiz results and anagram rounds.
    migrator.registerMigration("v4: personality results and anagram rounds") { db in
      try db.create(table: "personality") { t in
        t.autoIncrementedPrimaryKey("id")
        t.column("profile", .text).notNull().references("profile", onDelete: .cascade).indexed()
        t.column("quiz", .text).notNull()  // the quiz's name
        t.column("title", .text).notNull()
        t.column("outcome", .text).notNull()  // the outcome's name as shown
        t.column("symbol", .text).notNull()
        t.column("runnerUp", .text).notNull()  // empty when there was none
        t.column("takenAt", .integer).notNull()  // milliseconds since 1970
        t.column("day", .integer).notNull()  // days since 1970-01-01, local time
      }
      try db.create(table: "anagramRound") { t in
        t.column("profile", .text).notNull().references("profile", onDelete: .cascade)
        t.column("startedAt", .integer).notNull()  // milliseconds since 1970
        t.column("day", .integer).notNull()
        t.column("level", .text).notNull()
        t.column("score", .integer).notNull()
        t.column("solved", .integer).notNull()
        t.column("played", .integer).notNull()
        t.column("finished", .boolean).notNull()
        t.primaryKey(["profile", "startedAt"])
      }
    }
    // How often each fact's answer was shown (a drill's Enter): not an answer, but a sign
    // the fact is not known, which its weakness counts. A fact saved before this with a box
    // and no answer can only have been shown: at least once.
    migrator.registerMigration("v5: how often each fact's answer was shown") { db in
      try db.alter(table: "factState") { t in
        t.add(column: "shown", .integer).notNull().defaults(to: 0)
      }
      try db.execute(
        sql: """
          UPDATE factState SET shown = 1 WHERE NOT EXISTS (
            SELECT 1 FROM answer a
            WHERE a.profile = factState.profile AND a.mode = factState.mode AND a.item = factState.item)
          """)
    }
    return migrator
  }
}
