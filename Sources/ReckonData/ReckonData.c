#include "ReckonData.h"

static const unsigned char questions[] = {
#embed "questions.txt"
};

const unsigned char *reckon_data_questions(void) { return questions; }
unsigned long reckon_data_questions_size(void) { return sizeof(questions); }

static const unsigned char animal[] = {
#embed "personality/animal.json"
};

static const unsigned char calculator[] = {
#embed "personality/calculator.json"
};

static const struct reckon_data_file quizzes[] = {
  {animal, sizeof(animal)},
  {calculator, sizeof(calculator)},
};

unsigned long reckon_data_quiz_count(void) { return sizeof(quizzes) / sizeof(quizzes[0]); }
struct reckon_data_file reckon_data_quiz(unsigned long index) { return quizzes[index]; }

static const unsigned char words[] = {
#embed "words.txt"
};

static const unsigned char blocked[] = {
#embed "blocked-words.txt"
};

struct reckon_data_file reckon_data_words(void) { return (struct reckon_data_file){words, sizeof(words)}; }
struct reckon_data_file reckon_data_blocked_words(void) { return (struct reckon_data_file){blocked, sizeof(blocked)}; }

static const unsigned char html_entities[] = {
#embed "html-entities.txt"
};

struct reckon_data_file reckon_data_html_entities(void) {
  return (struct reckon_data_file){html_entities, sizeof(html_entities)};
}

static const unsigned char units[] = {
#embed "units.txt"
};

static const unsigned char constants[] = {
#embed "constants.txt"
};

struct reckon_data_file reckon_data_units(void) { return (struct reckon_data_file){units, sizeof(units)}; }
struct reckon_data_file reckon_data_constants(void) { return (struct reckon_data_file){constants, sizeof(constants)}; }
