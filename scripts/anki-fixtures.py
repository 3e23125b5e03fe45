"""Writes Anki decks made by Anki's own tools, for AnkiPackageTests, into the folder given:

  genanki.apkg   written by genanki (the legacy collection.anki2)
  modern.apkg    written by Anki's exporter (collection.anki21b, Zstandard), when the `anki`
  legacy.apkg    package imports: with "support older Anki versions" (collection.anki21)
  notes.txt      Anki's "Notes in Plain Text" export of the same notes
  expected.json  what each should read as: its notes (guid, deck, front, back, cloze) and
                 the ids of the notes that cannot be cards (an empty back)

The fronts and backs expected are the text each note shows, written here by hand from the
HTML given to the tools (a tag out, an entity decoded).

  python3 scripts/anki-fixtures.py OUTDIR
"""
import json
import os
import sys

out = sys.argv[1]
os.makedirs(out, exist_ok=True)
expected = {}

# Each note: fields (HTML), what it shows (front, back), and whether it is a cloze note.
BASIC = [
    (["Capital of Argentina", "Buenos Aires"], "Capital of Argentina", "Buenos Aires"),
    (["Capital of <i>Chile</i>", "<b>Santiago</b>"], "Capital of Chile", "Santiago"),
    (["Tom &amp; Jerry's creator", "Hanna&nbsp;&amp;&nbsp;Barbera"], "Tom & Jerry's creator", "Hanna\u00a0&\u00a0Barbera"),
    (["Two lines", "one<br>two"], "Two lines", "one\ntwo"),
    (["Über", "über&lt;x&gt;"], "Über", "über<x>"),
]
EMPTY_BACK = ["A front with no back", ""]
CLOZE = ("{{c1::Rome}} is the capital of {{c2::Italy}}", True)

import genanki

model = genanki.Model(
    1607392319,
    "Reckon Test Model",
    fields=[{"name": "Question"}, {"name": "Answer"}, {"name": "Hint"}],
    templates=[
        {
            "name": "Card 1",
            "qfmt": "{{Question}}{{#Hint}}<div>({{Hint}})</div>{{/Hint}}",
            "afmt": "{{FrontSide}}<hr id=\"answer\">{{Answer}}{{type:Answer}}",
        }
    ],
)
deck = genanki.Deck(2059400110, "Country Capitals")
notes = []
for fields, front, back in BASIC:
    note = genanki.Note(model=model, fields=fields + [""], tags=["geo"])
    deck.add_note(note)
    notes.append({"guid": note.guid, "deck": "Country Capitals", "front": front, "back": back, "cloze": False})
hinted = genanki.Note(model=model, fields=["Capital of Peru", "Lima", "on the coast"])
deck.add_note(hinted)
notes.append({"guid": hinted.guid, "deck": "Country Capitals", "front": "Capital of Peru\n(on the coast)", "back": "Lima", "cloze": False})
empty = genanki.Note(model=model, fields=EMPTY_BACK + [""])
deck.add_note(empty)
cloze = genanki.Note(model=genanki.CLOZE_MODEL, fields=[CLOZE[0], ""])
deck.add_note(cloze)
notes.append({"guid": cloze.guid, "deck": "Country Capitals", "front": CLOZE[0], "back": "", "cloze": True})
genanki.Package(deck).write_to_file(os.path.join(out, "genanki.apkg"))
expected["genanki.apkg"] = {"notes": notes, "skipped": 1}

try:
    from anki.collection import Collection, ExportAnkiPackageOptions
except ImportError:
    Collection = None

if Collection is not None:
    os.makedirs(os.path.join(out, "anki"), exist_ok=True)
    col = Collection(os.path.join(out, "anki", "collection.anki2"))
    capitals = col.decks.id("Capitals")
    german = col.decks.id("Languages::German")
    notes = []
    basic = col.models.by_name("Basic")
    for fields, front, back in BASIC:
        note = col.new_note(basic)
        note["Front"], note["Back"] = fields
        note.tags = ["geo"]
        col.add_note(note, capitals)
        notes.append({"guid": note.guid, "deck": "Capitals", "front": front, "back": back, "cloze": False})
    reversed_type = col.models.by_name("Basic (and reversed card)")
    note = col.new_note(reversed_type)
    note["Front"], note["Back"] = "dog", "Hund"
    col.add_note(note, german)
    notes.append({"guid": note.guid, "deck": "Languages::German", "front": "dog", "back": "Hund", "cloze": False})
    note = col.new_note(basic)
    note["Front"], note["Back"] = EMPTY_BACK
    col.add_note(note, capitals)
    note = col.new_note(col.models.by_name("Cloze"))
    note["Text"] = CLOZE[0]
    col.add_note(note, capitals)
    notes.append({"guid": note.guid, "deck": "Capitals", "front": CLOZE[0], "back": "", "cloze": True})
    for name, legacy in [("modern.apkg", False), ("legacy.apkg", True)]:
        col.export_anki_package(
            out_path=os.path.join(out, name),
            options=ExportAnkiPackageOptions(with_scheduling=False, with_deck_configs=False, with_media=False, legacy=legacy),
            limit=None,
        )
        expected[name] = {"notes": notes, "skipped": 1}
    col.export_note_csv(
        out_path=os.path.join(out, "notes.txt"), limit=None, with_html=True, with_tags=True, with_deck=True,
        with_notetype=True, with_guid=True,
    )
    expected["notes.txt"] = {"notes": notes, "skipped": 1}
    col.close()

with open(os.path.join(out, "expected.json"), "w") as f:
    json.dump(expected, f, ensure_ascii=False, indent=1)
