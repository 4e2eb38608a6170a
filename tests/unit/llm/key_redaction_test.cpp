// redact_key (driver/llm/detail/key_redaction.h): a long key goes wherever it occurs; a short one
// only where it stands alone, so that no unrelated word is cut apart.
#include "driver/llm/detail/key_redaction.h"

#include <gtest/gtest.h>

namespace optiml::llm {
namespace {

TEST(KeyRedaction, ALongKeyIsRedactedEverywhereEvenInsideAnotherToken) {
    const std::string key = "sk-test-SECRET-1234567890";
    EXPECT_EQ(redact_key("Incorrect API key provided: " + key + ". Try x" + key + "y", key),
              "Incorrect API key provided: <redacted>. Try x<redacted>y");
}

TEST(KeyRedaction, AShortKeyIsRedactedOnlyAsAWholeToken) {
    EXPECT_EQ(redact_key("Incorrect API key provided: a.", "a"),
              "Incorrect API key provided: <redacted>.");
    EXPECT_EQ(redact_key("'abc' is not a valid key; abcd and xabc are other words", "abc"),
              "'<redacted>' is not a valid key; abcd and xabc are other words");
    EXPECT_EQ(redact_key("key=k1&model=k1-large", "k1"), "key=<redacted>&model=k1-large");
}

TEST(KeyRedaction, AShortKeyLeavesTextWithoutItAsItWas) {
    const std::string text = "the model is overloaded, try again later (a 503 from llama.cpp)";
    EXPECT_EQ(redact_key(text, "ve"), text);
    EXPECT_EQ(redact_key(text, "lo"), text);
}

TEST(KeyRedaction, TheMarkItselfIsNotRedactedAgain) {
    // A key spelled like the mark, or inside it, does not loop or eat the mark.
    EXPECT_EQ(redact_key("red red", "red"), "<redacted> <redacted>");
    const std::string key(kShortestKeyRedactedAnywhere, 'r');
    EXPECT_EQ(redact_key(key + key, key), "<redacted><redacted>");
}

TEST(KeyRedaction, NoKeyRedactsNothing) {
    EXPECT_EQ(redact_key("Incorrect API key provided", ""), "Incorrect API key provided");
}

}  // namespace
}  // namespace optiml::llm
