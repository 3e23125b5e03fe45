#!/usr/bin/env python3
"""Writes the hostile Anki packages and text decks of issue 38 into the folder given, with
Python's own sqlite3 and zipfile (no other package):

  endless-notes.apkg     notes is a view over an endless recursive query
  endless-cards.apkg     cards is one
  endless-modern.apkg    the same in the newer schema (note types in tables): notetypes a view
  trigger.apkg           a trigger on notes (Anki writes none)
  doubling.apkg          notes is a view that doubles a string 27 times (a 128 MiB field)
  generated.apkg         notes.flds is a generated column: printf of 30 MB for every note
  no-index.apkg          11,000 notes and 22,000 cards without the index on cards.nid (3.9 MB)
  template-bomb.apkg     a question of {{Front}} 10,000 times, an answer of {{FrontSide}} 300
  template-bomb-66k.apkg a question of {{Front}} 2,000 times over a 48 KB field: one note
  sections.apkg          a question of 9,000 sections that are never closed
  huge-field.apkg        a note whose front is 2 MB (more than a card's side may hold) beside a good one
  zip-bomb.apkg          a 250 KB package whose collection (one note, then zeros) inflates to 250 MiB
  zip-bomb-lying.apkg    the same, its directory saying the collection is 4 KB
  cloze-500.txt          one note, {{c1::…}} to {{c500::…}} in 200 KB of text
  cloze-500-60k.txt      the same in 60 KB (under the 64 KB a card's side may hold)
  cloze-500-4mb.txt      the same in 4 MB of text

With --many, also many-notes.apkg: a collection Anki could have written, of 100,000 notes
(45 MB), whose reading is long enough to be stopped with Ctrl-C (bench/hostile).

With --small, the same shapes at a size for the fuzzer's seeds and regressions (a few KB):
the views and triggers are as they are, the collections hold few notes, the bombs repeat
their field 2,000 times (still past what a card may make), the zip bombs inflate to 4 MiB
and the texts are short.

  python3 scripts/anki-hostile.py [--small] [--many] OUTDIR
"""
import json
import os
import sqlite3
import sys
import tempfile
import zipfile

args = [a for a in sys.argv[1:] if not a.startswith("--")]
small = "--small" in sys.argv
out = args[0]
os.makedirs(out, exist_ok=True)

MODEL = 1342697561419
CLOZE_MODEL = 1342697561420
DECK = 1

# Anki's schema 11 (rslib/src/storage/schema11.sql), which collection.anki2 and .anki21 hold.
SCHEMA11 = """
CREATE TABLE col (id integer PRIMARY KEY, crt integer NOT NULL, mod integer NOT NULL, scm integer NOT NULL,
  ver integer NOT NULL, dty integer NOT NULL, usn integer NOT NULL, ls integer NOT NULL, conf text NOT NULL,
  models text NOT NULL, decks text NOT NULL, dconf text NOT NULL, tags text NOT NULL);
CREATE TABLE notes (id integer PRIMARY KEY, guid text NOT NULL, mid integer NOT NULL, mod integer NOT NULL,
  usn integer NOT NULL, tags text NOT NULL, flds text NOT NULL, sfld integer NOT NULL, csum integer NOT NULL,
  flags integer NOT NULL, data text NOT NULL);
CREATE TABLE cards (id integer PRIMARY KEY, nid integer NOT NULL, did integer NOT NULL, ord integer NOT NULL,
  mod integer NOT NULL, usn integer NOT NULL, type integer NOT NULL, queue integer NOT NULL, due integer NOT NULL,
  ivl integer NOT NULL, factor integer NOT NULL, reps integer NOT NULL, lapses integer NOT NULL,
  left integer NOT NULL, odue integer NOT NULL, odid integer NOT NULL, flags integer NOT NULL, data text NOT NULL);
CREATE TABLE revlog (id integer PRIMARY KEY, cid integer NOT NULL, usn integer NOT NULL, ease integer NOT NULL,
  ivl integer NOT NULL, lastIvl integer NOT NULL, factor integer NOT NULL, time integer NOT NULL,
  type integer NOT NULL);
CREATE TABLE graves (usn integer NOT NULL, oid integer NOT NULL, type integer NOT NULL);
CREATE INDEX ix_notes_usn ON notes (usn);
CREATE INDEX ix_cards_usn ON cards (usn);
CREATE INDEX ix_revlog_usn ON revlog (usn);
CREATE INDEX ix_cards_nid ON cards (nid);
CREATE INDEX ix_cards_sched ON cards (did, queue, due);
CREATE INDEX ix_revlog_cid ON revlog (cid);
CREATE INDEX ix_notes_csum ON notes (csum);
"""


def model(mid, name, fields, qfmt, afmt, cloze=False):
    return {"id": mid, "name": name, "type": 1 if cloze else 0,
            "flds": [{"name": f, "ord": i} for i, f in enumerate(fields)],
            "tmpls": [{"name": "Card 1", "ord": 0, "qfmt": qfmt, "afmt": afmt}]}


BASIC = model(MODEL, "Basic", ["Front", "Back"], "{{Front}}", "{{FrontSide}}<hr id=answer>{{Back}}")


def legacy(path, notes, models=(BASIC,), cards=None, script=""):
    """A collection in schema 11 at `path`: `notes` are (fields, model id), each with a card
    in the default deck (or `cards`: (note index, ord) pairs); `script` runs last."""
    if os.path.exists(path):
        os.remove(path)
    db = sqlite3.connect(path)
    db.execute("PRAGMA page_size = 1024")
    db.executescript(SCHEMA11)
    db.execute("INSERT INTO col VALUES (1, 0, 0, 0, 11, 0, 0, 0, '{}', ?, ?, '{}', '{}')",
               (json.dumps({str(m["id"]): m for m in models}), json.dumps({"1": {"id": 1, "name": "Default"}})))
    rows = [(1_600_000_000_000 + i, f"g{i}", mid, 0, 0, "", "\x1f".join(fields), fields[0][:10], 0, 0, "")
            for i, (fields, mid) in enumerate(notes)]
    db.executemany("INSERT INTO notes VALUES (?, ?, ?, ?, ?, ?, ?, ?, ?, ?, ?)", rows)
    pairs = cards if cards is not None else [(i, 0) for i in range(len(notes))]
    db.executemany("INSERT INTO cards VALUES (?, ?, ?, ?, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, '')",
                   [(1_700_000_000_000 + j, 1_600_000_000_000 + i, DECK, ord) for j, (i, ord) in enumerate(pairs)])
    db.commit()
    if script:
        db.executescript(script)
        db.commit()
    db.execute("VACUUM")
    db.close()


def modern(path, script=""):
    """A collection in the newer schema (note types, fields, templates and decks in tables of
    their own, their configuration as protocol buffers), with one basic note."""
    if os.path.exists(path):
        os.remove(path)
    db = sqlite3.connect(path)
    db.execute("PRAGMA page_size = 1024")
    db.executescript(SCHEMA11 + """
    CREATE TABLE notetypes (id integer NOT NULL PRIMARY KEY, name text NOT NULL, mtime_secs integer NOT NULL,
      usn integer NOT NULL, config blob NOT NULL);
    CREATE TABLE fields (ntid integer NOT NULL, ord integer NOT NULL, name text NOT NULL, config blob NOT NULL,
      PRIMARY KEY (ntid, ord)) without rowid;
    CREATE TABLE templates (ntid integer NOT NULL, ord integer NOT NULL, name text NOT NULL,
      mtime_secs integer NOT NULL, usn integer NOT NULL, config blob NOT NULL, PRIMARY KEY (ntid, ord))
      without rowid;
    CREATE TABLE decks (id integer PRIMARY KEY NOT NULL, name text NOT NULL, mtime_secs integer NOT NULL,
      usn integer NOT NULL, common blob NOT NULL, kind blob NOT NULL);
    """)
    db.execute("INSERT INTO col VALUES (1, 0, 0, 0, 18, 0, 0, 0, '{}', '{}', '{}', '{}', '{}')")
    db.execute("INSERT INTO notetypes VALUES (?, 'Basic', 0, 0, x'')", (MODEL,))
    db.executemany("INSERT INTO fields VALUES (?, ?, ?, x'')", [(MODEL, 0, "Front"), (MODEL, 1, "Back")])

    def string(field, text):
        data = text.encode()
        return bytes([field << 3 | 2, len(data)]) + data  # (short strings only)

    config = string(1, "{{Front}}") + string(2, "{{FrontSide}}<hr id=answer>{{Back}}")
    db.execute("INSERT INTO templates VALUES (?, 0, 'Card 1', 0, 0, ?)", (MODEL, config))
    db.execute("INSERT INTO decks VALUES (1, 'Default', 0, 0, x'', x'')")
    db.execute("INSERT INTO notes VALUES (1, 'g1', ?, 0, 0, '', 'Spain\x1fMadrid', 'Spain', 0, 0, '')", (MODEL,))
    db.execute("INSERT INTO cards VALUES (1, 1, 1, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, 0, '')")
    db.commit()
    if script:
        db.executescript(script)
        db.commit()
    db.execute("VACUUM")
    db.close()


def package(name, build):
    """`build(path)` writes a collection; it goes into OUTDIR/name as collection.anki2."""
    with tempfile.TemporaryDirectory() as folder:
        collection = os.path.join(folder, "collection.anki2")
        build(collection)
        with zipfile.ZipFile(os.path.join(out, name), "w", zipfile.ZIP_DEFLATED) as z:
            z.write(collection, "collection.anki2")
            z.writestr("media", "{}")


ONE = [(["Spain", "Madrid"], MODEL)]

# An endless recursive query in place of a table: counting up for ever, each row a note (or
# a card) of the one note type.
ENDLESS_NOTES = f"""
DROP TABLE notes;
CREATE VIEW notes AS WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r)
  SELECT n AS id, 'g' || n AS guid, {MODEL} AS mid, 0 AS mod, 0 AS usn, '' AS tags,
    'front ' || n || char(31) || 'back' AS flds, n AS sfld, 0 AS csum, 0 AS flags, '' AS data FROM r;
"""
ENDLESS_CARDS = """
DROP TABLE cards;
CREATE VIEW cards AS WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r)
  SELECT n AS id, 1600000000000 AS nid, 1 AS did, n AS ord, 0 AS mod, 0 AS usn, 0 AS type, 0 AS queue,
    0 AS due, 0 AS ivl, 0 AS factor, 0 AS reps, 0 AS lapses, 0 AS left, 0 AS odue, 0 AS odid, 0 AS flags,
    '' AS data FROM r;
"""
DOUBLING = f"""
DROP TABLE notes;
CREATE VIEW notes AS WITH RECURSIVE d(i, s) AS (SELECT 0, 'x' UNION ALL SELECT i + 1, s || s FROM d WHERE i < 27)
  SELECT 1 AS id, 'g' AS guid, {MODEL} AS mid, 0 AS mod, 0 AS usn, '' AS tags, s || char(31) || 'back' AS flds,
    0 AS sfld, 0 AS csum, 0 AS flags, '' AS data FROM d WHERE i = 27;
"""
TRIGGER = """
CREATE TRIGGER notes_touched AFTER UPDATE ON notes BEGIN UPDATE cards SET mod = mod + 1; END;
"""
# A column worked out as it is read: every note's fields are 30 MB that the file does not hold.
GENERATED = f"""
DROP TABLE notes;
CREATE TABLE notes (id integer PRIMARY KEY, guid text NOT NULL, mid integer NOT NULL, mod integer NOT NULL,
  usn integer NOT NULL, tags text NOT NULL, seed text NOT NULL,
  flds text AS (printf('%.*c', 30000000, 'x') || char(31) || seed) VIRTUAL,
  sfld integer NOT NULL, csum integer NOT NULL, flags integer NOT NULL, data text NOT NULL);
INSERT INTO notes (id, guid, mid, mod, usn, tags, seed, sfld, csum, flags, data)
  SELECT 1600000000000 + value, 'g' || value, {MODEL}, 0, 0, '', 'back', 0, 0, 0, ''
  FROM (WITH RECURSIVE r(value) AS (SELECT 0 UNION ALL SELECT value + 1 FROM r WHERE value < 99) SELECT value FROM r);
"""

package("endless-notes.apkg", lambda p: legacy(p, ONE, script=ENDLESS_NOTES))
package("endless-cards.apkg", lambda p: legacy(p, ONE, script=ENDLESS_CARDS))
package("endless-modern.apkg", lambda p: modern(p, script="""
DROP TABLE notetypes;
CREATE VIEW notetypes AS WITH RECURSIVE r(n) AS (SELECT 1 UNION ALL SELECT n + 1 FROM r)
  SELECT n AS id, 'Basic' AS name, 0 AS mtime_secs, 0 AS usn, x'' AS config FROM r;
"""))
package("trigger.apkg", lambda p: legacy(p, ONE, script=TRIGGER))
package("doubling.apkg", lambda p: legacy(p, ONE, script=DOUBLING))
package("generated.apkg", lambda p: legacy(p, ONE, script=GENERATED))

# Many notes, a card each, and no index on cards.nid: a note's deck found by a search of
# every card is quadratic. 11,000 notes: 3.9 MB (a handful with --small).
count = 200 if small else 11_000
package("no-index.apkg", lambda p: legacy(
    p, [([f"front {i} " + "f" * (10 if small else 60), f"back {i} " + "b" * (10 if small else 60)], MODEL)
        for i in range(count)],
    cards=[(i, o) for i in range(count) for o in range(2)], script="DROP INDEX ix_cards_nid;"))

# Templates that make a card of gigabytes from a few kilobytes.
BOMB = model(MODEL, "Basic", ["Front", "Back"], "{{Front}}" * (2_000 if small else 10_000), "{{FrontSide}}" * 300)
front = "front text " * (40 if small else 400)
package("template-bomb.apkg", lambda p: legacy(p, [([front, "back"], MODEL)], models=(BOMB,)))
BOMB_66K = model(MODEL, "Basic", ["Front", "Back"], "{{Front}}" * 2_000, "{{FrontSide}}<hr id=answer>{{Back}}")
package("template-bomb-66k.apkg", lambda p: legacy(
    p, [(["x" * (1_000 if small else 48_000), "back"], MODEL)], models=(BOMB_66K,)))
# Sections never closed: each one's end is looked for to the end of the template.
SECTIONS = model(MODEL, "Basic", ["Front", "Back"], "{{#Front}}x" * (2_000 if small else 9_000) + "{{Front}}",
                 "{{Back}}")
package("sections.apkg", lambda p: legacy(p, [(["front", "back"], MODEL)], models=(SECTIONS,)))
if "--many" in sys.argv:
    package("many-notes.apkg", lambda p: legacy(
        p, [([f"front {i} " + "f" * 100, f"back {i} " + "b" * 100], MODEL) for i in range(100_000)]))
package("huge-field.apkg", lambda p: legacy(
    p, [(["y" * (70_000 if small else 2_000_000), "back"], MODEL), (["Spain", "Madrid"], MODEL)]))


def zip_bomb(name, size, declared=None):
    """One good note's collection followed by zeros to `size` bytes (SQLite reads the pages
    its header counts), deflated; with `declared`, the zip's headers say that size instead."""
    with tempfile.TemporaryDirectory() as folder:
        collection = os.path.join(folder, "collection.anki2")
        legacy(collection, ONE)
        data = open(collection, "rb").read()
    data += bytes(size - len(data))
    path = os.path.join(out, name)
    with zipfile.ZipFile(path, "w", zipfile.ZIP_DEFLATED, compresslevel=9) as z:
        z.writestr("collection.anki2", data)
        z.writestr("media", "{}")
    if declared is not None:
        archive = bytearray(open(path, "rb").read())
        size_field = len(data).to_bytes(4, "little")
        # The local header's uncompressed size (offset 22) and the directory entry's (24).
        assert archive[22:26] == size_field
        archive[22:26] = declared.to_bytes(4, "little")
        entry = archive.index(b"PK\x01\x02")
        assert archive[entry + 24:entry + 28] == size_field
        archive[entry + 24:entry + 28] = declared.to_bytes(4, "little")
        open(path, "wb").write(archive)


zip_bomb("zip-bomb.apkg", (4 if small else 250) << 20)
zip_bomb("zip-bomb-lying.apkg", (4 if small else 250) << 20, declared=4096)


def cloze_deck(name, size):
    """One cloze note of Anki's plain text: {{c1::…}} to {{c500::…}} spread over `size` bytes."""
    clozes = "".join(f"{{{{c{n}::word{n}}}}} " for n in range(1, 501))
    filler = "lorem ipsum dolor sit amet " * max(1, (size - len(clozes)) // 27)
    text = filler[: len(filler) // 2] + clozes + filler[len(filler) // 2:]
    with open(os.path.join(out, name), "w") as f:
        f.write("#separator:tab\n#html:false\n#notetype:Cloze\n" + text + "\t\n")


cloze_deck("cloze-500.txt", 2_000 if small else 200_000)
if not small:
    cloze_deck("cloze-500-60k.txt", 60_000)
    cloze_deck("cloze-500-4mb.txt", 4_000_000)
