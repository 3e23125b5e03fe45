#include "ReckonData.h"

static const unsigned char questions[] = {
#embed "questions.txt"
};

const unsigned char *reckon_data_questions(void) { return questions; }
unsigned long reckon_data_questions_size(void) { return sizeof(questions); }
