#include "ReckonData.h"

#include <pthread.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

#include "CDecompress.h"

// Each file is embedded packed (a Zstandard frame, written by scripts/pack-data from the text
// file of the same name) and unpacked the first time it is asked for, then kept: the content
// is a third of its size in the binary, and only what a session uses is ever unpacked.
struct packed_file {
  const unsigned char *bytes;
  unsigned long size;
  // The word lists front-coded by scripts/pack-data, to expand once unpacked (into
  // `unpacked` and `more`).
  int front_coded;
  struct reckon_data_file unpacked;
  int tried;
  struct reckon_data_file more;
};

static pthread_mutex_t unpacking = PTHREAD_MUTEX_INITIALIZER;
static char problem[160];

// The most any file unpacks to: far more than the largest (a test checks each one).
static const size_t unpacked_limit = 16u << 20;

// Expands the front-coded word lists (scripts/pack-data) into their two text files: each
// file's first line as it is, then the words of both in order, each a character that says how
// many letters it shares with the word before and whose it is (A, B, ... the first list's; !,
// ", ... the second's) and its other letters. Returns two buffers in one allocation, the
// second at *second (NULL when the lists are not well formed).
static unsigned char *expand(const unsigned char *in, size_t size, size_t *first_length, size_t *second_length) {
  size_t first_line = 0;
  while (first_line < size && in[first_line] != '\n') first_line++;
  if (first_line == size) return NULL;
  size_t start = first_line + 1;
  while (start < size && in[start] != '\n') start++;
  if (start == size) return NULL;
  start++;
  // Measure, then write: a word is its shared letters, its own and a line break.
  size_t lengths[2] = {first_line + 1, start - first_line - 1}, previous = 0;
  for (size_t i = start; i < size;) {
    int second = in[i] < 'A';
    size_t word = (size_t)(in[i] - (second ? '!' : 'A'));
    if (in[i] < '!' || (in[i] > '!' + 25 && in[i] < 'A') || in[i] > 'Z' || word > previous) return NULL;
    i++;
    while (i < size && in[i] >= 'a' && in[i] <= 'z') i++, word++;
    if (word > 64 || word == 0) return NULL;
    lengths[second] += word + 1;
    previous = word;
  }
  unsigned char *out = malloc(lengths[0] + lengths[1]);
  if (!out) return NULL;
  size_t at[2] = {first_line + 1, lengths[0] + (start - first_line - 1)};
  memcpy(out, in, first_line + 1);
  memcpy(out + lengths[0], in + first_line + 1, start - first_line - 1);
  unsigned char last[64];
  for (size_t i = start; i < size;) {
    int second = in[i] < 'A';
    size_t word = (size_t)(in[i++] - (second ? '!' : 'A'));
    while (i < size && in[i] >= 'a' && in[i] <= 'z') last[word++] = in[i++];
    memcpy(out + at[second], last, word);
    at[second] += word;
    out[at[second]++] = '\n';
  }
  *first_length = lengths[0];
  *second_length = lengths[1];
  return out;
}

static void *reallocate(void *memory, size_t size) { return realloc(memory, size); }

static struct reckon_data_file unpack(struct packed_file *file) {
  pthread_mutex_lock(&unpacking);
  if (!file->tried) {
    file->tried = 1;
    unsigned char *output = NULL;
    size_t length = 0;
    char why[120] = "";
    if (reckon_decompress(1, file->bytes, file->size, unpacked_limit, reallocate, free, NULL, NULL, &output, &length,
                          why, sizeof why) == RECKON_DECOMPRESS_OK) {
      if (file->front_coded) {
        size_t more_length = 0;
        unsigned char *expanded = expand(output, length, &length, &more_length);
        free(output);
        output = expanded;
        if (expanded) file->more = (struct reckon_data_file){expanded + length, more_length};
        if (!expanded && !problem[0]) snprintf(problem, sizeof problem, "the built-in word list is damaged");
      }
      if (output) file->unpacked = (struct reckon_data_file){output, length};
    } else if (!problem[0]) {
      snprintf(problem, sizeof problem, "the built-in content could not be unpacked: %s", why);
    }
  }
  struct reckon_data_file result = file->unpacked;
  pthread_mutex_unlock(&unpacking);
  return result;
}

const char *reckon_data_problem(void) { return problem[0] ? problem : NULL; }

static const unsigned char questions[] = {
#embed "packed/questions.txt.zst"
};
static const unsigned char questions_2[] = {
#embed "packed/questions-2.txt.zst"
};
static struct packed_file question_editions[] = {
  {questions, sizeof(questions)},
  {questions_2, sizeof(questions_2)},
};

unsigned long reckon_data_question_editions(void) {
  return sizeof(question_editions) / sizeof(question_editions[0]);
}
struct reckon_data_file reckon_data_questions(unsigned long edition) {
  if (edition >= reckon_data_question_editions()) return (struct reckon_data_file){NULL, 0};
  return unpack(&question_editions[edition]);
}

static const unsigned char animal[] = {
#embed "packed/animal.json.zst"
};
static const unsigned char calculator[] = {
#embed "packed/calculator.json.zst"
};

static const unsigned char planet[] = {
#embed "packed/planet.json.zst"
};
static const unsigned char tree[] = {
#embed "packed/tree.json.zst"
};
static const unsigned char number[] = {
#embed "packed/number.json.zst"
};
static const unsigned char weather[] = {
#embed "packed/weather.json.zst"
};
static const unsigned char chess[] = {
#embed "packed/chess.json.zst"
};

static struct packed_file quizzes[] = {
  {animal, sizeof(animal)},
  {calculator, sizeof(calculator)},
  {planet, sizeof(planet)},
  {tree, sizeof(tree)},
  {number, sizeof(number)},
  {weather, sizeof(weather)},
  {chess, sizeof(chess)},
};

unsigned long reckon_data_quiz_count(void) { return sizeof(quizzes) / sizeof(quizzes[0]); }
struct reckon_data_file reckon_data_quiz(unsigned long index) { return unpack(&quizzes[index]); }

static const unsigned char words[] = {
#embed "packed/words.txt.zst"
};
static struct packed_file words_file = {words, sizeof(words), 1};

static const unsigned char blocked[] = {
#embed "packed/blocked-words.txt.zst"
};
static struct packed_file blocked_file = {blocked, sizeof(blocked)};

struct reckon_data_file reckon_data_words(void) { return unpack(&words_file); }
struct reckon_data_file reckon_data_more_words(void) {
  unpack(&words_file);
  return words_file.more;
}
struct reckon_data_file reckon_data_blocked_words(void) { return unpack(&blocked_file); }

static const unsigned char html_entities[] = {
#embed "packed/html-entities.txt.zst"
};
static struct packed_file html_entities_file = {html_entities, sizeof(html_entities)};

struct reckon_data_file reckon_data_html_entities(void) { return unpack(&html_entities_file); }

static const unsigned char units[] = {
#embed "packed/units.txt.zst"
};
static struct packed_file units_file = {units, sizeof(units)};

static const unsigned char constants[] = {
#embed "packed/constants.txt.zst"
};
static struct packed_file constants_file = {constants, sizeof(constants)};

struct reckon_data_file reckon_data_units(void) { return unpack(&units_file); }
struct reckon_data_file reckon_data_constants(void) { return unpack(&constants_file); }
