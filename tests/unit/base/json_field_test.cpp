// The field-naming JSON reader (driver/base/json_field.h): every failure names the file and the
// field in one message, "<file>: <field>: <problem>; expected <what>", thrown as the room's own
// error type when the room gives one.
#include "driver/base/json_field.h"

#include <limits>
#include <stdexcept>

#include <gtest/gtest.h>

namespace optiml::base {
namespace {

using nlohmann::json;

// What a room's error type looks like to the reader: its own exception.
class RoomError : public std::runtime_error {
  public:
    using std::runtime_error::runtime_error;
};

[[noreturn]] void throw_room_error(const std::string& message) {
    throw RoomError(message);
}

// The message of the JsonFieldError `read` throws; "" when it throws none.
template <typename Read>
std::string error_of(Read&& read) {
    try {
        read();
    } catch (const JsonFieldError& e) {
        return e.what();
    }
    return "";
}

TEST(JsonFieldTest, TheMessageNamesTheFileTheFieldTheProblemAndWhatWasExpected) {
    EXPECT_EQ(json_field_message("k.json", "launch.block", "got 0", "a positive number"),
              "k.json: launch.block: got 0; expected a positive number");
}

TEST(JsonFieldTest, PathsNameFieldsIndicesAndDataKeys) {
    const JsonPath root("f.json");
    EXPECT_EQ(root.path(), "");
    EXPECT_EQ(root.field("a").path(), "a");  // no leading dot at the top
    EXPECT_EQ(root.field("a").field("b").path(), "a.b");
    EXPECT_EQ(root.field("a").index(3).path(), "a[3]");
    EXPECT_EQ(root.field("cache").key("16,1").field("time").path(), "cache[\"16,1\"].time");
    EXPECT_EQ(root.field("a").file(), "f.json");
}

TEST(JsonFieldTest, TheWholeDocumentIsNamedFile) {
    EXPECT_EQ(error_of([] { JsonPath("f.json").fail("not JSON", "a JSON object"); }),
              "f.json: (file): not JSON; expected a JSON object");
}

TEST(JsonFieldTest, ARoomsErrorTypeIsThrownAndCarriesOverToChildren) {
    const json document = {{"launch", {{"block", {1, "x"}}}}};
    const JsonField root(document, "", "k.json", &throw_room_error);
    try {
        root.child("launch")
            .required("block", "an array")
            .items("an array")[1]
            .integer("an integer");
        FAIL() << "no error";
    } catch (const RoomError& e) {
        EXPECT_STREQ(e.what(),
                     "k.json: launch.block[1]: got the string \"x\"; expected an integer");
    }
    // Without a room's error: JsonFieldError.
    const JsonField plain(document, "", "k.json");
    EXPECT_EQ(error_of([&] { plain.required("grid", "an array of 1 to 3 expressions"); }),
              "k.json: grid: missing; expected an array of 1 to 3 expressions");
}

TEST(JsonFieldTest, AnUnexpectedValueIsDescribed) {
    EXPECT_EQ(describe(json("abc")), "the string \"abc\"");
    EXPECT_EQ(describe(json(2.5)), "2.5");
    EXPECT_EQ(describe(json(-3)), "-3");
    EXPECT_EQ(describe(json(true)), "true");
    EXPECT_EQ(describe(json(nullptr)), "null");
    EXPECT_EQ(describe(json::array()), "an array");
    EXPECT_EQ(describe(json::object()), "an object");
    EXPECT_EQ(describe(json(std::string(70, 'a'))),
              "the string \"" + std::string(60, 'a') + "...\"");
    EXPECT_EQ(join_or({}, "none"), "none");
    EXPECT_EQ(join_or({"a"}, "none"), "a");
    EXPECT_EQ(join_or({"a", "b", "c"}, "none"), "a, b or c");
}

TEST(JsonFieldTest, ScalarsOfAnotherKindFailWithWhatTheyAre) {
    const json document = {
        {"s", "text"}, {"b", true}, {"n", 1.5}, {"i", -4}, {"o", json::object()}};
    const JsonField root(document, "", "f.json");
    EXPECT_EQ(root.child("s").string("a string"), "text");
    EXPECT_TRUE(root.child("b").boolean("true or false"));
    EXPECT_EQ(root.child("n").number("a number"), 1.5);
    EXPECT_EQ(root.child("i").integer("an integer"), -4);
    EXPECT_EQ(error_of([&] { root.child("n").integer("an integer"); }),
              "f.json: n: got 1.5; expected an integer");
    EXPECT_EQ(error_of([&] { root.child("s").number("a number"); }),
              "f.json: s: got the string \"text\"; expected a number");
    EXPECT_EQ(error_of([&] { root.child("i").unsigned_integer("a count"); }),
              "f.json: i: got -4; expected a count");
    EXPECT_EQ(error_of([&] { root.child("o").items("an array"); }),
              "f.json: o: got an object; expected an array");
    EXPECT_EQ(error_of([&] { root.child("b").expect_object("an object"); }),
              "f.json: b: got true; expected an object");
}

TEST(JsonFieldTest, IntegersOutsideInt64AreRefused) {
    const json document =
        json::parse(R"({"big": 18446744073709551615, "max": 9223372036854775807})");
    const JsonField root(document, "", "f.json");
    EXPECT_EQ(root.child("big").unsigned_integer("a count"),
              std::numeric_limits<std::uint64_t>::max());
    EXPECT_EQ(root.child("max").integer("an integer"), std::numeric_limits<std::int64_t>::max());
    EXPECT_EQ(error_of([&] { root.child("big").integer("an integer"); }),
              "f.json: big: got 18446744073709551615; expected an integer");
}

TEST(JsonFieldTest, OptionalAndRequiredMembers) {
    const json document = {{"a", 1}};
    const JsonField root(document, "", "f.json");
    EXPECT_TRUE(root.has("a"));
    EXPECT_FALSE(root.has("b"));
    EXPECT_FALSE(root.optional("b").has_value());
    ASSERT_TRUE(root.optional("a").has_value());
    EXPECT_EQ(root.optional("a")->path(), "a");
    EXPECT_FALSE(JsonField(json::array(), "x", "f.json").has("a"));  // not an object: no members
}

TEST(JsonFieldTest, AnUnknownFieldIsNamedWithTheAllowedOnesAndANearMiss) {
    const json typo = {{"paramters", 1}};
    EXPECT_EQ(error_of([&] {
                  JsonField(typo, "", "s.json").allow_only({"name", "parameters"});
              }),
              "s.json: paramters: unknown field 'paramters' (did you mean 'parameters'?); "
              "expected one of name, parameters");
    const json far = {{"launch", {{"mean", 1}}}};
    EXPECT_EQ(error_of([&] {
                  JsonField(far, "", "s.json").child("launch").allow_only({"max", "min"});
              }),
              "s.json: launch.mean: unknown field 'mean'; expected one of max, min");
}

}  // namespace
}  // namespace optiml::base
