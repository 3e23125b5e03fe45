import SQLite

/// The database's shape, one migration per change, from day one; `PRAGMA user_version` is the
/// number of migrations applied. Never edit a migration that has shipped: add the next one.
///
/// The statements are the ones GRDB ran for the releases that used it, to the letter, so a
/// new database and one those releases wrote have the same schema (`sqlite_master`'s text
/// included). Those releases kept `user_version` at 0 and listed the migrations applied, by
/// these names, in a `grdb_migrations` table: `formerVersion` counts them, and migrating goes
/// on from there (the table is left as it is).
enum Schema {
  /// The settings' table as created (and as `sqlite_master` keeps it): the start-up read
  /// finds its rows in the file's pages only while the table is still this one.
  static let settingTable = """
    CREATE TABLE "setting" ("profile" TEXT NOT NULL REFERENCES "profile"("name") ON DELETE CASCADE, \
    "key" TEXT NOT NULL, "value" TEXT NOT NULL, PRIMARY KEY ("profile", "key"))
    """

  static let migrator = Migrator(
    [
      .init("v1: profiles, settings, answers, fact states") { (db) throws(SQLiteError) in
        try db.execute(
          """
          CREATE TABLE "profile" ("name" TEXT PRIMARY KEY NOT NULL, "createdAt" INTEGER NOT NULL);
          \(settingTable);
          CREATE TABLE "answer" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, \
          "profile" TEXT NOT NULL REFERENCES "profile"("name") ON DELETE CASCADE, "mode" TEXT NOT NULL, \
          "item" TEXT NOT NULL, "given" TEXT NOT NULL, "correct" BOOLEAN NOT NULL, "milliseconds" INTEGER NOT NULL, \
          "answeredAt" INTEGER NOT NULL);
          CREATE INDEX "answer_on_profile" ON "answer"("profile");
          CREATE TABLE "factState" ("profile" TEXT NOT NULL REFERENCES "profile"("name") ON DELETE CASCADE, \
          "mode" TEXT NOT NULL, "item" TEXT NOT NULL, "box" INTEGER NOT NULL, "dueAt" INTEGER NOT NULL, \
          PRIMARY KEY ("profile", "mode", "item"));
          """)
      },
      // Streaks and charts count local days, and the day an answer was given is fixed by the
      // clock of the session that gave it: keep it with the answer. Earlier answers get the
      // day SQLite computes in this machine's time zone.
      .init("v2: the local day of each answer") { (db) throws(SQLiteError) in
        try db.execute(
          """
          ALTER TABLE "answer" ADD COLUMN "day" INTEGER NOT NULL DEFAULT 0;
          UPDATE answer SET day =
            CAST(strftime('%s', date(answeredAt / 1000, 'unixepoch', 'localtime')) AS INTEGER) / 86400;
          CREATE INDEX "answer_by_day" ON "answer"("profile", "mode", "day");
          """)
      },
      // The trivia quiz: each answer's category and difficulty, and the daily challenges.
      .init("v3: trivia answers and daily challenges") { (db) throws(SQLiteError) in
        try db.execute(
          """
          ALTER TABLE "answer" ADD COLUMN "category" TEXT;
          ALTER TABLE "answer" ADD COLUMN "difficulty" TEXT;
          CREATE TABLE "daily" ("profile" TEXT NOT NULL REFERENCES "profile"("name") ON DELETE CASCADE, \
          "day" INTEGER NOT NULL, "difficulty" TEXT NOT NULL, "item" TEXT NOT NULL, "elapsed" INTEGER NOT NULL, \
          "finished" BOOLEAN NOT NULL, "correct" BOOLEAN NOT NULL, "given" TEXT NOT NULL, \
          "updatedAt" INTEGER NOT NULL, PRIMARY KEY ("profile", "day", "difficulty"));
          """)
      },
      // Personality quiz results and anagram rounds.
      .init("v4: personality results and anagram rounds") { (db) throws(SQLiteError) in
        try db.execute(
          """
          CREATE TABLE "personality" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, \
          "profile" TEXT NOT NULL REFERENCES "profile"("name") ON DELETE CASCADE, "quiz" TEXT NOT NULL, \
          "title" TEXT NOT NULL, "outcome" TEXT NOT NULL, "symbol" TEXT NOT NULL, "runnerUp" TEXT NOT NULL, \
          "takenAt" INTEGER NOT NULL, "day" INTEGER NOT NULL);
          CREATE INDEX "personality_on_profile" ON "personality"("profile");
          CREATE TABLE "anagramRound" ("profile" TEXT NOT NULL REFERENCES "profile"("name") ON DELETE CASCADE, \
          "startedAt" INTEGER NOT NULL, "day" INTEGER NOT NULL, "level" TEXT NOT NULL, "score" INTEGER NOT NULL, \
          "solved" INTEGER NOT NULL, "played" INTEGER NOT NULL, "finished" BOOLEAN NOT NULL, \
          PRIMARY KEY ("profile", "startedAt"));
          """)
      },
      // How often each fact's answer was shown (a drill's Enter): not an answer, but a sign
      // the fact is not known, which its weakness counts. A fact saved before this with a box
      // and no answer can only have been shown: at least once.
      .init("v5: how often each fact's answer was shown") { (db) throws(SQLiteError) in
        try db.execute(
          """
          ALTER TABLE "factState" ADD COLUMN "shown" INTEGER NOT NULL DEFAULT 0;
          UPDATE factState SET shown = 1 WHERE NOT EXISTS (
            SELECT 1 FROM answer a
            WHERE a.profile = factState.profile AND a.mode = factState.mode AND a.item = factState.item);
          """)
      },
      // One table for every game's rounds (a mode that keeps only its results needs no table of
      // its own): the personality results and anagram rounds move into it, their own columns
      // as JSON in `data`, and their tables go.
      .init("v6: game results") { (db) throws(SQLiteError) in
        try db.execute(
          """
          CREATE TABLE "gameResult" ("id" INTEGER PRIMARY KEY AUTOINCREMENT, \
          "profile" TEXT NOT NULL REFERENCES "profile"("name") ON DELETE CASCADE, "game" TEXT NOT NULL, \
          "startedAt" INTEGER NOT NULL, "day" INTEGER NOT NULL, "finished" BOOLEAN NOT NULL, \
          "score" INTEGER NOT NULL, "data" TEXT NOT NULL);
          CREATE INDEX "gameResult_by_game" ON "gameResult"("profile", "game", "startedAt");
          INSERT INTO gameResult (profile, game, startedAt, day, finished, score, data)
            SELECT profile, 'personality', takenAt, day, 1, 0,
              json_object('quiz', quiz, 'title', title, 'outcome', outcome, 'symbol', symbol, 'runnerUp', runnerUp)
            FROM personality ORDER BY id;
          INSERT INTO gameResult (profile, game, startedAt, day, finished, score, data)
            SELECT profile, 'anagram', startedAt, day, finished, score,
              json_object('level', level, 'solved', solved, 'played', played)
            FROM anagramRound ORDER BY startedAt;
          DROP TABLE "personality";
          DROP TABLE "anagramRound";
          """)
      },
    ],
    formerVersion: grdbVersion)

  /// How many migrations a damaged database has had, for the fresh file a salvage makes,
  /// which must have a table for each of the damaged file's: told by what the migrations
  /// made, since the damage may be in `user_version` as well as anywhere in the schema. Any
  /// sign of v6 (a game results table or index) gives today's; the personality results or
  /// anagram rounds of v4 and v5 give those; an older `user_version` is taken only when the
  /// tables say the same; today's otherwise.
  static func version(of schema: [PageSalvage.SchemaRow], userVersion: Int32?) -> Int32 {
    let names = Set(schema.flatMap { [$0.name, $0.table] })
    let sql = { (table: String) in schema.first { $0.type == "table" && $0.name == table }?.sql }
    if names.contains("gameResult") || schema.isEmpty { return migrator.latest }
    if names.contains("personality") || names.contains("anagramRound") {
      return sql("factState")?.holds("\"shown\"") == true ? 5 : 4
    }
    guard let userVersion, userVersion >= 1, userVersion <= 3 else { return migrator.latest }
    let hasDay = sql("answer")?.holds("\"day\"") == true
    let consistent = names.contains("daily") == (userVersion >= 3) && hasDay == (userVersion >= 2)
    return consistent ? userVersion : migrator.latest
  }

  /// The tables v6 merged into `gameResult` (and dropped).
  static func mergedIntoGameResults(_ table: String) -> Bool { table == "personality" || table == "anagramRound" }

  /// How many of the migrations a database written through GRDB had (0 for any other): GRDB
  /// applied them in order, each recording its name in `grdb_migrations`.
  @Sendable static func grdbVersion(_ db: Database) throws(SQLiteError) -> Int32 {
    guard try db.tableExists("grdb_migrations") else { return 0 }
    let applied = Set(
      try db.all("SELECT identifier FROM grdb_migrations") { (row) throws(SQLiteError) in try row[0] as String })
    return Int32(migrator.migrations.prefix { applied.contains($0.name) }.count)
  }
}
