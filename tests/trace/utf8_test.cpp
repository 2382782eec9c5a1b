// The one UTF-8 rule the Chrome trace writer and the CLI's tables share.
#include "trace/utf8.h"

#include <gtest/gtest.h>

#include <string>

namespace {

using tokenscope::trace::utf8_sequence_length;

TEST(Utf8, ValidSequencesOfEachLength) {
    EXPECT_EQ(utf8_sequence_length("a", 0), 1u);
    EXPECT_EQ(utf8_sequence_length("\xC3\xA9", 0), 2u);          // é
    EXPECT_EQ(utf8_sequence_length("\xE2\x82\xAC", 0), 3u);      // €
    EXPECT_EQ(utf8_sequence_length("\xF0\x9F\x98\x80", 0), 4u);  // 😀
    EXPECT_EQ(utf8_sequence_length("x\xE2\x82\xAC", 1), 3u);
}

TEST(Utf8, InvalidBytesAreZero) {
    EXPECT_EQ(utf8_sequence_length("\x80", 0), 0u);                // stray continuation
    EXPECT_EQ(utf8_sequence_length("\xE2\x82", 0), 0u);            // truncated at the end
    EXPECT_EQ(utf8_sequence_length("\xE2\x41\xAC", 0), 0u);        // a non-continuation inside
    EXPECT_EQ(utf8_sequence_length("\xC0\xAF", 0), 0u);            // overlong '/'
    EXPECT_EQ(utf8_sequence_length("\xC1\xBF", 0), 0u);            // overlong
    EXPECT_EQ(utf8_sequence_length("\xFF", 0), 0u);                // no encoding uses it
    EXPECT_EQ(utf8_sequence_length("ab", 2), 0u);                  // past the end
    EXPECT_EQ(utf8_sequence_length(std::string(1, '\0'), 0), 1u);  // NUL is ASCII
}

}  // namespace
