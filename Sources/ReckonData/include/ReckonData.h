// The content built into the binary: the data files in this folder, packed by
// scripts/pack-data and embedded by C23's #embed, so an installed reckon needs no files beside
// it. Each is unpacked the first time it is asked for and kept for the rest of the process.
#ifndef RECKON_DATA_H
#define RECKON_DATA_H

/// One embedded file, unpacked: its bytes and how many there are (none if it could not be
/// unpacked: `reckon_data_problem` says why).
struct reckon_data_file {
  const unsigned char *bytes;
  unsigned long size;
};

/// The built-in trivia bank, in editions (questions.txt, the first; questions-2.txt, added
/// to the daily challenges from the day BuiltInQuestions gives): star-separated, UTF-8, with
/// a header line.
unsigned long reckon_data_question_editions(void);
struct reckon_data_file reckon_data_questions(unsigned long edition);

/// The built-in personality quizzes (personality/*.json), in the order they are listed.
unsigned long reckon_data_quiz_count(void);
struct reckon_data_file reckon_data_quiz(unsigned long index);

/// The anagram game's word list, its common words (words.txt) and the rest (words-more.txt),
/// and the words it never uses from any list (blocked-words.txt): one a line, lowercase, with
/// a comment line first.
struct reckon_data_file reckon_data_words(void);
struct reckon_data_file reckon_data_more_words(void);
struct reckon_data_file reckon_data_blocked_words(void);

/// HTML5's character references (html-entities.txt, written by scripts/html-entities): one a
/// line, `NAME<TAB>HEX[ HEX]` or `#DECIMAL<TAB>[HEX]`, sorted by their bytes, after a comment.
struct reckon_data_file reckon_data_html_entities(void);

/// The unit table (units.txt: dimensions, prefixes and units) and the physical constants
/// (constants.txt), in the format of UNITS-FORMAT.md.
struct reckon_data_file reckon_data_units(void);
struct reckon_data_file reckon_data_constants(void);

/// Why a file could not be unpacked (libzstd could not be opened), or NULL.
const char *reckon_data_problem(void);

#endif
