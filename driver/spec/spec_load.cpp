// load_spec(): reads the file, parses JSON (comments allowed), rejects duplicate keys, and turns
// syntax errors into "line L, column C" messages before handing over to parse_spec().
#include <fstream>
#include <iterator>
#include <set>
#include <vector>

#include "driver/spec/detail/json_field.h"
#include "driver/spec/spec.h"

namespace optiml::spec {
namespace {

const char* const kValidJson =
    "valid JSON (look for a missing or extra comma, quote or bracket; // and /* */ comments are "
    "allowed)";

struct DuplicateKey {
    std::string path;
};

// Tracks where the parser is ("arguments[2].fill") so that a repeated key, which JSON
// libraries silently resolve to the last one, can be reported as an error.
class DuplicateKeyFinder {
  public:
    bool operator()(int /*depth*/, nlohmann::json::parse_event_t event, nlohmann::json& parsed) {
        using Event = nlohmann::json::parse_event_t;
        switch (event) {
            case Event::object_start:
                stack_.push_back({true, child_path(), {}, {}, 0});
                break;
            case Event::array_start:
                stack_.push_back({false, child_path(), {}, {}, 0});
                break;
            case Event::object_end:
            case Event::array_end:
                stack_.pop_back();
                break;
            case Event::key: {
                Frame& frame = stack_.back();
                frame.key = parsed.get<std::string>();
                if (!frame.keys.insert(frame.key).second)
                    throw DuplicateKey{join(frame.path, frame.key)};
                break;
            }
            case Event::value:
                if (!stack_.empty() && !stack_.back().is_object) ++stack_.back().index;
                break;
        }
        return true;
    }

  private:
    struct Frame {
        bool is_object;
        std::string path;
        std::set<std::string> keys;
        std::string key;    // objects: the key of the value being parsed
        std::size_t index;  // arrays: the index of the value being parsed
    };

    static std::string join(const std::string& path, const std::string& key) {
        return path.empty() ? key : path + "." + key;
    }
    std::string child_path() {
        if (stack_.empty()) return "";
        Frame& parent = stack_.back();
        if (parent.is_object) return join(parent.path, parent.key);
        return parent.path + "[" + std::to_string(parent.index++) + "]";
    }

    std::vector<Frame> stack_;
};

std::string describe_byte(const std::string& text, std::size_t offset) {
    if (offset >= text.size()) return "the end of the file";
    const unsigned char c = static_cast<unsigned char>(text[offset]);
    if (c == '\n') return "a line break";
    if (c < 0x20 || c >= 0x7f) {
        static const char* const kHex = "0123456789abcdef";
        return std::string("byte 0x") + kHex[c >> 4] + kHex[c & 0xf];
    }
    return "'" + std::string(1, static_cast<char>(c)) + "'";
}

[[noreturn]] void syntax_error(const std::string& label, const std::string& text,
                               std::size_t byte) {
    // nlohmann reports the 1-based position of the last character it read.
    const std::size_t offset = byte == 0 ? 0 : byte - 1;
    std::size_t line = 1;
    std::size_t line_start = 0;
    for (std::size_t i = 0; i < offset && i < text.size(); ++i) {
        if (text[i] == '\n') {
            ++line;
            line_start = i + 1;
        }
    }
    const std::size_t column = offset - line_start + 1;
    detail::fail(label, "(file)",
                 "JSON syntax error at line " + std::to_string(line) + ", column " +
                     std::to_string(column) + " (near " + describe_byte(text, offset) + ")",
                 kValidJson);
}

}  // namespace

Spec load_spec(const std::filesystem::path& file) {
    const std::string label = file.string();
    const char* const readable = "a readable JSON spec file";
    std::error_code error;
    if (!std::filesystem::exists(file, error))
        detail::fail(label, "(file)", "the file does not exist", readable);
    if (std::filesystem::is_directory(file, error))
        detail::fail(label, "(file)", "this is a directory", readable);
    std::ifstream stream(file, std::ios::binary);
    if (!stream.is_open()) detail::fail(label, "(file)", "the file cannot be opened", readable);
    const std::string text{std::istreambuf_iterator<char>(stream),
                           std::istreambuf_iterator<char>()};
    if (stream.bad()) detail::fail(label, "(file)", "the file cannot be read", readable);

    nlohmann::json json;
    try {
        json = nlohmann::json::parse(text, DuplicateKeyFinder{}, /*allow_exceptions=*/true,
                                     /*ignore_comments=*/true);
    } catch (const nlohmann::json::parse_error& parse_error) {
        syntax_error(label, text, parse_error.byte);
    } catch (const nlohmann::json::exception&) {
        syntax_error(label, text, text.size() + 1);
    } catch (const DuplicateKey& duplicate) {
        detail::fail(label, duplicate.path, "this field appears more than once",
                     "each field once per object");
    }
    return parse_spec(json, file);
}

}  // namespace optiml::spec
